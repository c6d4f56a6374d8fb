#!/usr/bin/env bash
# The level table of docs/STRENGTH.md: `kibitz levels` plays each calibrated level against
# Debian's Stockfish limited to the level's rating (UCI_LimitStrength, UCI_Elo; at 1350, its
# weakest, for a level up to 150 below it), the levels further down against the next stronger
# level, then the weakest level against Stockfish 1350 and full strength against Stockfish
# FULL_AGAINST (default 2850, its strongest); one game at a time (pass `--concurrency 2` after TC for two),
# fishtest's openings in a seeded random order, TCEC adjudication with the 3- and 4-piece
# tablebases. Prints each match's `kibitz match` command and games, then the table.
#
#   tools/levels.sh [PAIRS] [TC] [extra kibitz levels options...]
#
# PAIRS game pairs per level (default 15) at TC (default 10+0.1); SEED (default 1) seeds the
# order of the openings, so that runs with other seeds are independent and can be pooled
# (tools/levels_pool.py). Needs
# `apt-get install stockfish`. Runs the release build of the engine crate's `cli` example,
# which is `kibitz` without its window; set KIBITZ to use another `kibitz` binary. The games go
# to one PGN per match in the folder PGN_DIR (default levels-pgn, which must not hold them yet).
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS="${1:-15}"
TC="${2:-10+0.1}"
shift $(( $# < 2 ? $# : 2 ))
PGN_DIR="${PGN_DIR:-levels-pgn}"
SEED="${SEED:-1}"
FULL_AGAINST="${FULL_AGAINST:-2850}"

if [ ! -x /usr/games/stockfish ]; then
  echo "error: /usr/games/stockfish is missing: apt-get install stockfish" >&2
  exit 1
fi
if [ -z "${KIBITZ:-}" ]; then
  cargo build --release --quiet -p kibitz-engine --example cli
  KIBITZ=target/release/examples/cli
fi
mkdir -p "$PGN_DIR"
exec nice "$KIBITZ" levels --pairs "$PAIRS" --tc "$TC" --check-pairs 5 --full-against "$FULL_AGAINST" \
  --stockfish /usr/games/stockfish --openings data/openings/2moves_v2.pgn --seed "$SEED" \
  --tb data/syzygy --pgn-dir "$PGN_DIR" "$@"
