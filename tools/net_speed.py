#!/usr/bin/env python3
"""The engine's CPU cost of evaluation networks: user CPU seconds of three searches of
1.5 million nodes each (a fresh game before each) with `EvalFile` set to each network given,
REPEATS rounds in turn. User CPU, not wall time, so that other work on the machine moves the
figures less (it still moves them by a few per cent: compare networks within one run).

    python3 tools/net_speed.py REPEATS NET.nnue [NET.nnue ...]

`KIBITZ_ENGINE` names the engine (default target/release/kibitz-engine).
"""
import os
import resource
import subprocess
import sys

ENGINE = os.environ.get("KIBITZ_ENGINE", "target/release/kibitz-engine")
FENS = [
    "r1bqk2r/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP3PPP/R1BQKB1R w KQkq - 1 8",
    "4r1k1/p4ppp/1q6/3Q4/8/1P4P1/P4P1P/3R2K1 b - - 0 25",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
]


def searches(net, nodes=1_500_000):
    """Runs the searches with `net`; returns when the engine has quit."""
    p = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write(f"uci\nsetoption name EvalFile value {os.path.abspath(net)}\n"
                  "setoption name Hash value 16\nisready\n")
    p.stdin.flush()
    # A network the engine refuses would leave it on its built-in one: stop instead.
    for line in p.stdout:
        if line.startswith("info string error"):
            p.kill()
            sys.exit(f"{net}: {line.strip()}")
        if line.startswith("readyok"):
            break
    for fen in FENS:
        p.stdin.write(f"ucinewgame\nposition fen {fen}\ngo nodes {nodes}\n")
        p.stdin.flush()
        for line in p.stdout:
            if line.startswith("bestmove"):
                break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    if not os.access(ENGINE, os.X_OK):
        sys.exit(f"no engine at {ENGINE}: build it with `cargo build --release -p kibitz-engine`"
                 " or set KIBITZ_ENGINE")
    before = 0.0
    for _ in range(int(sys.argv[1])):
        for net in sys.argv[2:]:
            searches(net)
            used = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
            print(f"{net}: {used - before:.2f} s user")
            before = used


if __name__ == "__main__":
    main()
