#!/usr/bin/env bash
# run_deck_test.sh A2A MPIEXEC... -- DECK [FIGURE...]: runs the deck under MPI, checks the
# results file with h5py (check_results.py) and that scripts/plot makes from it each FIGURE (the
# end of a figure's file name; by default those of the tiny deck, which has every kind).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
a2a=$1
shift
launch=()
while [ "$1" != "--" ]; do launch+=("$1"); shift; done
shift
deck=$1
shift
figures=("$@")
[ ${#figures[@]} -gt 0 ] ||
  figures=(uniform-heatmap uniform-latency vector-heatmap fft-fft fft1d-fft is-is model-model)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${launch[@]}" "$a2a" run "$deck" --output "$work/r.h5" --format csv > "$work/summary.csv"
cat "$work/summary.csv"
/usr/bin/python3 "$here/check_results.py" "$work/r.h5" "$deck"
"$here/../scripts/plot" "$work/r.h5" --out "$work/plots"
for figure in "${figures[@]}"; do
  ls "$work/plots"/*-"$figure".png > /dev/null || { echo "missing figure $figure"; exit 1; }
done
echo "run_deck_test: passed"
