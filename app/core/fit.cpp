#include "core/fit.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "a2a/error.hpp"
#include "a2a/nesting.hpp"
#include "core/stats.hpp"

namespace a2a::app::fit {

double Result::predict(double messages, double bytes_sent, double bytes_copied) const {
  return alpha_us.value * messages + beta_us_per_byte.value * bytes_sent +
         (has_gamma ? gamma_us_per_byte.value * bytes_copied : 0.0);
}

Observation observation(const nlohmann::json& r, const std::string& where) {
  for (const char* key : {"median_us", "messages_sent", "bytes_sent", "label"}) {
    if (!r.contains(key)) throw Error(where + ": bench record without '" + key + "'");
  }
  if (!r["median_us"].is_number() || !r["messages_sent"].is_number() ||
      !r["bytes_sent"].is_number()) {
    throw Error(where + ": median_us, messages_sent and bytes_sent must be numbers");
  }
  Observation o;
  o.backend = r["label"].get<std::string>();
  o.time_us = r["median_us"].get<double>();
  o.messages = r["messages_sent"].get<double>();
  o.bytes_sent = r["bytes_sent"].get<double>();
  // Store-and-forward backends copy what they forward; direct ones (mpi, linear, pairwise, the
  // randomized ones, TRA at r = P) send each block once and copy nothing. A backend forwards
  // when it sends more blocks than the P - 1 of a direct exchange; records without those
  // counters: when it has more than one round.
  const bool forwards = r.contains("blocks_sent") && r.contains("procs")
                            ? r["blocks_sent"].get<double>() > r["procs"].get<double>() - 1
                            : r.value("rounds", 0.0) > 1;
  o.bytes_copied = forwards ? o.bytes_sent : 0.0;
  o.ci95_us = std::max(0.0, r.value("ci95_high_us", o.time_us) - r.value("ci95_low_us", o.time_us));
  if (!std::isfinite(o.time_us) || o.time_us <= 0 || o.messages < 0 || o.bytes_sent < 0) {
    throw Error(where + ": a time must be positive and finite, counters non-negative");
  }
  return o;
}

std::vector<Observation> read_observations(const std::string& text, const std::string& file) {
  std::vector<Observation> out;
  std::istringstream in(text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] != '{') continue;  // tables, progress lines
    nlohmann::json r;
    const std::string where = file + ":" + std::to_string(number);
    if (const std::string deep = nesting_problem(line, false, where); !deep.empty())
      throw Error(deep);
    try {
      r = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception& e) {
      throw Error(file + ":" + std::to_string(number) + ": not a JSON record: " + e.what());
    }
    if (!r.is_object() || r.value("app", "") != "bench") continue;
    out.push_back(observation(r, file + ":" + std::to_string(number)));
  }
  if (out.empty())
    throw Error(file + ": no a2a bench records (JSON lines with \"app\": \"bench\")");
  return out;
}

Result fit(const std::vector<Observation>& observations) {
  const auto n = static_cast<Eigen::Index>(observations.size());
  bool any_direct = false, any_forwarding = false;
  for (const Observation& o : observations) {
    (o.bytes_copied > 0 ? any_forwarding : any_direct) = true;
  }
  Result result;
  result.has_gamma = any_direct && any_forwarding;
  const Eigen::Index k = result.has_gamma ? 3 : 2;
  if (n < k + 1) {
    throw Error("the fit needs more than " + std::to_string(k) + " measurements, got " +
                std::to_string(n));
  }
  // R^2 is computed in units of the longest time, so that no sum of squares overflows whatever
  // unit or magnitude the records were written in.
  double unit = 0;
  for (const Observation& o : observations)
    unit = std::max(unit, std::abs(o.time_us));
  if (!(unit > 0) || !std::isfinite(unit)) throw Error("the fit needs finite, non-zero times");
  // Relative residuals: row i divided by its time (times span orders of magnitude), and
  // weighted down by the measurement's relative CI width.
  Eigen::MatrixXd x(n, k);
  Eigen::VectorXd y(n), w(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Observation& o = observations[static_cast<std::size_t>(i)];
    const double relative_ci = std::isfinite(o.ci95_us) ? o.ci95_us / o.time_us : 0.0;
    w(i) = 1.0 / (o.time_us * std::sqrt(1.0 + relative_ci * relative_ci));
    x(i, 0) = o.messages * w(i);
    x(i, 1) = o.bytes_sent * w(i);
    if (result.has_gamma) x(i, 2) = o.bytes_copied * w(i);
    y(i) = o.time_us * w(i);
  }
  // Scale the columns to unit norm so that microseconds per message and per byte, which
  // differ by 10^4, condition the QR alike.
  Eigen::VectorXd scale(k);
  for (Eigen::Index j = 0; j < k; ++j) {
    // stableNorm: the plain norm's sum of squares underflows to 0 for times of 1e300 us and more
    // (weights of 1e-300), which would read as a counter that is always zero.
    scale(j) = x.col(j).stableNorm();
    if (scale(j) == 0) throw Error("the fit's design is singular: one counter is always zero");
    x.col(j) /= scale(j);
  }
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(x);
  if (qr.rank() < k) {
    throw Error(
        "the fit's design is singular: the counters do not vary independently "
        "(measure more sizes, radices or backends)");
  }
  const Eigen::VectorXd beta = qr.solve(y);
  const Eigen::VectorXd residual = y - x * beta;
  const double sigma2 = residual.squaredNorm() / static_cast<double>(n - k);
  const Eigen::MatrixXd covariance = sigma2 * (x.transpose() * x).inverse();
  Parameter* params[3] = {&result.alpha_us, &result.beta_us_per_byte, &result.gamma_us_per_byte};
  for (Eigen::Index j = 0; j < k; ++j) {
    params[j]->value = beta(j) / scale(j);
    params[j]->ci95 = 1.96 * std::sqrt(std::max(0.0, covariance(j, j))) / scale(j);
  }
  result.observations = observations.size();
  // R^2 and the relative errors in the longest time's units.
  double mean = 0;
  for (const Observation& o : observations)
    mean += o.time_us / unit;
  mean /= static_cast<double>(n);
  double ss_res = 0, ss_tot = 0;
  std::map<std::string, std::vector<double>> errors;
  for (const Observation& o : observations) {
    const double time = o.time_us / unit;
    const double predicted = result.predict(o.messages, o.bytes_sent, o.bytes_copied) / unit;
    ss_res += (time - predicted) * (time - predicted);
    ss_tot += (time - mean) * (time - mean);
    errors[o.backend].push_back(std::abs(predicted - time) / time);
  }
  result.r_squared = ss_tot > 0 ? 1 - ss_res / ss_tot : 1.0;
  for (auto& [backend, list] : errors)
    result.median_relative_error[backend] = stats::median(list);
  return result;
}

std::vector<std::string> doubts(const Result& r) {
  std::vector<std::string> out;
  const auto number = [](double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", x);
    return std::string(text);
  };
  // Written so that NaN (times that overflow the sums) fails each test instead of passing it.
  if (!(r.r_squared >= kLeastRSquared))
    out.push_back("R^2 = " + number(r.r_squared) + " is below " + number(kLeastRSquared));
  const auto positive = [&](const char* name, const Parameter& p) {
    if (!(p.value > 0))
      out.push_back(std::string(name) + " = " + number(p.value) + " is not positive");
    else if (!(p.value - p.ci95 > 0))
      out.push_back(std::string(name) + "'s 95% interval (" + number(p.value) + " +- " +
                    number(p.ci95) + ") contains 0");
  };
  positive("alpha", r.alpha_us);
  positive("beta", r.beta_us_per_byte);
  if (r.has_gamma && !(r.gamma_us_per_byte.value + r.gamma_us_per_byte.ci95 >= 0))
    out.push_back("gamma = " + number(r.gamma_us_per_byte.value) + " is negative");
  return out;
}

nlohmann::json to_json(const Result& r) {
  const std::vector<std::string> why_not = doubts(r);
  nlohmann::json j = {{"alpha_us", r.alpha_us.value},
                      {"alpha_ci95_us", r.alpha_us.ci95},
                      {"beta_us_per_byte", r.beta_us_per_byte.value},
                      {"beta_ci95_us_per_byte", r.beta_us_per_byte.ci95},
                      {"has_gamma", r.has_gamma},
                      {"r_squared", r.r_squared},
                      {"observations", r.observations},
                      {"median_relative_error", r.median_relative_error},
                      {"holds", why_not.empty()},
                      {"doubts", why_not}};
  if (r.has_gamma) {
    j["gamma_us_per_byte"] = r.gamma_us_per_byte.value;
    j["gamma_ci95_us_per_byte"] = r.gamma_us_per_byte.ci95;
  }
  return j;
}

}  // namespace a2a::app::fit
