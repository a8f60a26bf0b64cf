#!/usr/bin/env bash
# FFTW wisdom that a2a did not write: `fftw-wisdom` (FFTW's own tool, Debian libfftw3-bin)
# plans a few 1D sizes into FILE; `a2a fft1d --wisdom FILE` must import it, add its own plans
# and keep every entry the tool wrote (merged, not overwritten); a wisdom-only run must then
# find all its plans there. And a wisdom path that cannot be written is an error on every rank.
# Then the same through a deck's fftw_plan and wisdom.
# Usage: wisdom_from_fftw_tool.sh FFTW_WISDOM A2A LAUNCHER...
set -euo pipefail
tool=$1 a2a=$2
shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$tool" -n -m -o "$dir/w" cif64 cib64 cof48
grep -q "fftw_wisdom" "$dir/w" || { echo "FAILED: $tool wrote no wisdom"; exit 1; }
# The tool's entries, without the header line (it carries hashes of the whole set).
tail -n +2 "$dir/w" | grep -v '^)$' | sort > "$dir/tool-entries"
"$@" "$a2a" fft1d --points 4096 --fftw-plan measure --wisdom "$dir/w" --iters 1 | tee "$dir/out"
grep -q "check serial .*passed" "$dir/out" || { echo "FAILED: the measure run"; exit 1; }
tail -n +2 "$dir/w" | grep -v '^)$' | sort > "$dir/all-entries"
missing=$(comm -23 "$dir/tool-entries" "$dir/all-entries" | wc -l)
added=$(comm -13 "$dir/tool-entries" "$dir/all-entries" | wc -l)
[ "$missing" -eq 0 ] || { echo "FAILED: $missing of the tool's wisdom entries were lost"; exit 1; }
[ "$added" -gt 0 ] || { echo "FAILED: a2a added no wisdom of its own"; exit 1; }
"$@" "$a2a" fft1d --points 4096 --fftw-plan wisdom-only --wisdom "$dir/w" --iters 1 | tee "$dir/out"
grep -q "check serial .*passed" "$dir/out" || { echo "FAILED: the wisdom-only run"; exit 1; }
# A path whose folder does not exist: nothing to import, and the write fails on every rank.
if "$@" "$a2a" fft1d --points 4096 --wisdom "$dir/none/w" --iters 1 > "$dir/out" 2>&1; then
  echo "FAILED: an unwritable wisdom path was accepted"
  exit 1
fi
grep -q "cannot write FFTW wisdom" "$dir/out" || { cat "$dir/out"; exit 1; }
# The same through a deck (a2a run): the tool's wisdom kept and added to by an in-place 3D FFT
# and the six-step FFT planned with MEASURE; an unwritable path names the deck's wisdom line.
"$tool" -n -m -o "$dir/d" cif64 cof48
tail -n +2 "$dir/d" | grep -v '^)$' | sort > "$dir/tool-entries"
# With FFTW-MPI (A2A_TEST_FFTW_MPI=1), a first experiment runs the baseline: FFTW-MPI's
# solvers are then registered in the process, and the tool's wisdom (written without them)
# must still be imported by the experiments after it.
baseline_first=""
if [ "${A2A_TEST_FFTW_MPI:-0}" = 1 ]; then
  baseline_first='[[fft]]
grid = "8x8x8"
baseline = "fftw-mpi"
wisdom = "none"
backends = ["mpi"]'
fi
cat > "$dir/deck.toml" <<DECK
[deck]
iters = 1
warmup = 0
$baseline_first
[[fft]]
grid = "12x10x9"
in_place = true
fftw_plan = "measure"
wisdom = "$dir/d"
backends = ["mpi"]
[[fft1d]]
points = 4096
fftw_plan = "measure"
wisdom = "$dir/d"
backends = ["pairwise"]
DECK
"$@" "$a2a" run "$dir/deck.toml" --output none
tail -n +2 "$dir/d" | grep -v '^)$' | sort > "$dir/all-entries"
[ "$(comm -23 "$dir/tool-entries" "$dir/all-entries" | wc -l)" -eq 0 ] ||
  { echo "FAILED: the deck lost the tool's wisdom entries"; exit 1; }
[ "$(comm -13 "$dir/tool-entries" "$dir/all-entries" | wc -l)" -gt 0 ] ||
  { echo "FAILED: the deck added no wisdom"; exit 1; }
sed -i "s|wisdom = \"$dir/d\"|wisdom = \"$dir/none/d\"|" "$dir/deck.toml"
if "$@" "$a2a" run "$dir/deck.toml" --output none > "$dir/out" 2>&1; then
  echo "FAILED: a deck with an unwritable wisdom path was accepted"
  exit 1
fi
grep -q "deck.toml:[0-9]*: .*cannot write FFTW wisdom" "$dir/out" || { cat "$dir/out"; exit 1; }
echo "wisdom from $tool: $(wc -l < "$dir/tool-entries") entries kept, $added added: passed"
