#!/usr/bin/env bash
# interpose_test.sh MODE LIBRARY MPIEXEC... -- PROGRAM ARGS...
# Runs PROGRAM under mpirun with liba2a_interpose.so preloaded, once per spec, and checks:
#   is      the IS verification is SUCCESSFUL and the summary shows the backend ran
#   fftw    the FFTW output hash equals the hash of a run without the interposer
#   probe   the probe program passes (compares against PMPI_ itself)
set -u
mode=$1 lib=$2
shift 2
launch=()
while [ "$1" != "--" ]; do launch+=("$1"); shift; done
shift
run() { "${launch[@]}" -x LD_PRELOAD="$lib" -x A2A_VERBOSE=1 "$@"; }
fail=0
case "$mode" in
  is)
    for spec in sloav linear tra_v:r=2 random_sendrecv sloavx; do
      out=$(run -x A2A_ALLTOALLV="$spec" -x A2A_ALLTOALL=tra "$@" 2>&1)
      name=${spec%%:*}
      if printf '%s\n' "$out" | grep -q "Verification *= *SUCCESSFUL" &&
         printf '%s\n' "$out" | grep -q "a2a-interpose summary: $name"; then
        echo "PASS A2A_ALLTOALLV=$spec: SUCCESSFUL, interposed backend ran"
      else
        printf '%s\n' "$out"; echo "FAIL A2A_ALLTOALLV=$spec"; fail=1
      fi
    done ;;
  fftw)
    # The plain run plans with FFTW_MEASURE and saves its wisdom; every later run reuses it.
    # MEASURE times FFTW's MPI_Alltoall transpose against its pairwise Sendrecv one: plan
    # again until it chose the Alltoall one (the one there is to intercept).
    wisdom=$(mktemp)
    set -- "$@" "$wisdom"
    for attempt in 1 2 3 4 5 6 7 8; do
      rm -f "$wisdom"
      "${launch[@]}" "$@" 2>&1 | grep -q "transpose=alltoall" && break
    done
    plain=$("${launch[@]}" "$@" 2>&1 | grep -o 'hash=[0-9a-f]*')
    if ! "${launch[@]}" "$@" 2>&1 | grep -q "transpose=alltoall"; then
      echo "FAIL: FFTW_MEASURE never chose its MPI_Alltoall transpose in 8 plannings"; fail=1
    fi
    echo "without the interposer: $plain"
    for spec in pairwise bruck tra:r=2 random_sendrecv linear auto; do
      out=$(run -x A2A_ALLTOALL="$spec" "$@" 2>&1)
      hash=$(printf '%s\n' "$out" | grep -o 'hash=[0-9a-f]*')
      name=${spec%%:*}
      if [ -n "$plain" ] && [ "$hash" = "$plain" ] &&
         printf '%s\n' "$out" | grep -qE "a2a-interpose summary: $name"; then
        echo "PASS A2A_ALLTOALL=$spec: $hash, interposed backend ran"
      else
        printf '%s\n' "$out"; echo "FAIL A2A_ALLTOALL=$spec: $hash"; fail=1
      fi
    done
    rm -f "$wisdom" ;;
  probe)
    for spec in tra:r=2 random_segmented:segment=7 pairwise; do
      out=$(run -x A2A_ALLTOALL="$spec" -x A2A_ALLTOALLV=sloav "$@" 2>&1)
      if printf '%s\n' "$out" | grep -q "1 passed, 0 failed" &&
         printf '%s\n' "$out" | grep -q "pass-through (MPI_IN_PLACE)" &&
         printf '%s\n' "$out" | grep -q "pass-through (non-contiguous datatype)"; then
        echo "PASS A2A_ALLTOALL=$spec: $(printf '%s\n' "$out" | grep interpose_probe)"
      else
        printf '%s\n' "$out"; echo "FAIL A2A_ALLTOALL=$spec"; fail=1
      fi
    done ;;
esac
if [ $fail -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit $fail
