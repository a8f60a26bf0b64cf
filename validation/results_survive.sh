#!/usr/bin/env bash
# results_survive.sh signal|group|limit A2A DECK OUTPUT MPIEXEC...
# Finished work survives: `a2a run` stopped in its second experiment, by SIGTERM to mpirun
# (signal), SIGTERM to the whole process group, mpirun and every rank at once (group), or by a
# file-size limit on the ranks (limit), must leave a results file that h5py opens, with
# completed = 0 and every finished experiment in it, and nothing else: no lock file, no
# half-written image. A signal must say which experiments the file holds; the limit must be an
# error message and a non-zero exit, not a crash.
set -u
mode=$1 a2a=$2 deck=$3 output=$4
shift 4
python=/usr/bin/python3
rm -f "$output" "$output".part.* "$output.lock"
leftovers() {  # the lock and temporary images a stopped run must not leave
  local left
  left=$(ls "$output.lock" "$output".part.* 2>/dev/null)
  [ -z "$left" ] || { echo "FAIL: left behind: $left"; fail=1; }
}
inspect() {
  "$python" - "$output" <<'PY'
import sys
import h5py
with h5py.File(sys.argv[1], "r") as f:
    a = f.attrs
    groups = list(f["experiments"]) if "experiments" in f else []
    print(f"completed={int(a['completed'])} experiments_completed={int(a['experiments_completed'])}"
          f" of {int(a['experiments_planned'])} groups={groups}")
PY
}
fail=0
case "$mode" in
  signal | group)
    if [ "$mode" = group ]; then
      setsid "$@" "$a2a" run "$deck" --output "$output" > "$output.log" 2>&1 &
    else
      "$@" "$a2a" run "$deck" --output "$output" > "$output.log" 2>&1 &
    fi
    pid=$!
    for _ in $(seq 1 600); do  # up to 60 s for the first experiment to be in the file
      inspect 2>/dev/null | grep -q "experiments_completed=1" && break
      sleep 0.1
    done
    if [ "$mode" = group ]; then kill -TERM -- "-$pid"; else kill -TERM "$pid"; fi
    wait "$pid"
    code=$?
    cat "$output.log"
    echo "mpirun exit code after SIGTERM: $code"
    state=$(inspect 2>&1)
    echo "$state"
    [ "$code" -ne 0 ] || { echo "FAIL: the interrupted run exited 0"; fail=1; }
    echo "$state" | grep -q "completed=0 experiments_completed=1 of 3 groups=\['00-quick'\]" ||
      { echo "FAIL: the file does not hold exactly the finished experiment"; fail=1; }
    grep -q "run: interrupted; the first 1 of 3 experiments are in $output" "$output.log" ||
      { echo "FAIL: no line saying what the file holds"; fail=1; }
    leftovers ;;
  limit)
    # 16 KiB: the run's first image (metadata) fits, the one with the first experiment not.
    out=$("$@" bash -c "ulimit -f 16; exec $a2a run $deck --output $output" 2>&1)
    code=$?
    echo "$out"
    echo "exit code: $code"
    [ "$code" -ne 0 ] && [ "$code" -lt 124 ] || { echo "FAIL: expected an error exit"; fail=1; }
    echo "$out" | grep -q "cannot write results file .*File too large" ||
      { echo "FAIL: no clear error message"; fail=1; }
    state=$(inspect 2>&1)
    echo "$state"
    echo "$state" | grep -q "completed=0" || { echo "FAIL: the file is not readable"; fail=1; }
    leftovers ;;
esac
if [ $fail -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit $fail
