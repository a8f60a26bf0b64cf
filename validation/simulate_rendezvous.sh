#!/usr/bin/env bash
# simulate_rendezvous.sh SIMULATE: NPB IS in simulation with every message by rendezvous
# (A2A_SMPI_EXTRA=--cfg=smpi/send-is-detached-thresh:0), the setting docs/reproduction.md uses
# for 512 ranks because SimGrid 3.32 removes finished eager messages by a linear search.
#   1. Class S at P = 64 through sloav and sloavx:q=4 passes NPB's official verification and
#      the exchange checks in both protocols.
#   2. The setting reaches SimGrid: the simulated times differ between the two protocols (an
#      A2A_SMPI_EXTRA that scripts/simulate dropped would give equal times).
set -euo pipefail
simulate=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for backend in sloav sloavx:q=4; do
  "$simulate" dragonfly -np 64 -q 4 --timeout 300 -- is --class S --backend "$backend" \
    --format json | grep '^{' >> "$work/eager.jsonl"
  A2A_SMPI_EXTRA=--cfg=smpi/send-is-detached-thresh:0 \
    "$simulate" dragonfly -np 64 -q 4 --timeout 300 -- is --class S --backend "$backend" \
    --format json | grep '^{' >> "$work/rendezvous.jsonl"
done
/usr/bin/python3 - "$work/eager.jsonl" "$work/rendezvous.jsonl" <<'PY'
import json, sys
eager, rendezvous = ([json.loads(line) for line in open(path)] for path in sys.argv[1:3])
assert len(eager) == 2 and len(rendezvous) == 2, (len(eager), len(rendezvous))
for e, r in zip(eager, rendezvous):
    for record in (e, r):
        assert record["check"] == "passed" and record["full_verified"], record
    assert abs(e["median_us"] - r["median_us"]) > 1e-3 * e["median_us"], (e["median_us"], r["median_us"])
    print(f'{e["backend"]}: eager {e["median_us"]:.2f} us, rendezvous {r["median_us"]:.2f} us')
PY
echo "simulate_rendezvous: passed"
