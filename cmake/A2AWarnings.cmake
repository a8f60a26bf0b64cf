add_library(a2a_compile_options INTERFACE)
# Our sources use the MPI C API only: keep the deprecated C++ bindings (and their symbols,
# e.g. _ZN3MPI8Datatype4FreeEv) out of every object we build.
target_compile_definitions(a2a_compile_options INTERFACE OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)
# -Wno-psabi: GCC and Clang note that a 32-byte vector passed by value has another ABI without AVX;
# the FFT's vectors (transpose/fft/src/lanes.hpp) never cross a call, every use is inlined.
target_compile_options(a2a_compile_options INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wno-psabi>)
if(A2A_SANITIZE)
  # Undefined behaviour stops the program (UBSan would only print and go on): a test fails.
  target_compile_options(a2a_compile_options INTERFACE -fsanitize=address,undefined
                                                       -fno-sanitize-recover=undefined
                                                       -fno-omit-frame-pointer)
  target_link_options(a2a_compile_options INTERFACE -fsanitize=address,undefined)
endif()
