#!/usr/bin/env python3
"""The Elo of one engine over the games of `kibitz match` PGN files, for a run that was
stopped before the runner printed its own summary.

    tools/pgn_elo.py NAME run1.pgn [run2.pgn ...]
    tools/pgn_elo.py --pentanomial LL,LD,DD,WD,WW [LL,LD,DD,WD,WW ...]

The second form pools runs whose files are gone from the pentanomial counts they recorded
(docs/STRENGTH.md gives one list of five for each run) and prints their Elo the same way.

Prints the games, +W =D -L, the score and its Elo with the 95% interval from the games'
own spread (trinomial), then the pentanomial counts of the game pairs (games `r.1` and `r.2`
of one file's round `r` share an opening, colours reversed) and the Elo with the 95%
interval from the pairs' spread, the figure the match runner prints.

A run that can still be finished should be: `kibitz match --resume` with the same options
plays only the missing games and prints the runner's own table (engine/src/matches/tally.rs).
This is for a run left stopped, whose file --resume refuses with fewer --rounds.
"""
import math
import sys

from match_pgn import games, white_score


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    if sys.argv[1] == "--pentanomial":
        print_pairs(pooled(sys.argv[2:]))
        return
    name = sys.argv[1]
    played = {}
    for path in sys.argv[2:]:
        for tags, _ in games(path):
            score = white_score(tags)
            if score is None or name not in (tags.get("White"), tags.get("Black")):
                continue
            if tags.get("Black") == name:
                score = 1 - score
            played[(path, tags.get("Round"))] = score
    scores = list(played.values())
    if not scores:
        sys.exit(f"no finished game of {name}")
    n = len(scores)
    mean = sum(scores) / n
    se = math.sqrt(sum((s - mean) ** 2 for s in scores) / n / n)
    wins, draws, losses = scores.count(1.0), scores.count(0.5), scores.count(0.0)
    print(f"{n} games +{wins} ={draws} -{losses} score {mean:.3f} Elo {elo(mean):+.1f} "
          f"[{elo(mean - 1.96 * se):+.1f}, {elo(mean + 1.96 * se):+.1f}] (trinomial)")
    pairs = {}
    for (path, rnd), score in played.items():
        pairs.setdefault((path, (rnd or "").split(".")[0]), []).append(score)
    sums = [sum(p) for p in pairs.values() if len(p) == 2]
    if not sums:
        return
    print_pairs([sum(1 for s in sums if s == k / 2) for k in range(5)])


def print_pairs(counts):
    """Prints the Elo, with its 95% interval, of game pairs counted by their score: `counts[k]`
    pairs scored `k / 2` of 2."""
    n = sum(counts)
    m = sum(c * k / 4 for k, c in enumerate(counts)) / n
    se2 = math.sqrt(sum(c * (k / 4 - m) ** 2 for k, c in enumerate(counts)) / n / n)
    half = (elo(m + 1.96 * se2) - elo(m - 1.96 * se2)) / 2
    print(f"pentanomial {counts} over {n} pairs: Elo {elo(m):+.1f} ± {half:.1f}")


def pooled(runs):
    """The pentanomial counts of `runs`, each `LL,LD,DD,WD,WW`, added up."""
    try:
        lists = [[int(c) for c in run.split(",")] for run in runs]
    except ValueError:
        lists = []
    if not lists or any(len(counts) != 5 or min(counts) < 0 for counts in lists) or not sum(map(sum, lists)):
        sys.exit("each run is five counts: LL,LD,DD,WD,WW")
    return [sum(column) for column in zip(*lists)]


if __name__ == "__main__":
    main()
