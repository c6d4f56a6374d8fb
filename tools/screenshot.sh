#!/usr/bin/env bash
# Drive the real window: play 1.e4 and 2.Nf3 by clicks, then screenshot.
# Usage (from the repository root, after cargo build --release): tools/screenshot.sh [OUT.png]
# Needs xvfb, xdotool and imagemagick (apt-get install -y xvfb xdotool imagemagick).
set -u
export XDG_RUNTIME_DIR=$(mktemp -d); chmod 700 $XDG_RUNTIME_DIR
export KIBITZ_HOME=$(mktemp -d)
Xvfb :77 -screen 0 1280x800x24 >/dev/null 2>&1 &
XP=$!
sleep 1
export DISPLAY=:77
./target/release/kibitz >/tmp/kibitz.out 2>&1 &
KP=$!
WID=$(xdotool search --sync --name Kibitz | head -1)
sleep 1.5
sq() { # file index 0-7, rank 1-8 -> click
  local x=$((8 + $1*93 + 46)) y=$((8 + (8-$2)*93 + 46))
  xdotool mousemove --window "$WID" $x $y click 1; sleep 0.4
}
sq 4 2; sq 4 4            # e2 e4
sleep 2.5
sq 6 1; sq 5 3            # g1 f3
sleep 1.5
sq 5 1                    # select the f1 bishop to show legal-move dots
sleep 0.3
import -window "$WID" "${1:-docs/screenshot.png}"
grep VmRSS /proc/$KP/status
kill $KP; sleep 0.5; kill $XP
