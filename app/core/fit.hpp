// A per-machine cost model fitted to measured exchanges (Eigen, weighted least squares):
//
//   time = alpha * messages + beta * bytes sent + gamma * bytes copied
//
// alpha: per-message start-up (us), beta: per byte on the network (us/B), gamma: per byte of
// store-and-forward copying (us/B). The regressors are the exact counters a run reports for
// rank 0 (`messages_sent`, `bytes_sent`; for the radix-r Bruck family these are K and D S of
// Propositions 1-4, for SLOAV the 2 log2 P start-ups and merged bytes of its model, for the
// direct algorithms P - 1 messages). A store-and-forward backend (one that sends more than the
// P - 1 blocks of a direct exchange) copies what it forwards, so its bytes copied are its bytes
// sent; the direct ones copy nothing. gamma can
// only be told from beta when both kinds were measured; otherwise it is left out (and folded
// into beta), and the fit says so.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace a2a::app::fit {

struct Observation {
  std::string backend;
  double messages = 0, bytes_sent = 0, bytes_copied = 0;
  double time_us = 0;
  double ci95_us = 0;  // width of the measurement's confidence interval (0: exact, simulated)
};

struct Parameter {
  double value = 0, ci95 = 0;  // estimate and half-width of its 95% confidence interval
};

struct Result {
  Parameter alpha_us, beta_us_per_byte, gamma_us_per_byte;
  bool has_gamma = false;  // false: one kind of backend only, gamma folded into beta
  double r_squared = 0;
  std::size_t observations = 0;
  // Median |predicted - measured| / measured per backend.
  std::map<std::string, double> median_relative_error;
  double predict(double messages, double bytes_sent, double bytes_copied) const;
};

// One `a2a bench` record (JSON) as an observation; `where` prefixes the error of a malformed one.
Observation observation(const nlohmann::json& record, const std::string& where);

// The observations in `a2a bench --format json` records (one JSON object per line, as
// `a2a bench` and `scripts/simulate` write them; other lines and records that are not bench
// results are skipped). Throws a2a::Error naming the line of a malformed record.
std::vector<Observation> read_observations(const std::string& text, const std::string& file);

// The weighted least-squares fit (relative residuals, weighted down by each measurement's
// relative CI). Throws a2a::Error with fewer observations than parameters or a singular design.
Result fit(const std::vector<Observation>& observations);

// Why the fit must not be used to predict; empty when it holds. It does not hold when R^2 is
// below kLeastRSquared (the model explains too little of the times), when alpha or beta is not
// positive or its 95% interval contains 0 (a start-up or a bandwidth the data cannot tell from
// nothing), or when gamma is negative beyond its interval (copying cannot save time).
inline constexpr double kLeastRSquared = 0.9;
std::vector<std::string> doubts(const Result& result);

nlohmann::json to_json(const Result& result);

}  // namespace a2a::app::fit
