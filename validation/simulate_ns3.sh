#!/usr/bin/env bash
# simulate_ns3.sh SIMULATE: the packet-level network (--network ns3) on the Slim Fly, and
# --append.
#   1. P = 16, one rank per node: linear and random_scatter at 8 B and 1 KiB, every exchange
#      checked against SMPI's own MPI_Alltoall. 8-byte messages from every rank at once ended
#      in SimGrid's "Deadlock detected" (a sleep lost between ns-3's whole nanoseconds and the
#      lazy CPU model) until scripts/simulate set cpu/optim:Full.
#   2. A second simulation (mpi, also at 160 KiB: messages larger than ns-3's default 128 KiB
#      TCP send buffer aborted in the binding, "total_bytes is not sent_bytes", until
#      scripts/simulate raised it) with --out FILE --append: FILE and the results file beside
#      it hold the records of both, as scripts/plot needs for one figure.
#   3. --append of another machine (P = 8) to that file is refused, naming both, and leaves the
#      file as it was.
set -euo pipefail
simulate=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$simulate" slimfly -np 16 -q 1 --network ns3 --timeout 300 --out "$work/r.jsonl" \
  -- bench --algorithms linear,random_scatter --sizes 8,1K --check 2>&1 | tee "$work/first"
grep -q "passed" "$work/first" || { echo "FAILED: no checked record"; exit 1; }
"$simulate" slimfly -np 16 -q 1 --network ns3 --timeout 300 --out "$work/r.jsonl" --append \
  -- bench --algorithms mpi --sizes 8,1K,160K --check
/usr/bin/python3 - "$work/r.jsonl" "$work/r.h5" <<'PY'
import json, sys
import h5py
records = [json.loads(line) for line in open(sys.argv[1])]
labels = sorted((r["label"], r["bytes"]) for r in records)
want = sorted([(a, b) for a in ("linear", "random_scatter", "mpi") for b in (8, 1024)] +
              [("mpi", 160 * 1024)])
assert labels == want, labels
assert all(r["network"] == "ns3" and r["check"] == "passed" and r["median_us"] > 0 for r in records)
with h5py.File(sys.argv[2]) as f:
    series = f["experiments/00-simulate/series"]
    got = sorted((s.attrs["label"], int(s.attrs["bytes"])) for s in series.values())
    assert got == want, got
print("ns3 records of two simulations in one file: 7 of 7")
PY
cp "$work/r.jsonl" "$work/before.jsonl"
if "$simulate" slimfly -np 8 -q 1 --out "$work/r.jsonl" --append -- bench --algorithms mpi \
    --sizes 8 > "$work/mixed" 2>&1; then
  echo "FAILED: --append of P = 8 to P = 16 records succeeded"; exit 1
fi
grep -q "holds runs of different machines" "$work/mixed" || { cat "$work/mixed"; exit 1; }
cmp -s "$work/r.jsonl" "$work/before.jsonl" || { echo "FAILED: the refused --append changed the records file"; exit 1; }
echo "simulate_ns3: passed"
