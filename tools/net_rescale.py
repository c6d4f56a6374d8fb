#!/usr/bin/env python3
"""Writes a copy of a Kibitz network whose every evaluation is FACTOR times the original's: the
output layer's weights and bias (the evaluation is linear in them) are multiplied and
rounded. The hidden layer is untouched, so the network ranks positions as before; only the
scale that the search's pruning margins meet changes.

    python3 tools/net_rescale.py IN.nnue OUT.nnue FACTOR

The format is `train_network`'s (engine/examples/train_network.rs): `KBZNET01`, the hidden
size H as u32, W1 i16[768 H], b1 i16[H], W2 i16[2 H], b2 i32, little-endian. OUT is written
to OUT.tmp and renamed.
"""
import math
import os
import struct
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    source, target = sys.argv[1], sys.argv[2]
    try:
        factor = float(sys.argv[3])
        data = bytearray(open(source, "rb").read())
    except (OSError, ValueError) as e:
        sys.exit(f"net_rescale: {e}")
    if not math.isfinite(factor) or factor <= 0:
        sys.exit(f"net_rescale: the factor must be a positive number, not {sys.argv[3]}")
    if data[:8] != b"KBZNET01" or len(data) < 12:
        sys.exit(f"{source}: not a Kibitz network file (no KBZNET01 header)")
    hidden = struct.unpack_from("<I", data, 8)[0]
    out_weights = 12 + 2 * 768 * hidden + 2 * hidden
    if len(data) != out_weights + 4 * hidden + 4:
        sys.exit(f"{source}: {len(data)} bytes, not the size of a {hidden}-neuron network")
    weights = struct.unpack_from(f"<{2 * hidden}h", data, out_weights)
    scaled = [round(w * factor) for w in weights]
    # The engine's limit (engine/src/network.rs, MAX_OUTPUT_WEIGHT): its integer sums hold no more.
    limit = (2**31 - 1) // (64 * 255 * 255)
    if any(abs(w) > limit for w in scaled):
        sys.exit(f"factor {factor} takes an output weight beyond the engine's ±{limit}")
    struct.pack_into(f"<{2 * hidden}h", data, out_weights, *scaled)
    bias = struct.unpack_from("<i", data, out_weights + 4 * hidden)[0]
    try:
        struct.pack_into("<i", data, out_weights + 4 * hidden, round(bias * factor))
    except struct.error:
        sys.exit(f"factor {factor} takes the output bias beyond 32 bits")
    with open(target + ".tmp", "wb") as f:
        f.write(data)
    os.replace(target + ".tmp", target)


if __name__ == "__main__":
    main()
