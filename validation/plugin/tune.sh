#!/usr/bin/env bash
# tune.sh A2A MPIEXEC...: a2a tune with its default candidates (A2A_PLUGINS set by the test)
# measures the plugin's algorithm: its spec is among the candidates the table records, and in
# the raw results.
set -euo pipefail
a2a=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$@" "$a2a" tune --kind uniform --sizes 8,64 --budget 60s --iters 2 --warmup 0 \
  --output "$work/t.json"
python3 - "$work/t.json" << 'PY'
import json, sys
run = json.load(open(sys.argv[1]))["tuned"][0]
candidates = run["candidate_specs_uniform"]
print("tune: uniform candidates:", candidates)
sys.exit(0 if "toy" in candidates else "the plugin's algorithm is not among the candidates")
PY
echo "tune.sh: passed"
