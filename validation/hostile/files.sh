#!/usr/bin/env bash
# files.sh A2A INTERPOSER PROGRAM MPIEXEC... : hostile files and concurrent runs, as users make
# them. Each case must end with a clear error naming the file (exit 2) or the right result, never
# a crash, a hang or lost results:
#   - a selection table nested 100,000 deep: auto:table= refuses it; through A2A_TUNING a
#     preloaded program (PROGRAM, plain MPI) warns and goes on with the MPI library's calls;
#   - decks nested 100,000 deep (backends) and 50,000 deep (an inline table), even --dry-run;
#   - a deck whose experiment name holds a NUL character;
#   - a second `a2a run` with the --output of one that is running: refused at its start, and the
#     first's file whole (h5py, when there is HDF5);
#   - `a2a tune --update` killed mid-way: the previous raw results (T.h5) and table survive.
# Prints "files: N passed, M failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
a2a=$1 interposer=$2 program=$3
shift 3
launch=("$@")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if "${launch[0]}" --version 2>&1 | grep -q "Open MPI\|OpenRTE"; then setenv=(-x); else setenv=(-genv); fi
env_flag() {  # NAME VALUE as the launcher wants it
  if [ "${setenv[0]}" = -x ]; then echo "-x" "$1=$2"; else echo "-genv" "$1" "$2"; fi
}
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "PASS $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
# expect_refusal NAME PATTERN -- COMMAND...: exit status 2 and PATTERN in the output.
expect_refusal() {
  local name=$1 pattern=$2
  shift 3
  local out code
  out=$(timeout 120 "$@" 2>&1)
  code=$?
  if [ $code -eq 2 ] && printf '%s\n' "$out" | grep -q -- "$pattern"; then
    ok "$name"
  else
    printf '%s\n' "$out" | tail -5
    bad "$name (exit $code)"
  fi
}

python3 -c "print('{\"uniform\": ' + '[' * 100000 + ']' * 100000 + '}')" > "$work/deep.json"
expect_refusal "deep selection table: auto:table=" "nest 100001 deep" -- \
  "${launch[@]}" -np 2 "$a2a" bench --algorithms "auto:table=$work/deep.json" --sizes 8 --iters 1
out=$(timeout 120 "${launch[@]}" -np 2 $(env_flag LD_PRELOAD "${LD_PRELOAD:+$LD_PRELOAD:}$interposer") \
  $(env_flag A2A_ALLTOALL auto) $(env_flag A2A_TUNING "$work/deep.json") "$program" 20 2>&1)
code=$?
if [ $code -eq 0 ] && printf '%s\n' "$out" | grep -q "warning: A2A_ALLTOALL=auto is not used" &&
   printf '%s\n' "$out" | grep -q " 0 failed"; then
  ok "deep selection table through A2A_TUNING: a warning, the MPI library's calls"
else
  printf '%s\n' "$out" | tail -5
  bad "deep selection table through A2A_TUNING (exit $code)"
fi

python3 - "$work" << 'PY'
import sys
work = sys.argv[1]
open(f"{work}/deep_backends.toml", "w").write(
    "[[bench]]\nname = 'a'\nbackends = " + "[" * 100000 + "]" * 100000 + "\nsizes = [8]\n")
open(f"{work}/deep_table.toml", "w").write(
    "[[bench]]\nname = 'a'\nbackends = ['mpi']\nsizes = [8]\nx = " + "{a = " * 50000 + "1" +
    "}" * 50000 + "\n")
open(f"{work}/nul_name.toml", "w").write(
    "[[bench]]\nname = \"a\\u0000b\"\nbackends = ['mpi']\nsizes = [8]\n")
PY
expect_refusal "deck with backends 100,000 deep" "deep_backends.toml, line 3: arrays or tables nest" -- \
  "${launch[@]}" -np 1 "$a2a" run --dry-run "$work/deep_backends.toml"
expect_refusal "deck with an inline table 50,000 deep" "deep_table.toml, line 5: arrays or tables nest" -- \
  "${launch[@]}" -np 1 "$a2a" run --dry-run "$work/deep_table.toml"
expect_refusal "deck name with a NUL" "'name' contains a NUL character" -- \
  "${launch[@]}" -np 1 "$a2a" run --dry-run "$work/nul_name.toml"

# Two runs, one output: the second starts while the first is writing (its file exists). Both
# used to write FILE.part, and whichever renamed second lost its results, or overwrote the
# first's without a word. Now the second is refused at its start, before any measurement.
deck="$work/long.toml"  # seconds: the second run starts well before the first ends
printf '%s\n' '[deck]' 'iters = 3000' '[[bench]]' 'name = "first"' \
  'backends = ["mpi", "linear", "pairwise"]' 'sizes = [8, 65536]' 'check = true' \
  '[[bench]]' 'name = "second"' 'backends = ["mpi", "linear"]' 'sizes = [65536]' > "$deck"
printf '%s\n' '[[bench]]' 'backends = ["mpi"]' 'sizes = [8]' 'iters = 1' > "$work/probe.toml"
if "${launch[@]}" -np 1 "$a2a" run "$work/probe.toml" --output "$work/probe.h5" 2>&1 |
   grep -q "no HDF5"; then
  echo "SKIP two runs into one file: this build writes no results files (no HDF5)"
else
  "${launch[@]}" -np 3 "$a2a" run "$deck" --output "$work/same.h5" > "$work/run1.log" 2>&1 &
  first=$!
  for _ in $(seq 1 600); do [ -s "$work/same.h5" ] && break; sleep 0.1; done
  "${launch[@]}" -np 3 "$a2a" run "$deck" --output "$work/same.h5" > "$work/run2.log" 2>&1
  second=$?
  wait $first
  first=$?
  if [ $first -eq 0 ] && [ $second -eq 2 ] &&
     grep -q "being written by another a2a run" "$work/run2.log"; then
    ok "two runs into one file: the second refused at its start"
  else
    tail -n 5 "$work/run1.log" "$work/run2.log"
    bad "two runs into one file: exits $first and $second, expected 0 and 2 (refused)"
  fi
  if [ -s "$work/same.h5" ] && { ! python3 -c "import h5py" 2> /dev/null ||
       /usr/bin/python3 "$here/../check_results.py" "$work/same.h5" "$deck" > "$work/check.log" 2>&1; }; then
    ok "the results file is whole"
  else
    cat "$work/check.log" 2> /dev/null
    bad "the results file is whole"
  fi
  ls "$work" | grep -q "\.part\|\.lock" && bad "temporary or lock files left behind" ||
    ok "no temporary or lock files left"
fi

# tune --update killed: the previous table and raw results stay as they were.
table="$work/T.json"
if timeout 200 "${launch[@]}" -np 2 "$a2a" tune --kind uniform --sizes 8,64 --budget 20s --iters 2 \
     --warmup 0 --candidates mpi,linear --output "$table" > "$work/tune1.log" 2>&1; then
  raw=$(ls "$work"/T.h5 "$work"/T.jsonl 2> /dev/null | head -1)
  before_table=$(md5sum < "$table")
  before_raw=$(md5sum < "$raw")
  "${launch[@]}" -np 2 "$a2a" tune --kind uniform --sizes 8:1M --budget 600s --iters 5000 \
    --candidates mpi,linear,pairwise,bruck --output "$table" --update > "$work/tune2.log" 2>&1 &
  tuner=$!
  sleep 4
  kill -TERM $tuner 2> /dev/null
  wait $tuner
  if [ "$(md5sum < "$table")" = "$before_table" ] && [ "$(md5sum < "$raw")" = "$before_raw" ]; then
    ok "tune --update killed: the previous table and raw results survive"
  else
    bad "tune --update killed: the previous table or raw results changed"
  fi
else
  tail -n 5 "$work/tune1.log"
  bad "a first tune"
fi

echo "files: $passed passed, $failed failed"
[ $failed -eq 0 ]
