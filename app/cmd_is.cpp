// a2a is --class S|W|A|B|C [--backend SPEC] [--counts-backend SPEC]: the NPB IS kernel with
// its exchanges through a2a backends, verified with the official NPB test keys and ranks.
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "core/memory.hpp"
#include "core/records.hpp"
#include "core/stats.hpp"
#include "is/npb_is.hpp"

namespace a2a::app {
namespace {

// The run as one JSON record (--format json).
nlohmann::json is_record(const Session& session, const is::ClassParams& c, const is::Options& run,
                         const is::Result& r, double mops, bool ok) {
  const stats::Summary s = stats::summarize(r.iteration_us);
  nlohmann::json rec = {{"app", "is"},
                        {"class", std::string(1, c.name)},
                        {"backend", r.backend_name},
                        {"counts_backend", r.counts_backend_name},
                        {"procs", session.procs},
                        {"bytes", r.mean_exchange_bytes},
                        {"iters", run.iterations},
                        {"check", ok ? "passed" : "failed"},
                        {"time_s", r.time_s},
                        {"mops_total", mops},
                        {"mops_per_process", mops / session.procs},
                        {"keys_exchange_us", r.keys_us},
                        {"counts_exchange_us", r.counts_us},
                        {"bucket_us", r.bucket_us},
                        {"reduce_us", r.reduce_us},
                        {"rank_us", r.rank_us},
                        {"partial_verified", r.partial_passed},
                        {"full_verified", r.full_ok},
                        {"keys_conserved", r.count_ok},
                        {"keys_multiset_verified", r.keys_ok}};
  put_summary(rec, s);
  return rec;
}

// The run as NPB prints it, plus a2a's lines (backends, exchange and local phase times, the
// verification's parts).
void print_is(const Session& session, const is::ClassParams& c, const is::Options& run,
              const is::Result& r, double mops, bool ok) {
  std::printf("\n\n NAS Parallel Benchmarks IS (a2a), exchanges through a2a backends\n\n");
  std::printf(" Size:  %llu  (class %c)\n", static_cast<unsigned long long>(c.total_keys()),
              c.name);
  std::printf(" Iterations:   %d\n", run.iterations);
  std::printf(" Number of processes:     %d\n\n", session.procs);
  std::printf(" IS Benchmark Completed\n");
  std::printf(" Class           = %24c\n", c.name);
  std::printf(" Size            = %24llu\n", static_cast<unsigned long long>(c.total_keys()));
  std::printf(" Iterations      = %24d\n", run.iterations);
  std::printf(" Time in seconds = %24.6f\n", r.time_s);
  std::printf(" Total processes = %24d\n", session.procs);
  std::printf(" Mop/s total     = %24.2f\n", mops);
  std::printf(" Mop/s/process   = %24.2f\n", mops / session.procs);
  std::printf(" Operation type  = %24s\n", "keys ranked");
  std::printf(" Verification    = %24s\n", ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
  std::printf(" Keys backend    = %s\n", r.backend_name.c_str());
  std::printf(" Counts backend  = %s\n", r.counts_backend_name.c_str());
  std::printf(" Keys exchange   = %24.1f us (slowest rank, all iterations)\n", r.keys_us);
  std::printf(" Counts exchange = %24.1f us\n", r.counts_us);
  std::printf(
      " Local phases    = bucketing %.1f us, bucket-size Allreduce %.1f us, ranking "
      "%.1f us\n",
      r.bucket_us, r.reduce_us, r.rank_us);
  std::printf(" Partial verify  = %21d/%d\n", r.partial_passed, 5 * run.iterations);
  std::printf(" Full verify     = %24s\n", r.full_ok ? "sorted" : "OUT OF ORDER");
  std::printf(" Keys conserved  = %24s\n", r.count_ok ? "yes" : "NO");
  std::printf(" Keys as sent    = %24s\n\n", r.keys_ok ? "yes" : "NO");
}
}  // namespace

Runner setup_is(CLI::App& app, const Session& session) {
  struct Options {
    std::string class_name = "S";
    is::Options run;
    std::string format = "table";
  };
  auto opt = std::make_shared<Options>();
  auto* sub = app.add_subcommand("is", "NPB IS integer sort over a2a backends (run under mpirun)");
  sub->add_option("--class,-c", opt->class_name, "problem class: S, W, A, B or C")
      ->check(CLI::IsMember({"S", "W", "A", "B", "C"}));
  sub->add_option("--backend,-b", opt->run.backend, "Alltoallv backend spec for the keys");
  sub->add_option("--counts-backend", opt->run.counts_backend,
                  "Alltoall backend spec for the per-rank key counts");
  sub->add_option("--iterations", opt->run.iterations,
                  "timed iterations (NPB: 10; the verification values hold for any number)")
      ->check(CLI::Range(1, 1000));
  sub->add_option("--format", opt->format, "table (NPB style) or json")
      ->check(CLI::IsMember({"table", "json"}));
  // Test-only fault injection on rank 0's received keys; verification must then fail.
  sub->add_flag_callback("--test-drop-key",
                         [opt] { opt->run.fault = is::Options::Fault::drop_key; })
      ->group("");
  sub->add_flag_callback("--test-flip-key",
                         [opt] { opt->run.fault = is::Options::Fault::flip_key; })
      ->group("");
  sub->add_flag_callback("--test-duplicate-key",
                         [opt] { opt->run.fault = is::Options::Fault::duplicate_key; })
      ->group("");

  return [session, opt]() {
    opt->run.class_name = opt->class_name[0];
    const is::ClassParams& c = is::class_params(opt->run.class_name);
    refuse_check_on_folded_buffers(true, "is (the NPB verification)");
    const is::Result r = is::run(opt->run, session.comm);
    const double mops = r.time_s > 0 ? static_cast<double>(opt->run.iterations) *
                                           static_cast<double>(c.total_keys()) / r.time_s / 1e6
                                     : 0.0;
    const bool ok = r.verified();
    if (session.root()) {
      if (opt->format == "json") {
        std::cout << is_record(session, c, opt->run, r, mops, ok).dump() << "\n";
      } else {
        print_is(session, c, opt->run, r, mops, ok);
      }
    }
    return ok ? 0 : 1;
  };
}

}  // namespace a2a::app
