#!/usr/bin/env bash
# The README's short tour runs as written: every line of its first code block, in order, in one
# new shell with a clean environment (no variables of scripts/env.sh: HOME, PATH and nothing
# else), from the repository's root, after the main job's build. Each line gets a time limit;
# `./your_program` is a small MPI program of this test's (MPI_Alltoallv, its result checked),
# built with mpicc where the tour runs it. What the tour writes (results/, my-machine.json and
# .h5) is removed afterwards. Prints "readme_tour: N passed, M failed".
# Usage: readme_tour.sh REPOSITORY_ROOT [SECONDS_PER_LINE]
set -u
root=$(cd "$1" && pwd)
limit=${2:-300}
cd "$root"
work=$(mktemp -d)
cleanup() {
  # What the tour made at the root (my-machine.json and .h5, your_program, results/ where it was
  # not there before), and the files it wrote into a results/ that was.
  ls -A | sort | comm -13 "$work/root-before" - | grep -E '^(my-machine\..*|your_program|results)$' |
    while read -r f; do rm -rf "$f"; done
  [ -f "$work/results-before" ] && find results -type f 2>/dev/null | sort |
    comm -13 "$work/results-before" - | while read -r f; do rm -f "$f"; done
  rm -rf "$work"
}
ls -A | sort > "$work/root-before"
[ -d results ] && find results -type f | sort > "$work/results-before"
trap cleanup EXIT
# The tour: the first ```sh block after "## A short tour".
awk '/^## A short tour/{t=1} t&&/^```sh/{b=1;next} b&&/^```/{exit} b' README.md > "$work/tour"
[ -s "$work/tour" ] || { echo "readme_tour: no tour block in README.md"; exit 1; }
cat > "$work/your_program.c" <<'C'
/* A program the tour runs under the interposer: one MPI_Alltoallv, its result checked. */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int p, r;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  int send[64], recv[64], counts[64], displs[64], bad = 0;
  for (int q = 0; q < p && q < 64; ++q) {
    send[q] = 100 * r + q;
    counts[q] = 1;
    displs[q] = q;
  }
  MPI_Alltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD);
  for (int q = 0; q < p && q < 64; ++q) bad |= recv[q] != 100 * q + r;
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  if (r == 0) printf("your_program: MPI_Alltoallv %s\n", bad ? "WRONG" : "right");
  MPI_Finalize();
  return bad;
}
C
# One shell for the whole tour (its exports carry over); each other line under a time limit.
{
  echo 'passed=0 failed=0'
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    if [[ $line == export* || $line == \[* ]]; then
      echo "$line"
      continue
    fi
    [[ $line == *./your_program* ]] && printf 'mpicc -o your_program %q\n' "$work/your_program.c"
    printf 'echo %q\n' "tour: $line"
    printf 'if timeout %s bash -c %q; then passed=$((passed + 1)); else echo "FAILED (exit $?): "%q; failed=$((failed + 1)); fi\n' \
      "$limit" "$line" "$line"
  done < "$work/tour"
  echo 'echo "readme_tour: $passed passed, $failed failed"'
  echo '[ "$failed" -eq 0 ]'
} > "$work/run.sh"
env -i HOME="$work" PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  TERM=dumb bash "$work/run.sh"
exit $?
