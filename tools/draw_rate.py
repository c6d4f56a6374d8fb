#!/usr/bin/env python3
"""How often Kibitz's own games are drawn, from `datagen` files (FEN | score | result):

    python3 tools/draw_rate.py DATA.txt [DATA.txt ...]

Prints the share drawn of the level positions (score within 30 centipawns) by move number
and by the pieces on the board, as docs/BENCHMARKS.md quotes them ("Self-play tuning",
session 23), then the share drawn by men on the board and size of the score, in percent,
as the rows of `DRAWN` in engine/src/tuning/draw_odds.rs (session 26), whose bounds
`MEN` and `SCORE` are repeated here.
"""
import collections, sys

MEN = [2, 8, 12, 16, 20, 24, 28]
SCORE = [0, 25, 50, 100, 150, 200, 300]

if len(sys.argv) < 2:
    sys.exit("usage: draw_rate.py DATA.txt [DATA.txt ...]")
by_move = collections.defaultdict(lambda: [0, 0])
by_pieces = collections.defaultdict(lambda: [0, 0])
by_men_score = collections.defaultdict(lambda: [0, 0])
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
        drawn = result == 0.5
        men = sum(c.isalpha() for c in fields[0])
        row = max(i for i, low in enumerate(MEN) if men >= low)
        column = max(i for i, low in enumerate(SCORE) if abs(score) >= low)
        by_men_score[row, column][0] += drawn
        by_men_score[row, column][1] += 1
        if abs(score) > 30:
            continue
        for table, key in ((by_move, min(move // 10 * 10, 100)), (by_pieces, men // 4 * 4)):
            table[key][0] += drawn
            table[key][1] += 1
if skipped:
    print(f"{skipped} lines not of the form FEN | score | result, left out", file=sys.stderr)
for title, table in (("from move", by_move), ("pieces from", by_pieces)):
    print(f"{title}: positions, share drawn")
    for key in sorted(table):
        drawn, n = table[key]
        print(f"  {key}: {n}, {drawn / n:.3f}")
print(f"percent drawn by men from {MEN} (rows) and score from {SCORE} (columns); positions")
for row in range(len(MEN)):
    cells = [by_men_score[row, column] for column in range(len(SCORE))]
    percent = ", ".join(f"{round(100 * d / n) if n else 0:3}" for d, n in cells)
    counts = " ".join(str(n) for _, n in cells)
    print(f"    [{percent}], // {counts}")
