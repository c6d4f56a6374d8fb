#!/usr/bin/env python3
"""Two builds against one opponent on the same openings, game by game, as docs/STRENGTH.md
quotes it:

    python3 tools/paired_score.py OPPONENT A.pgn[,A2.pgn...] B.pgn[,B2.pgn...]

Each side is a comma-separated list of `kibitz match` PGN files (a gauntlet of one build
against OPPONENT, the opponent's name as in the White and Black tags). A game of A is paired
with the game of B that has the same Opening tag, the same colour for the build and the same
occurrence of that pair (the same `--seed` gives both builds the same openings in the same
order; give the two sides' files in the same order of seeds). For the paired games it prints
each build's score against the opponent with the Elo it implies, and the mean difference of
A's and B's points per game with its 95% interval (1.96 standard errors of the paired
differences); games without a partner are counted and left out.
"""
import collections, math, statistics, sys

from match_pgn import games, white_score


def points(paths, opponent):
    """(opening, the build's colour, occurrence) -> the build's points, over the files."""
    out = {}
    seen = collections.Counter()
    for path in paths.split(","):
        for tags, _ in games(path):
            white, black = tags.get("White"), tags.get("Black")
            score = white_score(tags)
            if score is None or opponent not in (white, black) or white == black:
                print(f"{path}: a game without a result or without {opponent}, left out", file=sys.stderr)
                continue
            colour = "b" if white == opponent else "w"
            key = (tags.get("Opening", ""), colour)
            seen[key] += 1
            out[key + (seen[key],)] = score if colour == "w" else 1.0 - score
    return out


def elo(score):
    """The Elo difference a score implies (clamped away from 0 and 1)."""
    s = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / s - 1)


if len(sys.argv) != 4:
    sys.exit("usage: paired_score.py OPPONENT A.pgn[,A2.pgn...] B.pgn[,B2.pgn...]")
opponent = sys.argv[1]
a, b = points(sys.argv[2], opponent), points(sys.argv[3], opponent)
common = sorted(set(a) & set(b))
if len(common) < 2:
    sys.exit("fewer than two paired games")
sa, sb = sum(a[k] for k in common), sum(b[k] for k in common)
n = len(common)
print(f"paired games: {n} (unpaired: A {len(a) - n}, B {len(b) - n})")
print(f"A: {sa:g}/{n} = {sa / n:.1%} against {opponent}, {elo(sa / n):+.0f} Elo")
print(f"B: {sb:g}/{n} = {sb / n:.1%} against {opponent}, {elo(sb / n):+.0f} Elo")
diffs = [a[k] - b[k] for k in common]
half = 1.96 * statistics.stdev(diffs) / math.sqrt(n)
mean = statistics.mean(diffs)
print(f"A - B: {mean:+.3f} ± {half:.3f} points a game (95%), {sum(d > 0 for d in diffs)} games better, "
      f"{sum(d < 0 for d in diffs)} worse, {sum(d == 0 for d in diffs)} the same")
