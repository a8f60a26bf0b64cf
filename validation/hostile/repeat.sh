#!/usr/bin/env bash
# repeat.sh N COMMAND...: runs COMMAND N times (each its own launch), stopping at the first
# failure. For races that happen once per process (the first plan, a keyval made by two
# threads at once): one launch shows them rarely, N launches almost surely.
n=$1
shift
for ((i = 1; i <= n; i++)); do
  out=$("$@" 2>&1)
  code=$?
  if [ $code -ne 0 ]; then
    printf '%s\n' "$out" | tail -n 20
    echo "repeat: launch $i of $n failed (exit $code)"
    exit 1
  fi
done
printf '%s\n' "$out" | tail -n 1
echo "repeat: $n of $n launches passed"
