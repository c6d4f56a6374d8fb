#!/usr/bin/env python3
"""How well evaluation networks agree with a stronger engine's static evaluation: Stockfish's
`eval` on positions sampled from a datagen file, against Kibitz's network evaluation (the UCI
`eval` command) with `EvalFile` set to each network given. A network trained to predict its
own searches' scores can fit them better and still judge positions worse; this measures the
second thing without playing a game.

    python3 tools/net_agreement.py DATA.txt COUNT NET.nnue [NET.nnue ...]

DATA is a datagen file (`<FEN> | <score> | <result>`; any line whose first `|`-field is a FEN
will do), COUNT positions are taken evenly spread over it (positions in check are skipped:
Stockfish gives no evaluation there). Per network it prints, over the positions both engines
scored: the Pearson correlation of the two evaluations (each clamped to +-1500 cp), the mean
absolute difference in centipawns, and the mean squared difference of the win chances
`1 / (1 + exp(-cp / 400))`. The datagen score (the search that wrote the file) is given the
same figures as a reference row.

With `--depth N` before the arguments, the reference is Stockfish's score of a `go depth N`
search instead of its static evaluation (mates count as +-1500 cp).

`KIBITZ_ENGINE` names the engine (default target/release/kibitz-engine), `STOCKFISH` the
reference (default /usr/games/stockfish, Debian's `stockfish` package).
"""
import math
import os
import subprocess
import sys

ENGINE = os.environ.get("KIBITZ_ENGINE", "target/release/kibitz-engine")
STOCKFISH = os.environ.get("STOCKFISH", "/usr/games/stockfish")
CLAMP = 1500


def sample(path, count):
    """Up to `count` (FEN, datagen score) pairs spread evenly over the file at `path`."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [line for line in f if "|" in line]
    step = max(1, len(lines) // max(1, count))
    out = []
    for line in lines[::step][:count]:
        fields = [x.strip() for x in line.split("|")]
        try:
            score = float(fields[1]) if len(fields) > 1 else None
        except ValueError:
            score = None
        out.append((fields[0], score))
    return out


def evaluations(command, setup, fens, marker, parse):
    """Runs `command`, sends `setup`, then `position fen F` and `eval` for each FEN; returns
    one value or None a position, from the output line that starts with `marker`."""
    script = setup + "".join(f"position fen {fen}\neval\nisready\n" for fen in fens) + "quit\n"
    done = subprocess.run(command, input=script, capture_output=True, text=True, check=False)
    values, current, ready = [], None, False
    for line in done.stdout.splitlines():
        line = line.strip()
        # A network the engine refuses would leave it on its built-in one: stop instead.
        if line.startswith("info string error"):
            sys.exit(f"{command[0]}: {line}")
        if line.startswith(marker):
            current = parse(line)
        elif line == "readyok":
            # The first answers the setup's `isready`.
            if ready:
                values.append(current)
            ready, current = True, None
    if len(values) != len(fens):
        sys.exit(f"{command[0]}: {len(values)} answers to {len(fens)} positions\n{done.stderr}")
    return values


def searched(fens, depth):
    """Stockfish's score, White's side, of a `go depth` search of each FEN."""
    process = subprocess.Popen([STOCKFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    process.stdin.write("uci\nsetoption name Hash value 16\n")
    values = []
    for fen in fens:
        try:
            process.stdin.write(f"ucinewgame\nposition fen {fen}\ngo depth {depth}\n")
            process.stdin.flush()
        except BrokenPipeError:
            sys.exit(f"{STOCKFISH} quit before position {len(values) + 1}: {fen}")
        last = None
        for line in process.stdout:
            words = line.split()
            if words[:1] == ["bestmove"]:
                break
            if "score" in words and len(words) > words.index("score") + 2:
                kind, value = words[words.index("score") + 1], int(words[words.index("score") + 2])
                last = value if kind == "cp" else (CLAMP if value > 0 else -CLAMP)
        else:
            sys.exit(f"{STOCKFISH} stopped answering at position {len(values) + 1}: {fen}")
        black = fen.split()[1:2] == ["b"]
        values.append(None if last is None else (-last if black else last))
    process.stdin.write("quit\n")
    process.stdin.flush()
    process.wait()
    return values


def pawns_of(line):
    """The first signed number of `line`, in centipawns, or None."""
    for word in line.split():
        if word[:1] in "+-" and word[1:2].isdigit():
            return round(float(word) * 100)
    return None


def figures(ours, reference):
    pairs = [(a, b) for a, b in zip(ours, reference) if a is not None and b is not None]
    if len(pairs) < 2:
        return None
    xs = [max(-CLAMP, min(CLAMP, a)) for a, _ in pairs]
    ys = [max(-CLAMP, min(CLAMP, b)) for _, b in pairs]
    n = len(pairs)
    mx, my = sum(xs) / n, sum(ys) / n
    cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    corr = cov / (sx * sy) if sx and sy else float("nan")
    mad = sum(abs(x - y) for x, y in zip(xs, ys)) / n
    win = lambda cp: 1 / (1 + math.exp(-cp / 400))
    mse = sum((win(x) - win(y)) ** 2 for x, y in zip(xs, ys)) / n
    # The least-squares slope of the reference on these values: above 1, they are too timid.
    slope = cov / sum((x - mx) ** 2 for x in xs) if sx else float("nan")
    return n, corr, mad, mse, slope


def main():
    args = sys.argv[1:]
    depth = None
    if args[:1] == ["--depth"] and len(args) > 1:
        depth, args = int(args[1]), args[2:]
    if len(args) < 3:
        sys.exit(__doc__)
    for tool in (ENGINE, STOCKFISH):
        if not os.access(tool, os.X_OK):
            sys.exit(f"no engine at {tool}: see this script's doc")
    try:
        data = sample(args[0], int(args[1]))
    except (OSError, ValueError) as e:
        sys.exit(f"cannot read {args[1]} positions of {args[0]}: {e}")
    if not data:
        sys.exit(f"{args[0]}: no positions")
    fens = [fen for fen, _ in data]
    if depth is None:
        reference = evaluations([STOCKFISH], "uci\nisready\n", fens, "Final evaluation", pawns_of)
    else:
        reference = searched(fens, depth)
    # White's side, like the datagen score and Kibitz's network line.
    rows = [("datagen score", [None if s is None else round(s) for _, s in data])]
    for net in args[2:]:
        setup = f"uci\nsetoption name EvalFile value {os.path.abspath(net)}\nisready\n"
        rows.append((net, evaluations([ENGINE], setup, fens, "Network evaluation", pawns_of)))
    against = "Stockfish eval" if depth is None else f"Stockfish depth {depth}"
    print(f"{'against ' + against:<28} {'n':>6} {'corr':>7} {'mean |d| cp':>12} {'win-chance MSE':>15} {'slope':>6}")
    for name, values in rows:
        result = figures(values, reference)
        if result is None:
            print(f"{name:<28} no positions scored")
            continue
        n, corr, mad, mse, slope = result
        print(f"{name:<28} {n:>6} {corr:>7.4f} {mad:>12.1f} {mse:>15.6f} {slope:>6.3f}")


if __name__ == "__main__":
    main()
