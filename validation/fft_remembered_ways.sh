#!/usr/bin/env bash
# The local transforms' ways that a2a times at plan time are kept with the wisdom (FILE.ways)
# and reused: a second launch with the same wisdom runs the first one's ways; a launch after
# FILE.ways was edited to other valid ways runs exactly those (so the file, not a new timing,
# decides), fused or not among them; lines it cannot use (garbage, a way that does not exist)
# are passed over and timed again. And a FILE.ways that is not a regular file is an error on
# every rank.
# Usage: fft_remembered_ways.sh A2A LAUNCHER...
set -euo pipefail
a2a=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run() {
  "$@" > "$dir/out" 2>&1 || { cat "$dir/out"; echo "FAILED: $*"; exit 1; }
  grep -q "check serial .*passed" "$dir/out" || { cat "$dir/out"; echo "FAILED: the check"; exit 1; }
  sed -n 's/.*local transforms: //p' "$dir/out"
}
fft() { run "$@" "$a2a" fft --grid 24x20x18 --fftw-plan measure --wisdom "$dir/w" --iters 1; }
launcher=("$@")
first=$(fft "${launcher[@]}")
[ -s "$dir/w.ways" ] || { echo "FAILED: no $dir/w.ways after a measure run"; exit 1; }
grep -q "24x20x18 on 2x1 .*: planes forward fused = " "$dir/w.ways" ||
  { cat "$dir/w.ways"; echo "FAILED: the slab's plane ways are not remembered"; exit 1; }
second=$(fft "${launcher[@]}")
[ "$first" = "$second" ] || { echo "FAILED: '$first' then '$second'"; exit 1; }
echo "the same ways on the second launch: $second"
# Other valid ways, written in: the next launch takes them.
sed -i -e 's/\(planes forward fused = \).*/\1copy_then_in_place/' \
  -e 's/\(: fused forward = \).*/\1yes/' -e 's/\(: fused backward = \).*/\1yes/' \
  -e 's/\(planes backward fused = \).*/\1copy_then_in_place/' \
  -e 's/\(x forward, y-planes = \).*/\1per_plane/' -e 's/\(x backward, y-planes = \).*/\1whole/' \
  "$dir/w.ways"
edited=$(fft "${launcher[@]}")
# (Fused, the forward's x transforms run in place on the y-planes as filled: "filled".)
want="planes copy_then_in_place fused/copy_then_in_place fused, x y-planes filled/whole"
[ "$edited" = "$want" ] || { echo "FAILED: '$edited', not the file's '$want'"; exit 1; }
echo "the file's ways: $edited"
# Fused or not is one of them: unfused, the same plane ways run with a pack and an unpack.
grep -q ": fused forward = " "$dir/w.ways" || { echo "FAILED: fused or not is not remembered"; exit 1; }
sed -i -e 's/\(: fused forward = \).*/\1no/' -e 's/\(: fused backward = \).*/\1no/' "$dir/w.ways"
unfused=$(fft "${launcher[@]}")
want="planes copy_then_in_place/copy_then_in_place, x y-planes per_plane/whole"
[ "$unfused" = "$want" ] || { echo "FAILED: '$unfused', not the file's '$want'"; exit 1; }
echo "the file's ways, not fused: $unfused"
# Lines it cannot use: timed again, and the run still passes its check.
sed -i 's/\(x forward, y-planes = \).*/\1sideways/' "$dir/w.ways"
echo "not a line of ways" >> "$dir/w.ways"
again=$(fft "${launcher[@]}")
grep -q "x forward, y-planes = sideways" "$dir/w.ways" &&
  { echo "FAILED: the unusable way was kept"; exit 1; }
echo "unusable lines passed over: $again"
# A FIFO where FILE.ways belongs: an error naming it, on every rank, at once.
rm -f "$dir/w.ways"
mkfifo "$dir/w.ways"
if timeout 60 "${launcher[@]}" "$a2a" fft --grid 24x20x18 --wisdom "$dir/w" --iters 1 \
  > "$dir/out" 2>&1; then
  echo "FAILED: a FIFO as FILE.ways was accepted"
  exit 1
fi
grep -q "w.ways" "$dir/out" || { cat "$dir/out"; echo "FAILED: the error does not name it"; exit 1; }
echo "remembered ways: passed"
