#!/usr/bin/env bash
# A user's C program under SimGrid: validation/capi/pencil_fft.c (a2a/transpose.h and FFTW)
# built with smpicc against the smpi build's static libraries, as a user would, and run on 4
# simulated ranks of the Dragonfly.
#   1. unfolded: every check of the program passes (the library's buffers now allocate
#      through SMPI's allocator, which must be a plain malloc when nothing is folded);
#   2. with buffers folded from 1 KiB (what scripts/simulate --shared-buffers sets): the program
#      still runs to its summary without a crash; its own checks fail, because SimGrid folds
#      the program's own malloc'd arrays as well (docs/simulation.md says so);
#   3. with every message by rendezvous (what scripts/simulate --eager-limit 0 sets): every
#      check passes, so neither the library nor this program needs MPI to buffer its sends.
# usage: smpi_c_program.sh REPOSITORY_ROOT WORK_DIR
set -uo pipefail
root=$1 work=$2
mkdir -p "$work"
# The libraries as they are now (scripts/simulate shares this build and its rebuild rule).
{ [ -f "$root/build/smpi/CMakeCache.txt" ] || cmake --preset smpi -S "$root" > /dev/null; } &&
  cmake --build "$root/build/smpi" -j "$(nproc)" --target a2a_transpose a2a_alltoall > /dev/null ||
  { echo "FAIL: cannot build the smpi preset"; exit 1; }
smpicc -O1 -I"$root/alltoall/include" -I"$root/transpose/include" -o "$work/pencil_fft" \
  "$root/validation/capi/pencil_fft.c" "$root/build/smpi/transpose/liba2a_transpose.a" \
  "$root/build/smpi/alltoall/liba2a_alltoall.a" -lfftw3 -lm -lstdc++ || { echo "FAIL: smpicc"; exit 1; }
head -n 4 "$root/inputs/platforms/dragonfly.hosts" > "$work/hosts"
run() {
  (cd "$work" && smpirun -platform "$root/inputs/platforms/dragonfly.xml" -hostfile hosts -np 4 \
    --cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc:global "$@" \
    --log=root.thres:warning ./pencil_fft tra 2>&1)
}
fail=0
plain=$(run)
echo "$plain" | grep "pencil_fft.c"
echo "$plain" | grep -q "pencil_fft.c: [1-9][0-9]* passed, 0 failed" || { echo "FAIL: unfolded run"; echo "$plain"; fail=1; }
folded=$(run --cfg=smpi/auto-shared-malloc-thresh:1024 --cfg=smpi/shared-malloc-blocksize:1073741824)
echo "$folded" | grep "pencil_fft.c"
echo "$folded" | grep -q "pencil_fft.c: [0-9]* passed, [1-9][0-9]* failed" ||
  { echo "FAIL: folded run did not reach its summary (or its folded arrays still checked out)"; echo "$folded"; fail=1; }
rendezvous=$(run --cfg=smpi/send-is-detached-thresh:0)
echo "$rendezvous" | grep "pencil_fft.c"
echo "$rendezvous" | grep -q "pencil_fft.c: [1-9][0-9]* passed, 0 failed" ||
  { echo "FAIL: run with every message by rendezvous"; echo "$rendezvous"; fail=1; }
if [ $fail -eq 0 ]; then echo "smpi_c_program: 1 passed, 0 failed"; else echo "smpi_c_program: 0 passed, 1 failed"; fi
exit $fail
