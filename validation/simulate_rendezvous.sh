#!/usr/bin/env bash
# simulate_rendezvous.sh SIMULATE: scripts/simulate --eager-limit, and every backend with every
# message by rendezvous.
#   1. NPB IS class S at P = 64 through sloav and sloavx:q=4 passes NPB's official verification
#      in SMPI's default protocol and with --eager-limit 0 (how docs/reproduction.md simulates
#      512 ranks), and the simulated times differ between the two: the limit reaches SimGrid.
#   2. Every backend, uniform (8 B, 4 KiB) and vector (random counts), completes and matches
#      SMPI's own collective with --eager-limit 0: none relies on MPI buffering its sends (an
#      exchange that waits on a send before posting its receive deadlocks here). Every record
#      carries eager_limit = 0.
#   3. --append of a run with SMPI's default limit onto those records is refused (the file is
#      left as it was), and a limit
#      that is not a byte count is refused.
set -euo pipefail
simulate=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for backend in sloav sloavx:q=4; do
  "$simulate" dragonfly -np 64 -q 4 --timeout 300 -- is --class S --backend "$backend" \
    --format json | grep '^{' >> "$work/eager.jsonl"
  "$simulate" dragonfly -np 64 -q 4 --eager-limit 0 --timeout 300 -- is --class S --backend "$backend" \
    --format json | grep '^{' >> "$work/rendezvous.jsonl"
done
"$simulate" dragonfly -np 12 -q 4 --eager-limit 0 --timeout 300 --out "$work/all.jsonl" \
  -- bench --algorithms all --sizes 8,4K --check
"$simulate" dragonfly -np 12 -q 4 --eager-limit 0 --timeout 300 --out "$work/all.jsonl" --append \
  -- bench --vector random --algorithms all --sizes 64 --check
/usr/bin/python3 - "$work/eager.jsonl" "$work/rendezvous.jsonl" "$work/all.jsonl" <<'PY'
import json, sys
eager, rendezvous, every = ([json.loads(line) for line in open(path)] for path in sys.argv[1:4])
assert len(eager) == 2 and len(rendezvous) == 2, (len(eager), len(rendezvous))
for e, r in zip(eager, rendezvous):
    for record in (e, r):
        assert record["check"] == "passed" and record["full_verified"], record
    assert abs(e["median_us"] - r["median_us"]) > 1e-3 * e["median_us"], (e["median_us"], r["median_us"])
    print(f'{e["backend"]}: eager {e["median_us"]:.2f} us, rendezvous {r["median_us"]:.2f} us')
kinds = {r["kind"] for r in every}
assert kinds == {"uniform", "vector"}, kinds
assert len(every) >= 30, len(every)
bad = [(r["label"], r["bytes"], r["check"]) for r in every if r["check"] != "passed" or r["eager_limit"] != 0]
assert not bad, bad
print(f"{len(every)} exchanges by rendezvous, every one checked against SMPI's collective")
PY
cp "$work/all.jsonl" "$work/before.jsonl"
if "$simulate" dragonfly -np 12 -q 4 --out "$work/all.jsonl" --append \
    -- bench --algorithms linear --sizes 8 > "$work/mixed" 2>&1; then
  echo "FAILED: --append mixed eager limits"; exit 1
fi
grep -q "holds runs of different machines" "$work/mixed" || { cat "$work/mixed"; exit 1; }
cmp -s "$work/all.jsonl" "$work/before.jsonl" || { echo "FAILED: the refused --append changed the records file"; exit 1; }
if "$simulate" dragonfly -np 4 --eager-limit 64K -- bench > "$work/bad" 2>&1; then
  echo "FAILED: --eager-limit 64K accepted"; exit 1
fi
grep -q "eager-limit takes a byte count" "$work/bad" || { cat "$work/bad"; exit 1; }
echo "simulate_rendezvous: passed"
