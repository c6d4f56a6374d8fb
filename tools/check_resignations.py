#!/usr/bin/env python3
"""Checks the resignations of a `kibitz selfplay --remarks FILE` run with Stockfish.

A resignation is wrong when Stockfish, at depth 20, does not see the resigning side at least
3 pawns (300 cp) behind in the position where it resigned. Needs python-chess
(`pip install chess`) and Stockfish (`apt-get install stockfish`).

Usage: tools/check_resignations.py REMARKS.tsv [--depth 20] [--stockfish /usr/games/stockfish]
Last line: `resignations N wrong W`.
"""
import argparse
import csv
import sys

import chess
import chess.engine


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("remarks")
    ap.add_argument("--depth", type=int, default=20)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    args = ap.parse_args()
    with open(args.remarks, newline="") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["remark"].startswith("I resign")]
    wrong = 0
    with chess.engine.SimpleEngine.popen_uci(args.stockfish) as sf:
        sf.configure({"Threads": 1, "Hash": 64})
        for r in rows:
            board = chess.Board(r["fen"])
            info = sf.analyse(board, chess.engine.Limit(depth=args.depth))
            # The resigning side is to move in the recorded position.
            cp = info["score"].pov(board.turn).score(mate_score=100000)
            verdict = "ok" if cp <= -300 else "WRONG"
            wrong += verdict == "WRONG"
            print(f"game {r['game']} {r['side']} resigned at {r['fen']}: Stockfish {cp:+d} cp -> {verdict}")
    print(f"resignations {len(rows)} wrong {wrong}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
