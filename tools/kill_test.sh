#!/usr/bin/env bash
# Kills Kibitz with SIGKILL at random moments and checks that nothing is lost.
#
#   tools/kill_test.sh [--runs N] [--scenario play|paint|book|learning|settings|all] [--keep]
#
# For each scenario, N times (default 100): start the release app under Xvfb with a prepared
# KIBITZ_HOME, let it work for a random time, kill it with SIGKILL, then read every file the
# way the next start does (engine/examples/start_check.rs, which compiles the app's own
# app/src/session.rs): every JSON file parses, the book, learned positions and PostBook load,
# the saved game is offered to resume (unless it ended), and it holds every move that was in
# current-game.json just before the kill and every move the app logged as shown on its board
# (KIBITZ_SHOWN_LOG: the app appends the plies of the Play board after each frame that shows
# a new move, just before painting it). Temporary files (`.NAME.PID.tmp`, left when a kill
# lands inside a save) are counted after each kill, and again after the next start, which
# removes those of processes that are gone.
#
# Scenarios:
#   play      two Kibitz engines play each other (New game, "Watch two engines", Beginner);
#             killed 0.3-6 s after the game started; one home for all runs, so each start
#             first sees the previous run's game and is offered to resume it.
#   paint     the same, killed 0-1 ms after the app logs the Nth move shown (N random, 1-40):
#             the moment when a move is on its way to the screen, to catch one not yet saved.
#   book      a game where Kibitz mates in one is resumed; the kill comes 0-2 ms after the
#             temporary file of the book copy (data/kibitz.kbook) is created (seen by inotify).
#   learning  the same game; the kill comes 0-800 ms after the final move is saved, while
#             Kibitz learns from the game (about 130 ms when the machine is idle) and writes
#             the PostBook and the book copy.
#   settings  the board is flipped with the f key every 50-300 ms and the window resized;
#             settings.json is written at most once a second; killed after 0.5-5 s.
#
# Needs xvfb-run, xdotool, python3. Builds `kibitz` and the checker in release first.
# Exits 1 if any file was torn or any move lost (saved, or painted but not saved).

set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1280x800x24" "$0" "$@"
fi

RUNS=100
SCENARIOS=(play paint book learning settings)
KEEP=0
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=$2; shift 2 ;;
    --scenario) [ "$2" = all ] || SCENARIOS=("$2"); shift 2 ;;
    --keep) KEEP=1; shift ;;
    -h|--help) sed -n '2,32p' "$0"; exit 0 ;;
    *) echo "kill_test: unknown argument $1" >&2; exit 2 ;;
  esac
done

cargo build --release --quiet -p kibitz --bin kibitz -p kibitz-engine --example start_check
BIN=$ROOT/target/release/kibitz
CHECK=$ROOT/target/release/examples/start_check

WORK=$(mktemp -d /tmp/kibitz-kill.XXXXXX)
export XDG_RUNTIME_DIR=$WORK/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
APP_PID=
cleanup() {
  if [ -n "$APP_PID" ]; then kill -9 "$APP_PID" 2>/dev/null || true; fi
  if [ "$KEEP" = 0 ]; then rm -rf -- "$WORK"; else echo "kept $WORK"; fi
}
trap cleanup EXIT

# The killer: polls current-game.json (keeping the last version read, as what was shown), waits
# for its trigger, sends SIGKILL and writes that last version to BEFORE.json. Prints what it
# saw: `tmp_seen=0|1 in_save=0|1` (in_save: the watched temporary file still existed just
# after the kill, so the kill landed inside that save).
cat >"$WORK/killer.py" <<'EOF'
import os, random, signal, sys, time
pid, home, mode, arg = int(sys.argv[1]), sys.argv[2], sys.argv[3], float(sys.argv[4])
shown_log = os.path.join(os.path.dirname(sys.argv[5]), "shown.log")
game = os.path.join(home, "data", "current-game.json")
data = os.path.join(home, "data")
last = None
def read():
    global last
    try:
        with open(game, "rb") as f:
            last = f.read()
    except OSError:
        pass
def tmp(prefix):
    try:
        return [n for n in os.listdir(data) if n.startswith(prefix) and n.endswith(".tmp")]
    except OSError:
        return []
def alive():
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False
seen, in_save, before = 0, 0, set(tmp(".kibitz.kbook."))
start = time.monotonic()
if mode == "delay":            # arg: seconds
    while time.monotonic() - start < arg and alive():
        read(); time.sleep(0.002)
elif mode == "book-save":      # arg: timeout in seconds; kill 0-2 ms after the temporary book appears
    import ctypes, select, struct
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init()
    libc.inotify_add_watch(fd, data.encode(), 0x100)  # IN_CREATE
    while time.monotonic() - start < arg and alive() and not seen:
        if not select.select([fd], [], [], 0.05)[0]:
            continue
        buf = os.read(fd, 65536)
        at = 0
        while at < len(buf):
            _, _, _, size = struct.unpack_from("iIII", buf, at)
            name = buf[at + 16:at + 16 + size].rstrip(b"\0")
            at += 16 + size
            if name.startswith(b".kibitz.kbook.") and name.endswith(b".tmp"):
                seen = 1
        if seen:
            time.sleep(random.uniform(0, 0.002))
elif mode == "game-over":      # arg: timeout in seconds; kill 0-800 ms after the game ended
    while time.monotonic() - start < arg and alive():
        read()
        if last and b'"pgn"' in last and b'[Result \\"*\\"]' not in last:
            seen = 1
            time.sleep(random.uniform(0, 0.800))
            break
        time.sleep(0.0005)
elif mode == "painted":        # arg: plies; kill 0-1 ms after the app logs that many shown
    size = -1
    while time.monotonic() - start < 30 and alive() and not seen:
        read()
        try:
            now = os.stat(shown_log).st_size
        except OSError:
            now = -1
        if now != size:
            size = now
            with open(shown_log, "rb") as f:
                lines = f.read().splitlines()
            if lines and int(lines[-1].split()[0]) >= arg:
                seen = 1
                time.sleep(random.uniform(0, 0.001))
                break
        time.sleep(0.0002)
read()
os.kill(pid, signal.SIGKILL)
if set(tmp(".kibitz.kbook.")) - before:
    in_save = 1
if last is not None:
    with open(sys.argv[5], "wb") as f:
        f.write(last)
print(f"tmp_seen={seen} in_save={in_save}")
with open(os.path.join(os.path.dirname(sys.argv[5]), "killer.log"), "a") as log:
    log.write(f"{mode} {arg} tmp_seen={seen} in_save={in_save}\n")
EOF

# Window coordinates of the buttons, for the window size the settings give (1100x760).
# Measured on screenshots; if the layout changes, take one (`kibitz --screenshot F`) and update.
NEW_GAME=(815 69)         # "New game" in the side panel
DIALOG_START=(351 488)    # "Start" in the New game dialog with Watch chosen
RESUME_BUTTON=(410 409)          # "Resume" in the Resume dialog
START_AFRESH=(491 409)    # "Start afresh" in the Resume dialog

start_app() { # HOME: starts the app, sets APP_PID and WID
  # A holder shell waits for the app, so that bash does not report each kill.
  rm -f -- "$WORK/pid"
  rm -f -- "$WORK/shown.log"
  (
    exec 2>/dev/null
    KIBITZ_HOME=$1 KIBITZ_SHOWN_LOG=$WORK/shown.log "$BIN" >>"$WORK/app.log" 2>&1 &
    echo $! >"$WORK/pid"
    wait
  ) &
  HOLDER=$!
  until [ -s "$WORK/pid" ]; do sleep 0.01; done
  APP_PID=$(cat "$WORK/pid")
  WID=
  for _ in $(seq 600); do
    WID=$(xdotool search --onlyvisible --pid "$APP_PID" --name Kibitz 2>/dev/null | head -1 || true)
    [ -n "$WID" ] && break
    sleep 0.05
  done
  if [ -z "$WID" ]; then
    echo "kill_test: the window did not appear in 30 s; this run is skipped" >&2
    kill -9 "$APP_PID" 2>/dev/null || true
    wait "$HOLDER" 2>/dev/null || true
    APP_PID=
    NO_WINDOW=$((NO_WINDOW + 1))
    return 1
  fi
  sleep 1 # the first frames
}

click() { # X Y: press and release in frames of their own, then a move so that egui repaints
  # The killer may kill the app between two of these (book, learning): its window is gone.
  xdotool mousemove --window "$WID" "$1" "$2" 2>/dev/null || return 0
  sleep 0.15
  xdotool click 1
  sleep 0.1
  xdotool mousemove_relative 1 1
  sleep 0.3
  if [ -n "${KILL_TEST_SHOTS:-}" ]; then import -window "$WID" "$KILL_TEST_SHOTS/shot-$RANDOM.png"; fi
}

saved_id() { # HOME: the inode of current-game.json, which every atomic save replaces
  stat -c %i "$1/data/current-game.json" 2>/dev/null || echo none
}

click_until_saved() { # HOME X Y [X Y]: clicks (the first button, then the second) until the game is saved
  local before tries
  before=$(saved_id "$1")
  for tries in 1 2 3; do
    click "$2" "$3"
    if [ $# -eq 5 ]; then click "$4" "$5"; fi
    for _ in $(seq 20); do
      [ "$(saved_id "$1")" != "$before" ] && return 0
      sleep 0.1
    done
  done
  echo "kill_test: the clicks did not start the game" >&2
  MISSED=$((MISSED + 1))
}

settings_json() { # LEARN
  printf '{"color":"watch","level":"beginner","window_size":[1100.0,760.0],"clock":{"enabled":false},"learn":%s}\n' "$1"
}

# A game against Kibitz (White, Beginner) where it mates in one: 4. Qxf7#.
MATE_IN_ONE='{"pgn":"[Event \"Kibitz game\"]\n[Site \"?\"]\n[Date \"2026.01.01\"]\n[Round \"-\"]\n[White \"Kibitz (Beginner)\"]\n[Black \"Player\"]\n[Result \"*\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 *\n","human_white":false,"level":"beginner","study":false}'

MISSED=0 NO_WINDOW=0
declare -A RUNS_DONE KILLS FILES TORN LOST TMP EXTRA SHOWN RESUMED PAINTED UNSAVED NOT_REMOVED LEFT_TMP
for s in "${SCENARIOS[@]}"; do
  RUNS_DONE[$s]=0 KILLS[$s]=0 FILES[$s]=0 TORN[$s]=0 LOST[$s]=0 TMP[$s]=0 EXTRA[$s]=0 SHOWN[$s]=0 RESUMED[$s]=0
  PAINTED[$s]=0 UNSAVED[$s]=0 NOT_REMOVED[$s]=0 LEFT_TMP[$s]=
done

tmp_names() { # HOME: the temporary files in the home's folders, one a line
  { find "$1/config" "$1/data" -maxdepth 1 -type f -name '.*.tmp' 2>/dev/null || true; } | sort
}

count_lines() { # TEXT: its non-empty lines
  printf '%s\n' "$1" | grep -c . || true
}

check() { # SCENARIO HOME BEFORE: reads the home as the next start does and counts
  local out now home=$2
  touch "$WORK/shown.log"
  cat "$WORK/shown.log" >>"$WORK/shown-all.log"
  out=$("$CHECK" "$2" "$3" "$WORK/shown.log" 2>>"$WORK/check.log" || true)
  set -- "$1" $out
  if [ "$2" != files ]; then echo "kill_test: checker failed: $out" >&2; TORN[$1]=$((TORN[$1] + 1)); return; fi
  FILES[$1]=$((FILES[$1] + $3)) TORN[$1]=$((TORN[$1] + $5)) LOST[$1]=$((LOST[$1] + $7))
  SHOWN[$1]=$((SHOWN[$1] + ${11})) RESUME=${13}
  PAINTED[$1]=$((PAINTED[$1] + ${15})) UNSAVED[$1]=$((UNSAVED[$1] + ${17}))
  if [ "$RESUME" != none ]; then RESUMED[$1]=$((RESUMED[$1] + 1)); fi
  # Temporary files: those this kill left, and those an earlier kill left that the start in
  # between did not remove.
  now=$(tmp_names "$home")
  TMP[$1]=$((TMP[$1] + $(count_lines "$(comm -13 <(printf '%s\n' "${LEFT_TMP[$1]}") <(printf '%s\n' "$now"))")))
  NOT_REMOVED[$1]=$((NOT_REMOVED[$1] + $(count_lines "$(comm -12 <(printf '%s\n' "${LEFT_TMP[$1]}") <(printf '%s\n' "$now"))")))
  LEFT_TMP[$1]=$now
}

kill_app() { # SCENARIO HOME MODE ARG: the killer's verdict in KILLED (and $WORK/killed)
  python3 "$WORK/killer.py" "$APP_PID" "$2" "$3" "$4" "$WORK/before.json" >"$WORK/killed"
  wait "$HOLDER" 2>/dev/null || true
  KILLED=$(cat "$WORK/killed")
  APP_PID=
  KILLS[$1]=$((KILLS[$1] + 1))
}

run_play() { # SCENARIO HOME MODE ARG
  rm -f -- "$WORK/before.json"
  start_app "$2" || return 0
  if [ "${RESUME:-none}" != none ]; then
    click_until_saved "$2" "${START_AFRESH[@]}" "${DIALOG_START[@]}"
  else
    click_until_saved "$2" "${NEW_GAME[@]}" "${DIALOG_START[@]}"
  fi
  kill_app "$1" "$2" "$3" "$4"
  check "$1" "$2" "$WORK/before.json"
}

run_learning() { # SCENARIO HOME MODE ARG
  rm -f -- "$WORK/before.json"
  printf '%s\n' "$MATE_IN_ONE" >"$2/data/current-game.json"
  start_app "$2" || return 0
  kill_app "$1" "$2" "$3" "$4" &
  click_until_saved "$2" "${RESUME_BUTTON[@]}"
  wait $!
  wait "$HOLDER" 2>/dev/null || true
  KILLED=$(cat "$WORK/killed")
  APP_PID=
  KILLS[$1]=$((KILLS[$1] + 1))
  case "$KILLED" in *in_save=1*) EXTRA[$1]=$((EXTRA[$1] + 1)) ;; esac
  check "$1" "$2" "$WORK/before.json"
}

run_settings() { # HOME
  rm -f -- "$WORK/before.json"
  start_app "$1" || return 0
  local until
  until=$(python3 -c 'import random,time; print(time.time() + random.uniform(0.5, 5))')
  xdotool windowfocus --sync "$WID" 2>/dev/null || true
  xdotool mousemove --window "$WID" 400 300
  (
    while :; do
      xdotool key f 2>/dev/null || exit 0
      if [ $((RANDOM % 4)) = 0 ]; then
        xdotool windowsize "$WID" $((900 + RANDOM % 300)) $((600 + RANDOM % 200)) 2>/dev/null || exit 0
      fi
      sleep "0.$((50 + RANDOM % 250))"
    done
  ) &
  local keys=$!
  kill_app settings "$1" delay "$(python3 -c "import time; print(max(0.0, $until - time.time()))")"
  kill "$keys" 2>/dev/null || true
  wait "$keys" 2>/dev/null || true
  check settings "$1" "$WORK/before.json"
}

summary() { # SCENARIO STARTED: one line of counts
  local s=$1 line
  line="$s: runs ${RUNS_DONE[$s]} kills ${KILLS[$s]} files-checked ${FILES[$s]} torn ${TORN[$s]}"
  line+=" moves-lost ${LOST[$s]} (of ${SHOWN[$s]} shown) painted-unsaved ${UNSAVED[$s]} (of ${PAINTED[$s]} painted)"
  line+=" resumable ${RESUMED[$s]} tmp-left ${TMP[$s]} tmp-not-removed-by-next-start ${NOT_REMOVED[$s]}"
  case $s in
    book | learning) line+=" kills-inside-book-save ${EXTRA[$s]}" ;;
  esac
  echo "$line seconds $(($(date +%s) - $2))"
}

for s in "${SCENARIOS[@]}"; do
  HOME_DIR=$WORK/home-$s
  mkdir -p "$HOME_DIR/config" "$HOME_DIR/data"
  case $s in
    play | paint | settings) settings_json 5 >"$HOME_DIR/config/settings.json" ;;
    *) settings_json 7 >"$HOME_DIR/config/settings.json" ;;
  esac
  RESUME=none
  started=$(date +%s)
  for i in $(seq "$RUNS"); do
    case $s in
      play) run_play play "$HOME_DIR" delay "$(python3 -c 'import random; print(random.uniform(0.3, 6))')" ;;
      paint) run_play paint "$HOME_DIR" painted "$((RANDOM % 40 + 1))" ;;
      book) run_learning book "$HOME_DIR" book-save 10 ;;
      learning) run_learning learning "$HOME_DIR" game-over 10 ;;
      settings) run_settings "$HOME_DIR" ;;
    esac
    RUNS_DONE[$s]=$i
    if [ $((i % 10)) = 0 ] && [ "$i" != "$RUNS" ]; then summary "$s" "$started" | sed 's/^/  so far, /' >&2; fi
  done
  summary "$s" "$started"
done

if [ -s "$WORK/shown-all.log" ]; then
  # How long the UI thread took to save the game, over every move logged.
  python3 - "$WORK/shown-all.log" <<'EOF'
import sys
us = sorted(int(l.split()[2]) for l in open(sys.argv[1]) if l.split() and l.split()[0] != "0")
if us:
    at = lambda q: us[min(len(us) - 1, int(q * len(us)))]
    print(f"saves of the game on the UI thread: {len(us)} moves, median {at(0.5)} us, p99 {at(0.99)} us, max {us[-1]} us")
EOF
fi
if [ "$MISSED" != 0 ]; then echo "runs where the clicks did not start the game: $MISSED"; fi
if [ "$NO_WINDOW" != 0 ]; then echo "runs skipped because the window did not appear: $NO_WINDOW"; fi
bad=0
for s in "${SCENARIOS[@]}"; do bad=$((bad + TORN[$s] + LOST[$s] + UNSAVED[$s])); done
if [ -s "$WORK/check.log" ]; then cat "$WORK/check.log" >&2; fi
[ "$bad" = 0 ]
