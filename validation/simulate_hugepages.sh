#!/usr/bin/env bash
# simulate_hugepages.sh SIMULATE refused|same-times
#   refused:    --hugepages without its directory, without --shared-buffers, and on one that is not a
#               hugetlbfs mount, are errors with the reason, before anything is built or run.
#   same-times: folded buffers in 2 MiB huge pages give the same simulated times as in 4 KiB
#               pages (P = 64, 64 KiB blocks: 4 MiB buffers, two huge pages each). Needs a
#               hugetlbfs mount with huge pages reserved (docs/simulation.md); exits 77
#               (ctest: skipped, not passed) where the machine has none.
set -euo pipefail
simulate=$1
mode=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
expect_refusal() {  # WORDS ARGS...: must fail, saying WORDS
  local words=$1
  shift
  if "$simulate" dragonfly -np 4 "$@" > "$work/out" 2>&1; then
    echo "FAILED: scripts/simulate $* succeeded"; exit 1
  fi
  grep -q -- "$words" "$work/out" || { echo "FAILED: scripts/simulate $*:"; cat "$work/out"; exit 1; }
  echo "refused as expected: $words"
}
case "$mode" in
  refused)
    expect_refusal "--hugepages needs a directory" --shared-buffers --hugepages
    expect_refusal "--hugepages needs --shared-buffers" --hugepages /dev/hugepages
    expect_refusal "is not a hugetlbfs mount" --shared-buffers --hugepages "$work"
    ;;
  same-times)
    mount=$(awk '$3 == "hugetlbfs" {print $2; exit}' /proc/mounts)
    if [ -z "$mount" ] || [ ! -w "$mount" ] || [ "$(cat /proc/sys/vm/nr_hugepages)" -lt 1 ]; then
      echo "no writable hugetlbfs mount with huge pages reserved: not run"; exit 77
    fi
    args=(-- bench --algorithms "pairwise;tra:r=8;tra2:q=4" --sizes 65536)
    "$simulate" dragonfly -np 64 -q 4 --shared-buffers --out "$work/small.jsonl" "${args[@]}"
    "$simulate" dragonfly -np 64 -q 4 --shared-buffers --hugepages "$mount" --out "$work/huge.jsonl" "${args[@]}"
    /usr/bin/python3 - "$work/small.jsonl" "$work/huge.jsonl" <<'PY'
import json, sys
small, huge = ({r["label"]: r["median_us"] for r in map(json.loads, open(f))} for f in sys.argv[1:])
assert small and small.keys() == huge.keys(), (small, huge)
for label in small:
    assert small[label] == huge[label], f"{label}: {small[label]} us in 4 KiB pages, {huge[label]} in huge pages"
print(f"{len(small)} simulated times equal in 4 KiB and 2 MiB pages")
PY
    ;;
  *) echo "usage: $0 SIMULATE refused|same-times"; exit 2 ;;
esac
