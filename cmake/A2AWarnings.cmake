add_library(a2a_compile_options INTERFACE)
target_compile_options(a2a_compile_options INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>)
if(A2A_SANITIZE)
  target_compile_options(a2a_compile_options INTERFACE -fsanitize=address,undefined
                                                       -fno-omit-frame-pointer)
  target_link_options(a2a_compile_options INTERFACE -fsanitize=address,undefined)
endif()
