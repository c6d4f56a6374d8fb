#!/usr/bin/env python3
"""How often Kibitz's own games are drawn from a level position, by move number and by the
pieces on the board, from `datagen` files (FEN | score | result), as docs/BENCHMARKS.md
quotes it ("Self-play tuning", session 23):

    python3 tools/draw_rate.py DATA.txt [DATA.txt ...]

A position is level when its score is within 30 centipawns.
"""
import collections, sys

if len(sys.argv) < 2:
    sys.exit("usage: draw_rate.py DATA.txt [DATA.txt ...]")
by_move = collections.defaultdict(lambda: [0, 0])
by_pieces = collections.defaultdict(lambda: [0, 0])
skipped = 0
for path in sys.argv[1:]:
    try:
        lines = open(path, encoding="utf-8")
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")
    for line in lines:
        try:
            fen, score, result = line.split(" | ")
            fields = fen.split()
            move, score, result = int(fields[5]), int(score), float(result)
        except (ValueError, IndexError):
            skipped += 1
            continue
        if abs(score) > 30:
            continue
        drawn = result == 0.5
        for table, key in ((by_move, min(move // 10 * 10, 100)), (by_pieces, sum(c.isalpha() for c in fields[0]) // 4 * 4)):
            table[key][0] += drawn
            table[key][1] += 1
if skipped:
    print(f"{skipped} lines not of the form FEN | score | result, left out", file=sys.stderr)
for title, table in (("from move", by_move), ("pieces from", by_pieces)):
    print(f"{title}: positions, share drawn")
    for key in sorted(table):
        drawn, n = table[key]
        print(f"  {key}: {n}, {drawn / n:.3f}")
