#!/usr/bin/env bash
# symbols.sh LIBRARY: liba2a_interpose.so depends on the MPI C library only. No reference to
# the MPI C++ bindings (_ZN3MPI...), no libmpi_cxx/libmpichcxx among its needed libraries, and
# every undefined symbol resolved by what it needs (ldd -r), so C and Fortran programs can
# preload it. Lists the MPI entry points it exports, and fails if it exports anything else.
set -u
lib=$1
fail=0
cxx=$(nm -D --undefined-only "$lib" | awk '{print $NF}' | grep '^_ZN3MPI' || true)
if [ -n "$cxx" ]; then echo "FAIL: references the MPI C++ bindings:"; echo "$cxx"; fail=1; fi
needed=$(readelf -d "$lib" | grep NEEDED)
echo "$needed"
if printf '%s\n' "$needed" | grep -qE "mpi_cxx|mpichcxx"; then
  echo "FAIL: needs an MPI C++ library"; fail=1
fi
unresolved=$(ldd -r "$lib" 2>&1 | grep "undefined symbol" || true)
if [ -n "$unresolved" ]; then echo "FAIL: unresolved:"; echo "$unresolved"; fail=1; fi
echo "exports: $(nm -D --defined-only "$lib" | awk '{print $NF}' | grep -iE '^p?mpi_' | sort | tr '\n' ' ')"
# Nothing else: the a2a library inside stays local (interpose/exports.map), so a program that
# links a2a itself (the a2a executable under the interposer) keeps its own copy.
others=$(nm -D --defined-only "$lib" | awk '{print $NF}' | grep -viE '^p?mpi_' | grep -vE '^(_init|_fini|_edata|_end|__bss_start)$' || true)
if [ -n "$others" ]; then echo "FAIL: exports more than the MPI entry points:"; echo "$others" | head; fail=1; fi
if [ $fail -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit $fail
