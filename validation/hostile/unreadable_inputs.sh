#!/usr/bin/env bash
# unreadable_inputs.sh A2A MPIEXEC...: every file a2a reads, named by a user who gives it a
# device, a FIFO or a folder: each command must end at once with a clear error (exit 2) naming
# the file, on every rank; never read without bound (/dev/zero, /dev/full: memory until the
# kernel kills it) nor block (a FIFO nobody writes). Also the messages that misled:
#   - A2A_WISDOM_DIR=/dev/null: one warning, then "wisdom not saved", never "saved to";
#   - --fftw-plan wisdom-only with a --wisdom FILE that does not exist: "no such file".
# And commands where some rank holds no data (a grid smaller than the ranks): the right result,
# never a hang (each command has a 60 s limit here).
# Prints "unreadable_inputs: N passed, M failed".
set -u
a2a=$1
shift
launch=("$@")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkfifo "$work/fifo"
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "PASS $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
# refused NAME PATTERN RANKS ARGS...: exit 2 and PATTERN in the output, within 60 s.
refused() {
  local name=$1 pattern=$2 ranks=$3 out code
  shift 3
  out=$(timeout 60 "${launch[@]}" -np "$ranks" "$a2a" "$@" 2>&1)
  code=$?
  if [ $code -eq 2 ] && printf '%s\n' "$out" | grep -qE -- "$pattern"; then
    ok "$name"
  else
    printf '%s\n' "$out" | tail -4
    bad "$name (exit $code)"
  fi
}
for file in /dev/zero /dev/full "$work/fifo" "$work"; do
  kind="a (character device|FIFO)|is a directory"
  refused "fft --wisdom $file" "$kind" 2 fft --grid 8x8x8 --iters 1 --wisdom "$file"
  refused "run $file" "deck .*($kind)" 2 run "$file" --output none
  refused "model --fit $file" "--fit .*($kind)" 1 model --fit "$file"
  refused "bench auto:table=$file" "selection table .*($kind)" 2 bench --sizes 8 --iters 1 \
    --algorithms "auto:table=$file"
done
refused "tune --update on a FIFO" "--update: .*FIFO" 2 tune --update --output "$work/fifo" \
  --sizes 8 --budget 10s
if [ -n "${A2A_TEST_HDF5:-}" ]; then
  refused "fft --input a folder" "is a directory, not an HDF5 file" 2 fft --grid 8x8x8 --iters 1 \
    --input "$work"
fi
refused "wisdom-only with a missing --wisdom file" "no such file" 2 fft --grid 8x8x8 --iters 1 \
  --fftw-plan wisdom-only --wisdom "$work/none.wisdom"

out=$(A2A_WISDOM_DIR=/dev/null timeout 60 "${launch[@]}" -np 2 "$a2a" fft --grid 8x8x8 --iters 1 2>&1)
code=$?
if [ $code -eq 0 ] && [ "$(printf '%s\n' "$out" | grep -c "warning:")" -eq 1 ] &&
   printf '%s\n' "$out" | grep -q "no wisdom kept\|wisdom not saved" &&
   ! printf '%s\n' "$out" | grep -q "saved to"; then
  ok "A2A_WISDOM_DIR=/dev/null: one warning, nothing claimed saved"
else
  printf '%s\n' "$out" | tail -6
  bad "A2A_WISDOM_DIR=/dev/null (exit $code)"
fi

# Ranks with nothing to hold: the check passes, within the limit.
runs() {  # NAME RANKS ARGS...: exit 0 and "passed" (or a deck's table) in the output
  local name=$1 ranks=$2 out code
  shift 2
  out=$(timeout 60 "${launch[@]}" -np "$ranks" "$a2a" "$@" 2>&1)
  code=$?
  if [ $code -eq 0 ] && printf '%s\n' "$out" | grep -q "passed"; then
    ok "$name"
  else
    printf '%s\n' "$out" | tail -4
    bad "$name (exit $code)"
  fi
}
runs "fft 1x1x1 at P=2" 2 fft --grid 1x1x1 --iters 2
runs "fft 2x2x2 at P=3" 3 fft --grid 2x2x2 --iters 2
runs "fft 2x3x5 at P=8" 8 fft --grid 2x3x5 --iters 2
runs "fft 2x2x8 slab at P=4" 4 fft --grid 2x2x8 --decomp slab --iters 2
runs "fft 2x2x2 r2c at P=3" 3 fft --grid 2x2x2 --transform r2c --iters 2
if [ -n "${A2A_TEST_FFTW_MPI:-}" ]; then
  runs "fft 2x2x2 at P=3 against FFTW-MPI" 3 fft --grid 2x2x2 --iters 2 --baseline fftw-mpi
fi
runs "fft1d of 4 points at P=3" 3 fft1d --points 4 --iters 2
printf '[[fft]]\ngrid = "1x1x2"\nbackends = ["mpi", "auto"]\niters = 2\n' > "$work/idle.toml"
runs "a deck's FFT of 1x1x2 at P=2" 2 run "$work/idle.toml" --output none
echo "unreadable_inputs: $passed passed, $failed failed"
[ $failed -eq 0 ]
