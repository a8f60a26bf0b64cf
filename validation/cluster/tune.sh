#!/usr/bin/env bash
# tune.sh RANKS_PER_NODE LAUNCHER... A2A: a2a tune across the hosts the launcher spans (run
# inside scripts/cluster --shell). The table must carry the placement it found (every rule and
# the tuned run name RANKS_PER_NODE ranks per node and the node count), and auto with the table
# must pass bench --check there.
set -euo pipefail
per_node=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$@" tune --kind both --sizes 64,4096 --budget 60s --iters 3 --warmup 1 \
  --candidates mpi,linear,pairwise,bruck,tra2,sloav,sloavx --output "$work/table.json"
python3 - "$work/table.json" "$per_node" << 'PY'
import json, sys
table, per_node = json.load(open(sys.argv[1])), int(sys.argv[2])
run = table["tuned"][0]
problems = []
if run["ranks_per_node"] != per_node:
    problems.append(f"tuned ranks_per_node = {run['ranks_per_node']}, expected {per_node}")
if run["nodes"] != run["procs"] // per_node:
    problems.append(f"tuned nodes = {run['nodes']} for P = {run['procs']}")
for kind in ("uniform", "vector"):
    if not table[kind]:
        problems.append(f"no {kind} rules")
    for rule in table[kind]:
        if rule.get("ranks_per_node") != per_node:
            problems.append(f"{kind} rule without ranks_per_node = {per_node}: {rule}")
print("\n".join(problems) or f"table: every rule for {per_node} ranks per node")
sys.exit(1 if problems else 0)
PY
"$@" bench --algorithms "auto:table=$work/table.json" --sizes 64,4096 --check --iters 2
"$@" bench --algorithms "auto:table=$work/table.json" --vector random --sizes 64,4096 --check \
  --iters 2 | tee "$work/bench.txt"
grep -q "failed" "$work/bench.txt" && exit 1
echo "tune.sh: passed"
