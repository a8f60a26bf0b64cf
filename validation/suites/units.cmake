# Pure functions and parsers (no MPI launch, or no communication): the cost model, the
# statistics, the fit, selection tables, decks, the randomized schedule.
# Included by validation/CMakeLists.txt.

# Closed-form model vs brute force (no MPI launch needed).
a2a_test_executable(test_model)
add_test(NAME model.closed_form_vs_brute_force COMMAND test_model)
set_tests_properties(model.closed_form_vs_brute_force PROPERTIES TIMEOUT 60)

# The benchmark statistics against hand values and an independent bootstrap (no MPI launch).
a2a_test_executable(test_stats)
add_test(NAME stats.median_and_bootstrap COMMAND test_stats)
set_tests_properties(stats.median_and_bootstrap PROPERTIES TIMEOUT 60)

# The cost-model fit of `a2a model --fit` on synthetic data from known parameters (no MPI).
a2a_test_executable(test_fit)
add_test(NAME model.fit_recovers_parameters COMMAND test_fit)
set_tests_properties(model.fit_recovers_parameters PROPERTIES TIMEOUT 60)

# Selection tables: a2a tune's rules read back by auto, the model fallback against brute force,
# random_auto's thresholds, malformed tables (every rank alike).
a2a_test_executable(test_tuning)
foreach(ranks 1 3 4)
  a2a_add_mpi_test(tuning.tables.P${ranks} ${ranks} COMMAND $<TARGET_FILE:test_tuning> TIMEOUT 60)
endforeach()

# Run decks: the shipped ones parse, bad ones are rejected naming the line (no MPI launch).
a2a_test_executable(test_deck)
add_test(NAME deck.parse COMMAND test_deck ${PROJECT_SOURCE_DIR})
set_tests_properties(deck.parse PROPERTIES TIMEOUT 60)

# The randomized schedule as pure functions (no MPI launch needed).
a2a_test_executable(test_schedule)
add_test(NAME randomized.schedule COMMAND test_schedule)
set_tests_properties(randomized.schedule PROPERTIES TIMEOUT 60)

# BoxFft's plan logic as plain data: steps, boxes, the checks of boxes and kinds (no MPI).
if(A2A_WITH_FFTW)
  a2a_test_executable(test_box_plan)
  target_include_directories(test_box_plan PRIVATE ${PROJECT_SOURCE_DIR}/transpose/fft/src)
  target_link_libraries(test_box_plan PRIVATE a2a::fft)
  add_test(NAME fft.box_plan_logic COMMAND test_box_plan)
  set_tests_properties(fft.box_plan_logic PROPERTIES TIMEOUT 60)
  # Fft3d's plan logic likewise: boxes, steps, layouts, every axis once each way (no MPI).
  a2a_test_executable(test_fft3d_logic)
  target_include_directories(test_fft3d_logic PRIVATE ${PROJECT_SOURCE_DIR}/transpose/fft/src)
  target_link_libraries(test_fft3d_logic PRIVATE a2a::fft)
  add_test(NAME fft.fft3d_logic COMMAND test_fft3d_logic)
  set_tests_properties(fft.fft3d_logic PROPERTIES TIMEOUT 60)
  # BoxFft's own DCT/DST line transforms against FFTW's own r2r (no MPI).
  a2a_test_executable(test_trig_lines)
  target_include_directories(test_trig_lines PRIVATE ${PROJECT_SOURCE_DIR}/transpose/fft/src)
  target_link_libraries(test_trig_lines PRIVATE a2a::fft)
  add_test(NAME fft.trig_lines COMMAND test_trig_lines)
  set_tests_properties(fft.trig_lines PROPERTIES TIMEOUT 60)
  # The same on older CPUs, emulated by qemu-user: its passes are compiled for AVX-512, AVX2 and
  # the baseline (vector_clones.hpp), and this machine runs only the widest. Nehalem (SSE4.2)
  # runs the baseline clone, Haswell the AVX2 one; an AVX-512 instruction there is an illegal
  # instruction, so a wrong pick fails too. GCC on x86-64 only, where the clones exist.
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU"
     AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12 AND NOT A2A_SANITIZE)
    find_program(A2A_QEMU_X86_64 qemu-x86_64)
    if(A2A_QEMU_X86_64)
      foreach(cpu Nehalem Haswell)
        add_test(NAME fft.trig_lines_on_${cpu}
                 COMMAND ${A2A_QEMU_X86_64} -cpu ${cpu} $<TARGET_FILE:test_trig_lines>)
        set_tests_properties(fft.trig_lines_on_${cpu} PROPERTIES TIMEOUT 120
                             PASS_REGULAR_EXPRESSION "trig_lines: [0-9]+ passed, 0 failed")
      endforeach()
    else()
      message(STATUS "qemu-x86_64 not found (Debian: qemu-user): fft.trig_lines_on_{Nehalem,Haswell} "
                     "not registered")
    endif()
  endif()
endif()

# Every C++ source, as this build compiles it, also accepted by Clang without a warning
# (-fsyntax-only: Clang 14, Debian 12's, rejects some C++20 GCC takes, such as a lambda that
# captures a structured binding). It groups the sources into a unity build's batches itself, so
# it runs where each source is its own translation unit (not a unity build: there
# compile_commands.json lists CMake's batches).
if(A2A_PYTHON3 AND NOT CMAKE_UNITY_BUILD AND NOT A2A_SANITIZE)
  find_program(A2A_CLANGXX clang++)
  if(A2A_CLANGXX)
    add_test(NAME build.clang_accepts_sources
             COMMAND ${A2A_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/clang_syntax.py
                     ${PROJECT_BINARY_DIR} ${A2A_CLANGXX})
    set_tests_properties(build.clang_accepts_sources PROPERTIES TIMEOUT 600 PROCESSORS 2)
  else()
    message(STATUS "clang++ not found (Debian: clang): build.clang_accepts_sources not registered")
  endif()
endif()
