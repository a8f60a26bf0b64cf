// The a2a subcommands. Each setup_* registers its options on the CLI and returns the function
// that runs it; every rank parses the same argv, so option errors are identical on every rank.
#pragma once

#include <mpi.h>

// SimGrid's smpicxx force-includes smpi_helpers.h, whose exit(x) macro breaks CLI11's
// App::exit: keep it out of CLI11's way.
#pragma push_macro("exit")
#undef exit
#include <CLI/CLI.hpp>
#pragma pop_macro("exit")
#include <functional>
#include <string>

#include "core/session.hpp"

namespace a2a::app {

using Runner = std::function<int()>;

Runner setup_list(CLI::App& app, const Session& session);
Runner setup_model(CLI::App& app, const Session& session);
Runner setup_bench(CLI::App& app, const Session& session);
Runner setup_is(CLI::App& app, const Session& session);
Runner setup_fft(CLI::App& app, const Session& session);
Runner setup_fft1d(CLI::App& app, const Session& session);
Runner setup_run(CLI::App& app, const Session& session);
Runner setup_tune(CLI::App& app, const Session& session);
Runner setup_pingpong(CLI::App& app, const Session& session);

// --fftw-plan and --wisdom, as `a2a fft` and `a2a fft1d` take them (cmd_fft.cpp).
void add_planning_options(CLI::App& command, std::string& fftw_plan, std::string& wisdom);

}  // namespace a2a::app
