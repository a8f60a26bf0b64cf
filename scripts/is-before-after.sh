#!/usr/bin/env bash
# scripts/is-before-after.sh OLD_A2A NEW_A2A "CLASSES" "PROCS"
#
# NPB IS through every vector backend with two builds of a2a, alternated run by run: the keys
# exchange time (and, for builds that plan per call, the planning time) and Mop/s, for each
# class in CLASSES and each P in PROCS, e.g.
#   scripts/is-before-after.sh /tmp/old/build/release/app/a2a build/release/app/a2a "A B" "2 4"
# Every run must verify (check = passed), else the script stops.
set -euo pipefail
[ $# -eq 4 ] || { sed -n '2,3p' "$0" | sed 's/^# //' >&2; exit 2; }
old=$1 new=$2 classes=$3 procs=$4
[ "$(id -u)" != 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
printf "%-5s %-2s %-16s %12s %12s %10s | %12s %10s %10s\n" class P backend "before:keys" "plan_us" "Mop/s" "after:keys" "Mop/s" "speedup"
for class in $classes; do
  for P in $procs; do
    for b in mpi linear pairwise random_scatter random_sendrecv sloav tra_v sloavx padded_bruck_v auto; do
      o=$(mpirun --oversubscribe -np "$P" "$old" is --class "$class" --backend "$b" --format json 2> /dev/null | tail -1)
      n=$(mpirun --oversubscribe -np "$P" "$new" is --class "$class" --backend "$b" --format json 2> /dev/null | tail -1)
      /usr/bin/python3 - "$class" "$P" "$b" "$o" "$n" << 'PY'
import json, sys
c, P, b, o, n = sys.argv[1:6]
o = json.loads(o); n = json.loads(n)
assert o["check"] == "passed" and n["check"] == "passed", (o["check"], n["check"])
print(f'{c:5} {P:2} {b:16} {o["keys_exchange_us"]:12.0f} {o.get("keys_plan_us", 0):12.0f} {o["mops_total"]:10.2f} | '
      f'{n["keys_exchange_us"]:12.0f} {n["mops_total"]:10.2f} {n["mops_total"]/o["mops_total"]:9.2f}x')
PY
    done
  done
done
