#!/usr/bin/env bash
# The transposes' phases of `a2a fft`: through `mpi` (packed transposes) every phase timed and
# each rate positive, with memcpy's reference; through the default `auto` (shared_window), fused
# with the plane transforms both ways (forced through the remembered ways, FILE.ways, since
# fused or not is otherwise timed), no pack or unpack pass of its own, but its exchange.
# Usage: fft_transpose_phases.sh A2A LAUNCHER...
set -euo pipefail
a2a=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
key="double c2c 24x20x16 on 3x1 chunks 1 measure"
printf '%s: fused forward = yes\n%s: fused backward = yes\n' "$key" "$key" > "$dir/w.ways"
for b in mpi auto; do
  "$@" "$a2a" fft --grid 24x20x16 --proc-grid 3x1 --iters 3 --backend "$b" --wisdom "$dir/w" \
    --format json
done | /usr/bin/python3 -c '
import json, sys
rs = [json.loads(l) for l in sys.stdin.read().splitlines()]
keys = ["pack_us", "exchange_us", "unpack_us", "pack_gbps", "exchange_gbps", "unpack_gbps",
        "memcpy_gbps"]
bad = [k for k in keys if not rs[0][k] > 0]
assert not bad, (bad, rs[0])
planes = rs[1]["local_transforms"].split(",")[0]
assert planes.count("fused") == 2, rs[1]
bad = [k for k in ["exchange_us", "exchange_gbps"] if not rs[1][k] > 0]
bad += [k for k in ["pack_us", "unpack_us"] if rs[1][k] != 0]
assert not bad, (bad, rs[1])
assert all(r["check"] == "passed" for r in rs), rs
print("transpose phases: 2 passed, 0 failed")'
