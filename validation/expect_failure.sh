#!/usr/bin/env bash
# expect_failure.sh PATTERN COMMAND...
# Passes when COMMAND exits non-zero (and not by a timeout/kill) and its output matches PATTERN.
set -u
pattern=$1
shift
output=$("$@" 2>&1)
code=$?
printf '%s\n' "$output"
if [ "$code" -eq 0 ]; then
  echo "expect_failure: command succeeded but should have failed"
  exit 1
fi
if [ "$code" -ge 124 ]; then
  echo "expect_failure: command was killed or timed out (exit $code)"
  exit 1
fi
if ! printf '%s\n' "$output" | grep -qE -- "$pattern"; then
  echo "expect_failure: output does not match /$pattern/"
  exit 1
fi
echo "expect_failure: exit $code with the expected message"
