#!/usr/bin/env python3
"""Instructions one search costs with a given network, counted by valgrind's callgrind: the
same count for the same binary and input whatever else the machine is doing, so two networks
that evaluate alike (a network and its output layer copied into buckets) compare to the
instruction.

    python3 tools/callgrind_search.py NET.nnue [NODES]

Runs `kibitz-engine` under callgrind, sets `EvalFile` to NET, searches NODES (default
200,000) nodes from a middlegame position, and prints the best move and callgrind's total
(which includes the start-up and the network's loading). `KIBITZ_ENGINE` names the engine
(default target/release/kibitz-engine).
"""
import os
import subprocess
import sys

ENGINE = os.environ.get("KIBITZ_ENGINE", "target/release/kibitz-engine")
FEN = "r1bqk2r/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP3PPP/R1BQKB1R w KQkq - 1 8"


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    net = os.path.abspath(sys.argv[1])
    nodes = int(sys.argv[2]) if len(sys.argv) == 3 else 200_000
    out = f"/tmp/callgrind-search-{os.getpid()}.out"
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", ENGINE]
    try:
        p = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    except FileNotFoundError:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    p.stdin.write(f"uci\nsetoption name EvalFile value {net}\nisready\n"
                  f"position fen {FEN}\ngo nodes {nodes}\n")
    p.stdin.flush()
    best = None
    for line in p.stdout:
        if line.startswith("info string error"):
            p.kill()
            sys.exit(f"{ENGINE}: {line.strip()}")
        if line.startswith("bestmove"):
            best = line.strip()
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    err = p.communicate()[1]
    if os.path.exists(out):
        os.remove(out)
    total = [line.split(":")[-1].strip() for line in err.splitlines() if "Collected" in line]
    print(f"{os.path.basename(net)}: {best}, {total[0] if total else '?'} instructions")


if __name__ == "__main__":
    main()
