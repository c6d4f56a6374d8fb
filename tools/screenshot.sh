#!/usr/bin/env bash
# Plays four moves against Kibitz in the real window under Xvfb and saves a screenshot.
# Usage (from the repository root, after cargo build --release): tools/screenshot.sh [OUT.png]
# Needs xvfb, xdotool and imagemagick (apt-get install -y xvfb xdotool imagemagick).
set -u
export XDG_RUNTIME_DIR=$(mktemp -d); chmod 700 $XDG_RUNTIME_DIR
export KIBITZ_HOME=$(mktemp -d)
mkdir -p $KIBITZ_HOME/config
echo '{"clock": {"enabled": true, "player": "level 0 5 3"}, "level": "club"}' > $KIBITZ_HOME/config/settings.json
Xvfb :79 -screen 0 1280x800x24 >/dev/null 2>&1 & XP=$!
sleep 1; export DISPLAY=:79
./target/release/kibitz >/tmp/kibitz2.out 2>&1 & KP=$!
WID=$(xdotool search --sync --name Kibitz | head -1)
sleep 1.5
sq() { local x=$((8 + $1*93 + 46)) y=$((8 + (8-$2)*93 + 46)); xdotool mousemove --window "$WID" $x $y click 1; sleep 0.4; }
sq 3 2; sq 3 4     # d4
sleep 2.5
sq 6 1; sq 5 3     # Nf3
sleep 2.5
sq 4 2; sq 4 3     # e3
sleep 2.5
sq 5 1; sq 3 3     # Bd3
sleep 1.5
import -window "$WID" "${1:-docs/screenshot.png}"
kill $KP; sleep 0.5; kill $XP
