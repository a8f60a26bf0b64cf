# Sourced by the scripts: the build folder and how to launch MPI here.
A2A_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
A2A_BUILD="$A2A_ROOT/build/release"
A2A_BIN="$A2A_BUILD/app/a2a"
# Open MPI refuses root unless told, and more ranks than cores without --oversubscribe.
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
A2A_MPIRUN=(mpirun --oversubscribe)
a2a_configure_and_build() {
  cmake --preset release -S "$A2A_ROOT" > "$A2A_ROOT/build/configure.log" 2>&1 ||
    { cat "$A2A_ROOT/build/configure.log"; return 1; }
  cmake --build "$A2A_BUILD" -j "$(nproc)"
}
# Installs the release build into /usr/local (a2a on PATH; the libraries, headers, Fortran module,
# pkg-config and CMake files and the Python package where compilers and python3 look), as root or
# with sudo, so that a new shell finds everything the README's tour and the manuals use.
a2a_install() {
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo cmake --install "$A2A_BUILD" > "$A2A_ROOT/build/install.log" 2>&1 &&
    $sudo ldconfig ||
    { cat "$A2A_ROOT/build/install.log"; return 1; }
}
