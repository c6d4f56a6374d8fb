#!/usr/bin/env python3
"""Pools the level tables of several `kibitz levels` runs (tools/levels.sh) into one.

    tools/levels_pool.py RUN1.log RUN2.log ...

Each log's table (the Markdown rows before "Check:") gives every level's rating and the
half-width of its 95% interval. The runs are independent measurements of the same model
settings, so each setting's ratings are averaged with weights 1/error^2 (inverse variance),
and the pooled half-width is 1/sqrt(sum of 1/error^2). Full strength is pooled likewise. A
level missing from a run, or measured without a finite rating, is left out of that run. The
last column is the label `engine/src/level.rs` takes (`CALIBRATION`, `FULL_ELO`): the pooled
rating rounded to 10.
"""

import math
import re
import sys

ROW = re.compile(
    r"^\| (?P<level>[^|]+) \| (?P<setting>[^|]+) \| (?P<opponent>[^|]+) \| (?P<games>\d+) \| "
    r"(?P<record>[^|]+) \| [^|]+ \| (?P<elo>[^|]+) \| ± (?P<error>[^|]+) \|$"
)


def rows(path):
    """The (setting, games, record, elo, error) of each measured level in one run's table."""
    found = []
    with open(path, encoding="utf-8") as log:
        for line in log:
            if line.startswith("Check:"):
                break
            m = ROW.match(line.strip())
            if not m:
                continue
            setting = m["setting"].strip()
            key = "full" if setting == "-" else int(setting)
            try:
                elo, error = float(m["elo"]), float(m["error"])
            except ValueError:
                continue
            if math.isfinite(elo) and math.isfinite(error) and error > 0:
                found.append((key, int(m["games"]), m["record"].strip(), elo, error))
    return found


def main(paths):
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    pooled = {}
    for path in paths:
        try:
            measured = rows(path)
        except (OSError, UnicodeDecodeError) as e:
            print(f"levels_pool: cannot read {path}: {e}", file=sys.stderr)
            return 1
        for key, games, record, elo, error in measured:
            pooled.setdefault(key, []).append((games, record, elo, error))
    if not pooled:
        print("no level table in " + ", ".join(paths), file=sys.stderr)
        return 1
    print("| Setting | Runs (+W =D -L: Elo ± 95%) | Games | Pooled Elo | 95% (±) | Label |")
    print("|---|---|---|---|---|---|")
    order = sorted((k for k in pooled if k != "full")) + (["full"] if "full" in pooled else [])
    for key in order:
        runs = pooled[key]
        weights = [1 / error**2 for _, _, _, error in runs]
        elo = sum(w * r[2] for w, r in zip(weights, runs)) / sum(weights)
        error = 1 / math.sqrt(sum(weights))
        each = "; ".join(f"{record}: {e:.0f} ± {err:.0f}" for _, record, e, err in runs)
        games = sum(r[0] for r in runs)
        setting = "full strength" if key == "full" else str(key)
        print(f"| {setting} | {each} | {games} | {elo:.0f} | {error:.0f} | {round(elo / 10) * 10} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
