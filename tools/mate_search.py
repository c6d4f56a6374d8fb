#!/usr/bin/env python3
"""Searches for the mates of an EPD suite (`go mate N`) with UCI engines, as docs/BENCHMARKS.md
quotes it:

    python3 tools/mate_search.py SUITE.epd FINDER ENGINE[,ENGINE...] [THREADS[,THREADS...]]

FINDER searches each position to depth 7 on one thread; where it reports a mate in N for the
side to move, every ENGINE, on each number of THREADS (default 1,2), is asked `go mate N` by a
fresh process with 8 MB of hash. One line per position, then for each engine and thread count
how many of the mates it found (a mate in N or fewer), and its nodes and milliseconds in all.
"""
import re
import subprocess
import sys

SCORE = re.compile(r"score (cp|mate) (-?\d+).* nodes (\d+).* time (\d+)")


def search(binary, fen, go, threads=1):
    """The last exact report of a fresh `binary` asked `go` on `fen`: (kind, value, nodes, ms)."""
    try:
        proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    except OSError as e:
        sys.exit(f"{binary}: {e.strerror}")
    setup = f"setoption name Threads value {threads}\nsetoption name Hash value 8\n"
    last = None
    try:
        proc.stdin.write(f"uci\n{setup}isready\nposition fen {fen}\n{go}\n")
        proc.stdin.flush()
        for line in proc.stdout:
            if line.startswith("bestmove"):
                break
            if line.startswith("info") and " score " in line and "bound" not in line:
                last = line
        else:
            sys.exit(f"{binary} quit without a bestmove for `{go}` on {fen}")
        proc.stdin.write("quit\n")
        proc.stdin.close()
    except BrokenPipeError:
        sys.exit(f"{binary} quit before `{go}` on {fen}")
    proc.wait()
    found = SCORE.search(last or "")
    if not found:
        return None
    kind, value, nodes, ms = found.groups()
    return kind, int(value), int(nodes), int(ms)


def read_lines(path):
    """The lines of the text file at `path`; a file that cannot be read ends the run, said so."""
    try:
        with open(path, encoding="utf-8") as f:
            return f.readlines()
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")
    except UnicodeDecodeError:
        sys.exit(f"{path}: not a UTF-8 text file")


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    suite, finder, engines = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
    threads = (sys.argv[4] if len(sys.argv) == 5 else "1,2").split(",")
    if not all(t.isdigit() and int(t) > 0 for t in threads):
        sys.exit(f"THREADS: expected numbers above zero separated by commas, got {sys.argv[4]!r}")
    threads = [int(t) for t in threads]
    runs = [(engine, t) for engine in engines for t in threads]
    totals = {run: [0, 0, 0] for run in runs}
    mates = 0
    for line in read_lines(suite):
        fields = line.split()
        if len(fields) < 4:
            continue
        fen = " ".join(fields[:4]) + " 0 1"
        name = re.search(r'id "([^"]+)"', line)
        first = search(finder, fen, "go depth 7")
        if not first or first[0] != "mate" or first[1] <= 0:
            continue
        moves = first[1]
        mates += 1
        row = [name.group(1) if name else fen, f"mate {moves}"]
        for run in runs:
            got = search(run[0], fen, f"go mate {moves}", run[1])
            if got:
                totals[run][0] += got[0] == "mate" and 0 < got[1] <= moves
                totals[run][1] += got[2]
                totals[run][2] += got[3]
            row.append(f"{got[0]} {got[1]}" if got else "none")
        print("  ".join(row), flush=True)
    for (engine, t), (found, nodes, ms) in totals.items():
        print(f"{engine} on {t} threads: {found}/{mates} mates, {nodes} nodes, {ms} ms")


if __name__ == "__main__":
    main()
