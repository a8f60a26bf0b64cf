#!/usr/bin/env bash
# expect.sh [--status N] [--has REGEX]... [--lacks REGEX]... [--count N REGEX]... -- COMMAND...
# Runs COMMAND, prints its output, and checks it: the exit status (default 0), extended regular
# expressions that must (--has) or must not (--lacks) match some line, and lines matching
# REGEX exactly N times (--count). Exit 77 from COMMAND (scripts/cluster: no namespaces here)
# is passed on, so that CTest reports the test as skipped with the reason printed.
set -u
status=0 has=() lacks=() counts=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case "$1" in
    --status) status=$2; shift 2 ;;
    --has) has+=("$2"); shift 2 ;;
    --lacks) lacks+=("$2"); shift 2 ;;
    --count) counts+=("$2" "$3"); shift 3 ;;
    *) echo "expect.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
shift
out=$("$@" 2>&1)
code=$?
printf '%s\n' "$out"
[ $code -ne 77 ] || exit 77
fail=0
if [ "$code" -ne "$status" ]; then echo "expect.sh: exit status $code, expected $status"; fail=1; fi
for re in "${has[@]}"; do
  printf '%s\n' "$out" | grep -Eq -- "$re" || { echo "expect.sh: no line matches '$re'"; fail=1; }
done
for re in "${lacks[@]}"; do
  if printf '%s\n' "$out" | grep -Eq -- "$re"; then
    echo "expect.sh: a line matches '$re':"
    printf '%s\n' "$out" | grep -E -- "$re" | head -5
    fail=1
  fi
done
for ((i = 0; i < ${#counts[@]}; i += 2)); do
  n=${counts[i]} re=${counts[i + 1]}
  got=$(printf '%s\n' "$out" | grep -Ec -- "$re")
  [ "$got" -eq "$n" ] || { echo "expect.sh: $got lines match '$re', expected $n"; fail=1; }
done
[ $fail -eq 0 ] && echo "expect.sh: passed"
exit $fail
