#!/usr/bin/env python3
"""A model of how Kibitz spends a 10+0.1 clock, as docs/STRENGTH.md (session 34) quotes it:

    python3 tools/clock_model.py 0.73 1.02 1.27

Each move spends c x (time left / 30 + 0.075) s, never more than 40% of the time left, then
gains the 0.1 s increment (engine/src/search/time.rs: the target is the time left over 30
moves plus 3/4 of the increment; c is the soft limit's share of it, stretched by the
stability scaling and by iterations that end past the soft limit). For each c it prints the
first move's time and the time left after 70 moves, a typical game's length.
"""
import sys

if len(sys.argv) < 2:
    sys.exit("usage: clock_model.py C...")
for arg in sys.argv[1:]:
    try:
        c = float(arg)
    except ValueError:
        sys.exit(f"{arg}: not a number")
    left, first = 10.0, None
    for _ in range(70):
        spent = min(c * (left / 30 + 0.075), 0.4 * left)
        first = spent if first is None else first
        left += 0.1 - spent
    print(f"c = {c}: first move {first:.3f} s, {left:.2f} s left after 70 moves")
