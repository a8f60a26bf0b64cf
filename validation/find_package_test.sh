#!/usr/bin/env bash
# Installs this build tree into a scratch prefix, then configures, builds and runs
# validation/consumer against it with find_package(a2a).
set -eu
build_dir=$1 source_dir=$2 mpiexec=$3
shift 3
work="$build_dir/find_package_test"
rm -rf "$work"
cmake --install "$build_dir" --prefix "$work/prefix" > "$work.install.log" 2>&1 || {
  cat "$work.install.log"; exit 1; }
cmake -S "$source_dir/validation/consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_BUILD_TYPE=Release
cmake --build "$work/build"
"$mpiexec" "$@" "$work/build/consumer"
