#!/usr/bin/env python3
"""How much of its clock each engine of a `kibitz match` PGN spent, from the move times the
runner writes in each move's comment ({+0.53/12 0.35s}), as docs/STRENGTH.md quotes it:

    python3 tools/clock_use.py MATCH.pgn

For each engine: its moves, its mean seconds a move, the mean over its games of the share
of the clock it spent (time used / (base + increment x its moves), from the TimeControl tag)
and the mean clock it had left when the game ended; then its mean seconds a move by move
number (moves 1-9, 10-19, ..., 80 on; book moves have no time and are not counted).
"""
import collections, re, sys

from match_pgn import games

if len(sys.argv) != 2:
    sys.exit("usage: clock_use.py MATCH.pgn")
used = collections.defaultdict(float)
moves = collections.Counter()
shares = collections.defaultdict(list)
left = collections.defaultdict(list)
by_move = collections.defaultdict(lambda: collections.defaultdict(list))
for tags, game in games(sys.argv[1]):
    tc = re.fullmatch(r"([\d.]+)\+([\d.]+)", tags.get("TimeControl", ""))
    if not tc or "White" not in tags or "Black" not in tags or "\n\n" not in game:
        print("a game without players, moves or a base+increment TimeControl, left out", file=sys.stderr)
        continue
    base, inc = float(tc.group(1)), float(tc.group(2))
    times = {tags["White"]: [], tags["Black"]: []}
    body = game.split("\n\n", 1)[1]
    for m in re.finditer(r"(\d+)(\.\.\.|\.)\s*\S+\s*\{[^}]*?([\d.]+)s\}", body):
        engine = tags["White"] if m.group(2) == "." else tags["Black"]
        times[engine].append(float(m.group(3)))
        by_move[engine][min(int(m.group(1)) // 10, 8)].append(float(m.group(3)))
    for engine, ts in times.items():
        if ts:
            used[engine] += sum(ts)
            moves[engine] += len(ts)
            shares[engine].append(sum(ts) / (base + inc * len(ts)))
            left[engine].append(base + inc * len(ts) - sum(ts))
if not moves:
    sys.exit(f"{sys.argv[1]}: no timed moves")
for engine in moves:
    share = 100 * sum(shares[engine]) / len(shares[engine])
    rest = sum(left[engine]) / len(left[engine])
    print(f"{engine}: {moves[engine]} moves, {used[engine] / moves[engine]:.3f} s a move, {share:.0f}% of the clock, {rest:.2f} s left at the end")
    decades = sorted(by_move[engine].items())
    print("  s a move by move number: " + ", ".join(
        f"{max(d * 10, 1)}{'+' if d == 8 else f'-{d * 10 + 9}'} {sum(t) / len(t):.3f}" for d, t in decades))
