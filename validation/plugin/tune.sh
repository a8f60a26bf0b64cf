#!/usr/bin/env bash
# tune.sh NAME A2A MPIEXEC...: a2a tune with its default candidates measures algorithm NAME (a
# plugin's, A2A_PLUGINS set by the test, or a built-in one): its spec is among the candidates
# the table records.
set -euo pipefail
name=$1 a2a=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$@" "$a2a" tune --kind uniform --sizes 8,64 --budget 60s --iters 2 --warmup 0 \
  --output "$work/t.json"
python3 - "$work/t.json" "$name" << 'PY'
import json, sys
run = json.load(open(sys.argv[1]))["tuned"][0]
candidates = run["candidate_specs_uniform"]
print("tune: uniform candidates:", candidates)
sys.exit(0 if sys.argv[2] in candidates else f"{sys.argv[2]} is not among the candidates")
PY
echo "tune.sh: passed"
