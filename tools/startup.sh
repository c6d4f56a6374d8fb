#!/usr/bin/env bash
# Start-up to first frame, idle RSS and idle CPU of the release build under Xvfb.
# Usage (from the repository root, after cargo build --release): tools/startup.sh
# Needs xvfb (apt-get install -y xvfb). Prints the first-frame time, idle RSS and idle CPU of five runs.
set -u
export XDG_RUNTIME_DIR=$(mktemp -d); chmod 700 "$XDG_RUNTIME_DIR"
Xvfb :78 -screen 0 1280x800x24 >/dev/null 2>&1 & XP=$!
sleep 1; export DISPLAY=:78
for i in 1 2 3 4 5; do
  KIBITZ_HOME=$(mktemp -d) KIBITZ_TRACE_STARTUP=1 ./target/release/kibitz 2>&1 >/dev/null & KP=$!
  sleep 3
  rss=$(awk '/VmRSS/ {print $2}' /proc/$KP/status)
  t0=$(awk '{print $14+$15}' /proc/$KP/stat); sleep 5; t1=$(awk '{print $14+$15}' /proc/$KP/stat)
  echo "run $i: idle RSS ${rss} kB, CPU ticks in 5 s idle: $((t1-t0))"
  kill $KP; wait $KP 2>/dev/null
done
kill $XP
