#!/usr/bin/env bash
# The gauntlet of docs/STRENGTH.md: Kibitz's built-in engine against Debian's engines with
# `kibitz match`, game pairs on fishtest's openings (data/openings/2moves_v2.pgn) in a seeded
# random order, one game at a time, TCEC adjudication with the 3- and 4-piece tablebases.
#
#   tools/gauntlet.sh [PAIRS] [TC] [extra kibitz match options...]
#
# PAIRS game pairs against each engine (default 10) at TC (default 10+0.1). Needs
# `apt-get install fairymax phalanx glaurung toga2 ethereal-chess stockfish`. Runs the release
# build of the engine crate's `cli` example, which is `kibitz` without its window; set KIBITZ
# to use another `kibitz` binary. The games go to gauntlet.pgn (set PGN to change).
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS="${1:-10}"
TC="${2:-10+0.1}"
shift $(( $# < 2 ? $# : 2 ))
PGN="${PGN:-gauntlet.pgn}"

for engine in fairymax phalanx glaurung toga2 ethereal-chess stockfish; do
  if [ ! -x "/usr/games/$engine" ]; then
    echo "error: /usr/games/$engine is missing: apt-get install $engine" >&2
    exit 1
  fi
done
if [ -z "${KIBITZ:-}" ]; then
  cargo build --release --quiet -p kibitz-engine --example cli
  KIBITZ=target/release/examples/cli
fi

# Phalanx: -l- (no learning file), -b- (no book). Glaurung and Toga II: no book of their own.
# One thread and 16 MB of hash each; Stockfish limited to 1500 and 2000 Elo.
exec nice "$KIBITZ" match --format gauntlet --tc "$TC" --rounds "$PAIRS" --games 2 --concurrency 1 \
  --openings data/openings/2moves_v2.pgn --order random --seed 1 \
  --adjudication tcec --tb data/syzygy --pgnout "$PGN" \
  --engine "name=Kibitz cmd=builtin" \
  --engine "name=Fairy-Max cmd=/usr/games/fairymax proto=xboard" \
  --engine "name=Phalanx cmd=/usr/games/phalanx arg=-l- arg=-b- proto=xboard" \
  --engine "name=Glaurung cmd=/usr/games/glaurung proto=uci option.Threads=1 option.Hash=16 option.OwnBook=false" \
  --engine "name=Toga2 cmd=/usr/games/toga2 proto=uci option.Hash=16 option.OwnBook=false" \
  --engine "name=Ethereal cmd=/usr/games/ethereal-chess proto=uci option.Threads=1 option.Hash=16" \
  --engine "name=SF1500 cmd=/usr/games/stockfish proto=uci option.Threads=1 option.Hash=16 option.UCI_LimitStrength=true option.UCI_Elo=1500" \
  --engine "name=SF2000 cmd=/usr/games/stockfish proto=uci option.Threads=1 option.Hash=16 option.UCI_LimitStrength=true option.UCI_Elo=2000" \
  "$@"
