#!/usr/bin/env bash
# run.sh [--compile COMPILER SOURCE] MODE LIBRARY MPIEXEC... -- PROGRAM ARGS...
# Runs an unmodified MPI program with and without liba2a_interpose.so preloaded.
#   --compile   build PROGRAM first from SOURCE with the MPI's own wrapper (mpicc, mpif90, ...),
#               as a user would; PROGRAM is the output path.
#   check       the program compares its own results (against PMPI_ or closed forms) and
#               prints "N passed, 0 failed": it must pass without the interposer and under
#               every backend pair below, each run's verbose summary must show the backends
#               ran, and no call may fall back to the MPI library ("pass-through (...)").
#   mpi         one run with A2A_ALLTOALL=mpi A2A_ALLTOALLV=mpi: " 0 failed" (the overhead tool)
#   is          a2a is: the IS verification is SUCCESSFUL and the summary shows the backend
#   fftw        the FFTW-MPI output hash equals the hash of a run without the interposer
# Environment variables reach the ranks with -x (Open MPI) or -genv (MPICH's Hydra); an
# LD_PRELOAD already set (the MPICH test shim) is kept in front of the interposer.
set -u
if [ "$1" = "--compile" ]; then compiler=$2 source=$3; shift 3; else compiler=""; fi
mode=$1 lib=$2
shift 2
launch=()
while [ "$1" != "--" ]; do launch+=("$1"); shift; done
shift
if [ -n "$compiler" ]; then
  "$compiler" -O2 "$source" -o "$1" || { echo "FAIL: $compiler $source"; echo "0 passed, 1 failed"; exit 1; }
fi
if "${launch[0]}" --version 2>&1 | grep -q "Open MPI\|OpenRTE"; then openmpi=1; else openmpi=0; fi
preload="${LD_PRELOAD:+$LD_PRELOAD:}$lib"
# run VAR=VALUE... -- PROGRAM ARGS: the program under the interposer with these variables.
run() {
  local env=(-x "LD_PRELOAD=$preload" -x A2A_VERBOSE=1)
  [ $openmpi -eq 1 ] || env=(-genv LD_PRELOAD "$preload" -genv A2A_VERBOSE 1)
  while [ "$1" != "--" ]; do
    if [ $openmpi -eq 1 ]; then env+=(-x "$1"); else env+=(-genv "${1%%=*}" "${1#*=}"); fi
    shift
  done
  shift
  "${launch[@]}" "${env[@]}" "$@"
}
fail=0
case "$mode" in
  check)
    out=$("${launch[@]}" "$@" 2>&1)
    if printf '%s\n' "$out" | grep -q " 0 failed"; then
      echo "PASS without the interposer: $(printf '%s\n' "$out" | grep passed)"
    else
      printf '%s\n' "$out"; echo "FAIL without the interposer"; fail=1
    fi
    pairs=("tra:r=2 sloav" "pairwise tra_v:r=3" "random_segmented:segment=7 sloavx" "mpi mpi"
           "bruck padded_bruck_v" "shared_window shared_window")
    # A2A_INTERPOSE_PAIRS="U V|U V|...": other (uniform, vector) pairs (the emulated cluster's).
    [ -z "${A2A_INTERPOSE_PAIRS:-}" ] || IFS='|' read -r -a pairs <<< "$A2A_INTERPOSE_PAIRS"
    for pair in "${pairs[@]}"; do
      uniform=${pair% *} vector=${pair#* }
      out=$(run A2A_ALLTOALL="$uniform" A2A_ALLTOALLV="$vector" -- "$@" 2>&1)
      if printf '%s\n' "$out" | grep -q " 0 failed" &&
         printf '%s\n' "$out" | grep -q "a2a-interpose summary: ${uniform%%:*}" &&
         printf '%s\n' "$out" | grep -q "a2a-interpose summary: ${vector%%:*}" &&
         ! printf '%s\n' "$out" | grep -q "pass-through ("; then
        echo "PASS A2A_ALLTOALL=$uniform A2A_ALLTOALLV=$vector: $(printf '%s\n' "$out" | grep passed)"
      else
        printf '%s\n' "$out"; echo "FAIL A2A_ALLTOALL=$uniform A2A_ALLTOALLV=$vector"; fail=1
      fi
    done ;;
  mpi)
    out=$(run A2A_ALLTOALL=mpi A2A_ALLTOALLV=mpi -- "$@" 2>&1)
    printf '%s\n' "$out"
    printf '%s\n' "$out" | grep -q " 0 failed" || fail=1 ;;
  is)
    for spec in sloav linear tra_v:r=2 random_sendrecv sloavx shared_window; do
      out=$(run A2A_ALLTOALLV="$spec" A2A_ALLTOALL=tra -- "$@" 2>&1)
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
    # Every run exports its ranks' merged wisdom again, which can fill in sub-plans the last
    # one timed afresh: run until the file stops changing, then give every compared run the
    # same frozen copy (else the plain run and the interposed ones may plan differently).
    for settle in 1 2 3 4; do
      cp "$wisdom" "$wisdom.before"
      "${launch[@]}" "$@" > /dev/null 2>&1
      cmp -s "$wisdom" "$wisdom.before" && break
    done
    cp "$wisdom" "$wisdom.frozen"
    plain=$(cp "$wisdom.frozen" "$wisdom"; "${launch[@]}" "$@" 2>&1 | grep -o 'hash=[0-9a-f]*')
    cp "$wisdom.frozen" "$wisdom"
    if ! "${launch[@]}" "$@" 2>&1 | grep -q "transpose=alltoall"; then
      echo "FAIL: FFTW_MEASURE never chose its MPI_Alltoall transpose in 8 plannings"; fail=1
    fi
    echo "without the interposer: $plain"
    for spec in pairwise bruck tra:r=2 random_sendrecv linear auto shared_window; do
      cp "$wisdom.frozen" "$wisdom"
      out=$(run A2A_ALLTOALL="$spec" -- "$@" 2>&1)
      hash=$(printf '%s\n' "$out" | grep -o 'hash=[0-9a-f]*')
      name=${spec%%:*}
      if [ -n "$plain" ] && [ "$hash" = "$plain" ] &&
         printf '%s\n' "$out" | grep -qE "a2a-interpose summary: $name"; then
        echo "PASS A2A_ALLTOALL=$spec: $hash, interposed backend ran"
      else
        printf '%s\n' "$out"; echo "FAIL A2A_ALLTOALL=$spec: $hash"; fail=1
      fi
    done
    rm -f "$wisdom" "$wisdom.before" "$wisdom.frozen" ;;
esac
if [ $fail -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit $fail
