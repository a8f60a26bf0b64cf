// a2a: one executable, one subcommand per file (cmd_*.cpp).
#include <mpi.h>

// SimGrid's smpicxx force-includes smpi_helpers.h, whose exit(x) macro breaks CLI11's
// App::exit: keep it out of CLI11's way.
#pragma push_macro("exit")
#undef exit
#include <CLI/CLI.hpp>
#pragma pop_macro("exit")
#include <csignal>
#include <cstdio>
#include <iostream>
#include <map>
#include <new>
#include <stdexcept>
#include <vector>

#include "a2a/error.hpp"
#include "commands.hpp"
#ifdef A2A_WITH_HDF5
#include "io/hdf5_array.hpp"
#endif

int main(int argc, char** argv) {
  // A file-size limit makes writes fail (EFBIG, an error we report) instead of killing us.
  std::signal(SIGXFSZ, SIG_IGN);
  MPI_Init(&argc, &argv);
  a2a::app::Session session;
  MPI_Comm_rank(session.comm, &session.rank);
  MPI_Comm_size(session.comm, &session.procs);

  CLI::App app{"a2a: distributed FFTs and transpositions with a pluggable all-to-all layer"};
  app.require_subcommand(1);
  app.set_version_flag("--version",
                       std::string("a2a ") + A2A_VERSION + " (" + A2A_GIT_COMMIT + ")");
  // Every option's --help line shows its default.
  app.option_defaults()->always_capture_default();
  std::map<CLI::App*, a2a::app::Runner> runners;
  std::vector<a2a::app::Runner (*)(CLI::App&, const a2a::app::Session&)> setups = {
      a2a::app::setup_list, a2a::app::setup_model, a2a::app::setup_bench,   a2a::app::setup_is,
      a2a::app::setup_run,  a2a::app::setup_tune,  a2a::app::setup_pingpong};
#ifdef A2A_WITH_FFTW
  setups.push_back(a2a::app::setup_fft);
  setups.push_back(a2a::app::setup_fft1d);
#endif
  for (auto setup : setups) {
    const std::size_t before = app.get_subcommands({}).size();
    a2a::app::Runner run = setup(app, session);
    runners[app.get_subcommands({})[before]] = std::move(run);
  }

  int code = 0;
  try {
    app.parse(argc, argv);
    for (const auto& [sub, run] : runners) {
      if (sub->parsed()) code = run();
    }
  } catch (const CLI::ParseError& e) {
    // Help and usage errors: every rank has the same argv, so every rank lands here.
    if (session.root()) {
      code = (app.exit)(e);  // parenthesised: not SimGrid's exit(x) macro
    } else {
      code = e.get_exit_code();
    }
  } catch (const a2a::Error& e) {
    // Library and input errors are agreed on by all ranks before they are thrown.
    if (session.root()) std::fprintf(stderr, "a2a: error: %s\n", e.what());
    code = 2;
  } catch (const std::bad_alloc&) {
    // The memory estimates refuse what does not fit before anything is allocated; if an
    // allocation fails anyway, the other ranks may be waiting in a collective: say so and
    // end the job rather than hang.
    std::fprintf(stderr,
                 "a2a: error: out of memory on rank %d (an allocation failed beyond the "
                 "estimate); ending the job\n",
                 session.rank);
    MPI_Abort(session.comm, 3);
  } catch (const std::length_error& e) {
    std::fprintf(stderr, "a2a: error: a size too large on rank %d (%s); ending the job\n",
                 session.rank, e.what());
    MPI_Abort(session.comm, 3);
  }
#ifdef A2A_WITH_HDF5
  if (a2a::io::hdf5_file_left_open()) {
    // HDF5 would crash closing it again inside MPI_Finalize: end here instead.
    if (session.root()) std::fprintf(stderr, "a2a: error: an HDF5 file could not be closed\n");
    MPI_Abort(session.comm, code != 0 ? code : 2);
  }
#endif
  MPI_Finalize();
  return code;
}
