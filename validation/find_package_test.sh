#!/usr/bin/env bash
# find_package_test.sh BUILD_DIR SOURCE_DIR MPIEXEC ARGS...: installs this build tree into a
# scratch prefix, then, as users would against it: builds validation/consumer (C++, C and,
# when there is a Fortran module, Fortran) with find_package(a2a) and runs each under MPI;
# builds a C program with `pkg-config --cflags --libs a2a`; and, where the Python package was
# installed and mpi4py is there, imports it from a clean interpreter (the scratch prefix's
# site directory only) and redistributes an array with it.
set -u
build_dir=$1 source_dir=$2 mpiexec=$3
shift 3
work="$build_dir/find_package_test"
rm -rf "$work"
mkdir -p "$work"
fail=0
cmake --install "$build_dir" --prefix "$work/prefix" > "$work/install.log" 2>&1 || {
  cat "$work/install.log"; echo "0 passed, 1 failed"; exit 1; }
cmake -S "$source_dir/validation/consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_BUILD_TYPE=Release > "$work/configure.log" 2>&1 &&
  cmake --build "$work/build" > "$work/build.log" 2>&1 || {
  cat "$work/configure.log" "$work/build.log"; echo "0 passed, 1 failed"; exit 1; }
run() {  # NAME COMMAND...: passes when the output says " 0 failed"
  local name=$1
  shift
  out=$("$@" 2>&1)
  if printf '%s\n' "$out" | grep -q " 0 failed"; then
    echo "PASS $name: $(printf '%s\n' "$out" | grep ' 0 failed' | head -1)"
  else
    printf '%s\n' "$out"; echo "FAIL $name"; fail=1
  fi
}
run "C++ consumer" "$mpiexec" "$@" "$work/build/consumer"
# docs/fft.md's programs say "passed" (they abort otherwise).
for program in consumer_fft consumer_fft_c consumer_fortran_fft; do
  [ -x "$work/build/$program" ] || { [ $program = consumer_fortran_fft ] && continue; }
  if out=$("$mpiexec" "$@" "$work/build/$program" 2>&1) && printf '%s\n' "$out" | grep -q ": passed$"; then
    echo "PASS FFT consumer $program (a2a::fft): $out"
  else
    printf '%s\n' "$out"; echo "FAIL FFT consumer $program (a2a::fft)"; fail=1
  fi
done
run "C consumer (find_package)" "$mpiexec" "$@" "$work/build/consumer_c" tra:r=2 sloav
run "C pencil FFT consumer (find_package)" "$mpiexec" "$@" "$work/build/consumer_c_fft" sloavx
if [ -x "$work/build/consumer_fortran" ]; then
  run "Fortran consumer (find_package, use a2a)" "$mpiexec" "$@" "$work/build/consumer_fortran" tra_v
else
  echo "(no Fortran consumer: a2a was built without its Fortran module)"
fi
# pkg-config, as a Makefile would use it, with the MPI's own C compiler wrapper.
pc=$(find "$work/prefix" -name a2a.pc | head -1)
cc=${A2A_MPICC:-mpicc}
if [ -n "$pc" ] && "$cc" -O2 "$source_dir/validation/capi/capi_test.c" -o "$work/capi_pkgconfig" \
     $(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs a2a) > "$work/pkgconfig.log" 2>&1; then
  run "C consumer (pkg-config, $cc)" "$mpiexec" "$@" "$work/capi_pkgconfig" bruck pairwise
else
  cat "$work/pkgconfig.log" 2> /dev/null; echo "FAIL C consumer (pkg-config)"; fail=1
fi
site=$(find "$work/prefix" -type d -name dist-packages | head -1)
if [ -n "$site" ] && [ -d "$site/a2a" ] && /usr/bin/python3 -c "import mpi4py" 2> /dev/null &&
   [ "${A2A_PYTHON_TESTS:-1}" = 1 ]; then
  # -I: isolated (no PYTHONPATH, no user site): only the prefix's site directory is added.
  run "Python consumer (isolated interpreter)" "$mpiexec" "$@" /usr/bin/python3 -I -c "
import sys
sys.path.insert(0, '$site')
from mpi4py import MPI
import numpy as np, a2a
comm = MPI.COMM_WORLD
p, r = comm.Get_size(), comm.Get_rank()
n = 12
mine = ((a2a.block_start(n, p, r), 0, 0), (a2a.block_start(n, p, r + 1), n, 4))
theirs = ((0, a2a.block_start(n, p, r), 0), (n, a2a.block_start(n, p, r + 1), 4))
x = np.fromfunction(lambda i, j, k: (i + mine[0][0]) * 100 + j * 10 + k,
                    (mine[1][0] - mine[0][0], n, 4))
y = np.empty((n, theirs[1][1] - theirs[0][1], 4))
a2a.Redistribution(comm, mine, theirs, np.float64, 'pairwise').execute(x, y)
want = np.fromfunction(lambda i, j, k: i * 100 + (j + theirs[0][1]) * 10 + k, y.shape)
ok = comm.allreduce(int(np.array_equal(y, want)), op=MPI.MIN)
if r == 0: print('python consumer: %d passed, %d failed (a2a from %s)' % (ok, 1 - ok, a2a.__file__))
"
else
  echo "(no Python consumer: no package installed or no mpi4py for this MPI)"
fi
if [ $fail -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit $fail
