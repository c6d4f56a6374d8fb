#!/usr/bin/env python3
"""Which engine of a `kibitz match` saw each decisive game coming first, from the scores the
runner writes in each move's comment ({+0.53/12 0.35s}, mover's view; M for a mate):

    python3 tools/first_sight.py ENGINE MATCH.pgn [MORE.pgn ...] [--pawns 1.5]

For ENGINE's wins and then its losses: in how many games each side's own score first reached
the final result's side of +/-PAWNS sooner (by move number), and the median lead in moves of
whichever side saw it first. A side that never reached it is left out of that game's count.
"""
import argparse, re, statistics

from match_pgn import games, white_score

_SCORE = re.compile(r"(\d+)(\.\.\.|\.)\s*\S+\s*\{([+-]?)(M?)(\d+(?:\.\d+)?)/")


def first_moves(tags, game, engine, winner_white, pawns):
    """The move numbers at which ENGINE's and its opponent's scores first favoured the winner
    by PAWNS (None where never)."""
    body = game.split("\n\n", 1)[1]
    seen = {True: None, False: None}  # keyed by "is ENGINE"
    for m in _SCORE.finditer(body):
        white = m.group(2) == "."
        score = 1000.0 if m.group(4) else float(m.group(5))
        score = -score if m.group(3) == "-" else score
        for_winner = score if white == winner_white else -score
        mover_is_engine = (tags["White"] if white else tags["Black"]) == engine
        if seen[mover_is_engine] is None and for_winner >= pawns:
            seen[mover_is_engine] = int(m.group(1))
    return seen[True], seen[False]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--pawns", type=float, default=1.5)
    args = ap.parse_args()
    outcomes = {"wins": [], "losses": []}
    for path in args.pgn:
        for tags, game in games(path):
            score = white_score(tags)
            if score in (None, 0.5) or args.engine not in (tags.get("White"), tags.get("Black")):
                continue
            if "\n\n" not in game:
                continue
            winner_white = score == 1.0
            won = (tags["White"] == args.engine) == winner_white
            outcomes["wins" if won else "losses"].append(
                first_moves(tags, game, args.engine, winner_white, args.pawns))
    if not any(outcomes.values()):
        ap.exit(1, f"no decisive game of {args.engine} in {', '.join(args.pgn)}\n")
    for name, pairs in outcomes.items():
        both = [(e, o) for e, o in pairs if e is not None and o is not None]
        leads = [abs(e - o) for e, o in both if e != o]
        print(f"{args.engine}'s {name}: {len(pairs)}; {args.engine} saw {args.pawns} first in "
              f"{sum(e < o for e, o in both)}, the opponent in {sum(o < e for e, o in both)}, "
              f"the same move in {sum(e == o for e, o in both)}; median lead "
              f"{statistics.median(leads) if leads else '-'} moves")


if __name__ == "__main__":
    main()
