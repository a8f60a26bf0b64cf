#!/usr/bin/env bash
# script_hostile.sh CLUSTER: scripts/cluster used as a careless or unlucky user would, each case
# ending with a clear refusal (exit 2, before any namespace is made) or with nothing left
# behind (no namespace, /etc/netns entry, run folder, record or process):
#   - arguments: a rate of 0 or past 400gbit, slot counts of 20 digits, 100,000 or 1,200 ranks in
#     all, an option whose value is missing (the next option is not taken as it), --platform
#     into a missing folder or with one node (refused before measuring);
#   - TERM, then TERM again 0.02 s later, at 8 nodes: the removal runs to its end;
#   - SIGKILL, which no script catches: `--cleanup` removes the namespaces, the job in them,
#     the /etc/netns entries and the run folder, and leaves a living run alone.
# Exit 77 where namespaces cannot be made (CTest's skip). Prints "script_hostile: N passed, M failed".
set -u
cluster=$1
"$cluster" --check || exit $?
state=$(mktemp -d)
export A2A_CLUSTER_STATE_DIR=$state
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "PASS $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
namespaces() { ip netns list | awk '{print $1}' | grep -cE '^a2a[0-9a-f]{8}' ; }
sleepers() { pgrep -xf "sleep 7919" | wc -l; }
leftovers() {  # NAME: nothing of any run may be left
  local ns etc dirs jobs
  ns=$(namespaces) etc=$(ls /etc/netns 2>/dev/null | grep -c '^a2a') jobs=$(sleepers)
  dirs=$(ls -d "${TMPDIR:-/tmp}"/a2a-cluster-* 2>/dev/null | wc -l)
  if [ "$ns" -eq 0 ] && [ "$etc" -eq 0 ] && [ "$dirs" -eq 0 ] && [ "$jobs" -eq 0 ] &&
     [ -z "$(ls "$state")" ]; then
    ok "$1"
  else
    bad "$1: $ns namespaces, $etc /etc/netns entries, $dirs run folders, $jobs jobs, records: $(ls "$state")"
  fi
}
[ "$(namespaces)" -eq 0 ] || { echo "script_hostile: namespaces of another run exist; not run"; exit 77; }

refused() {  # NAME PATTERN ARGS...
  local name=$1 pattern=$2 out code
  shift 2
  out=$(timeout 60 "$cluster" "$@" 2>&1)
  code=$?
  if [ $code -eq 2 ] && printf '%s\n' "$out" | grep -q -- "$pattern" && [ "$(namespaces)" -eq 0 ]; then
    ok "$name"
  else
    printf '%s\n' "$out" | tail -3
    bad "$name (exit $code)"
  fi
}
refused "--rate 0bit" "must be from 8kbit to 400gbit" --rate 0bit -- true
refused "--rate 900gbit" "must be from 8kbit to 400gbit" --rate 900gbit -- true
refused "--rate 1e9bit" "must be a tc rate" --rate 1e9bit -- true
refused "--slots of 20 digits" "not a count from 1 to 1024" --slots 9223372036854775807,1 -- true
refused "--slots 100000" "not a count from 1 to 1024" --slots 100000 -- true
refused "1,200 ranks in all" "1200 ranks in all" --nodes 2 --slots 600 -- true
refused "--nodes without a value" "--nodes needs a value" --nodes --slots 2 -- true
refused "-np without a value" "-np needs a value" -np
refused "--platform into a missing folder" "not a folder" --platform /nonexistent/x.xml
refused "--platform with one node" "needs --nodes 2 or more" --nodes 1 --platform "$state/x.xml"

# start NODES: a cluster running `sleep` in its own session, once its hosts are up.
start() {
  setsid "$cluster" --nodes "$1" --slots 1 -- sleep 7919 > "$state.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 300); do
    [ "$(sleepers)" -ge "$1" ] && return 0
    sleep 0.1
  done
  cat "$state.log"
  return 1
}
if start 8; then
  kill -TERM "$pid"
  sleep 0.02
  kill -TERM "$pid" 2>/dev/null
  wait "$pid"
  leftovers "TERM twice at 8 nodes"
else
  bad "TERM twice at 8 nodes: the cluster did not start"
fi

if start 3; then
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null
  [ "$(namespaces)" -gt 0 ] || bad "SIGKILL: nothing was left to clean up (the test cannot fail)"
  # A living run beside the dead one's leftovers: --cleanup must leave it alone.
  setsid "$cluster" --nodes 2 --slots 1 -- sleep 3571 > "$state.live" 2>&1 &
  live=$!
  for _ in $(seq 1 300); do [ "$(pgrep -xfc "sleep 3571")" -ge 2 ] && break; sleep 0.1; done
  "$cluster" --cleanup
  if [ "$(pgrep -xfc "sleep 3571")" -ge 2 ] && kill -0 "$live" 2>/dev/null; then
    ok "--cleanup leaves a living run alone"
  else
    bad "--cleanup stopped a living run"
  fi
  kill -TERM "$live"
  wait "$live"
  leftovers "SIGKILL, then --cleanup"
else
  bad "SIGKILL: the cluster did not start"
fi
rm -rf "$state" "$state.log" "$state.live"
echo "script_hostile: $passed passed, $failed failed"
[ $failed -eq 0 ]
