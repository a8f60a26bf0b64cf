#include "run/deck.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "a2a/error.hpp"
#include "a2a/nesting.hpp"
#include "a2a/registry.hpp"
#include "a2a/spec.hpp"
#include "core/distribution.hpp"
#include "core/points.hpp"

namespace a2a::app::deck {
namespace {

// The keys each table accepts (besides the common ones).
const std::set<std::string> kCommon = {"name", "iters", "warmup", "check", "backends"};
const std::map<Type, std::set<std::string>> kKeys = {
    {Type::bench, {"sizes", "vector", "per_call"}},
    {Type::fft,
     {"grid", "decomp", "proc_grid", "transform", "baseline", "chunks", "in_place", "fftw_plan",
      "wisdom", "spectrum_layout"}},
    {Type::fft1d, {"points", "n1", "baseline", "fftw_plan", "wisdom"}},
    {Type::is, {"class", "iterations", "counts_backend"}},
    {Type::model, {"procs", "radix"}}};
const std::map<std::string, Type> kTypes = {{"bench", Type::bench},
                                            {"fft", Type::fft},
                                            {"fft1d", Type::fft1d},
                                            {"is", Type::is},
                                            {"model", Type::model}};

std::string text_of(const toml::value& table, const std::string& key) {
  const toml::value& v = table.at(key);
  if (!v.is_string()) fail_at(v, "'" + key + "' must be a string");
  // A NUL would cut the text short where it becomes a C string (HDF5 names and attributes).
  if (v.as_string().str.find('\0') != std::string::npos) {
    fail_at(v, "'" + key + "' contains a NUL character");
  }
  return v.as_string().str;
}

std::int64_t integer_of(const toml::value& table, const std::string& key, std::int64_t lo,
                        std::int64_t hi) {
  const toml::value& v = table.at(key);
  if (!v.is_integer()) fail_at(v, "'" + key + "' must be an integer");
  const std::int64_t n = v.as_integer();
  if (n < lo || n > hi) {
    fail_at(v, "'" + key + "' = " + std::to_string(n) + " is out of range [" + std::to_string(lo) +
                   "; " + std::to_string(hi) + "]");
  }
  return n;
}

std::string one_of(const toml::value& table, const std::string& key,
                   const std::vector<std::string>& allowed) {
  const std::string value = text_of(table, key);
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
    std::string list;
    for (const auto& a : allowed)
      list += (list.empty() ? "" : ", ") + a;
    fail_at(table.at(key), "'" + key + "' = \"" + value + "\" is not one of " + list);
  }
  return value;
}

// fftw_plan and wisdom ([[fft]], [[fft1d]]): a2a fft's --fftw-plan and --wisdom.
void read_fftw_planning(const toml::value& table, Experiment& e) {
  if (table.contains("fftw_plan")) {
    e.fftw_plan = one_of(table, "fftw_plan", {"estimate", "measure", "patient", "wisdom-only"});
  }
  if (table.contains("wisdom")) {
    e.wisdom = text_of(table, "wisdom");
    if (e.wisdom.empty())
      fail_at(table.at("wisdom"), "'wisdom' is a file name, \"auto\" or \"none\"");
  }
  if (e.fftw_plan == "wisdom-only" && (e.wisdom == "auto" || e.wisdom == "none")) {
    fail_at(table.at("fftw_plan"), "fftw_plan = \"wisdom-only\" needs 'wisdom' (the file)");
  }
}

// Backends: "all" (every algorithm of `kind`) or an array of spec strings (or one
// comma-separated string). Each spec must parse and name a registered algorithm serving `kind`,
// or for the FFTs (`any_kind`) either kind: a transpose is a uniform exchange where the grid
// divides evenly, so uniform-only backends run there (the plans, made before anything runs,
// refuse them on grids that do not divide, with the CLI's message).
void read_backends(Experiment& e, Kind kind, bool any_kind = false) {
  if (!e.table.contains("backends")) {
    if (e.type == Type::model) return;
    fail_at(e.table,
            std::string("[[") + to_string(e.type) + "]] needs 'backends' (\"all\" or a list)");
  }
  const toml::value& v = e.table.at("backends");
  std::vector<std::string> specs;
  if (v.is_string()) {
    if (v.as_string().str == "all") {
      e.all_backends = true;
      e.backends = algorithm_names(kind);
      return;
    }
    try {
      specs = split_spec_list(v.as_string().str);
    } catch (const Error& err) {
      fail_at(v, err.what());
    }
  } else if (v.is_array()) {
    for (const toml::value& s : v.as_array()) {
      if (!s.is_string()) fail_at(s, "backends must be spec strings");
      specs.push_back(s.as_string().str);
    }
  } else {
    fail_at(v, "'backends' must be \"all\" or an array of spec strings");
  }
  if (specs.empty()) fail_at(v, "'backends' is empty");
  for (const std::string& spec : specs) {
    try {
      const Spec parsed = Spec::parse(spec);
      const AlgorithmInfo* info = find_algorithm(parsed.name);
      if (info == nullptr) throw Error("unknown backend '" + parsed.name + "' (see a2a list)");
      if (!info->supports(kind) && !any_kind) {
        throw Error("backend '" + parsed.name + "' does not support the " + to_string(kind) +
                    " kind this experiment needs");
      }
      for (const auto& param : parsed.params) {
        const std::string& key = param.first;  // a lambda captures it: no binding (Clang < 16)
        const bool known = std::any_of(info->params.begin(), info->params.end(),
                                       [&](const ParamInfo& p) { return p.name == key; });
        if (!known) throw Error("backend '" + parsed.name + "' has no parameter '" + key + "'");
      }
    } catch (const Error& err) {
      fail_at(v, err.what());
    }
  }
  e.backends = specs;
}

std::vector<std::size_t> read_sizes(const toml::value& table) {
  const toml::value& v = table.at("sizes");
  try {
    if (v.is_string()) return parse_sizes(v.as_string().str);
    if (!v.is_array()) fail_at(v, "'sizes' must be \"MIN:MAX\", \"a,b,c\" or an array");
    std::vector<std::size_t> sizes;
    for (const toml::value& s : v.as_array()) {
      if (s.is_integer() && s.as_integer() >= 0) {
        sizes.push_back(static_cast<std::size_t>(s.as_integer()));
      } else if (s.is_string()) {
        const auto one = parse_sizes(s.as_string().str);
        sizes.insert(sizes.end(), one.begin(), one.end());
      } else {
        fail_at(s, "a size is a byte count (integer >= 0, or a string like \"64K\")");
      }
    }
    if (sizes.empty()) fail_at(v, "'sizes' is empty");
    return sizes;
  } catch (const LocatedError&) {
    throw;
  } catch (const Error& err) {  // parse_sizes: point at the value
    fail_at(v, err.what());
  }
}

nlohmann::json to_json(const toml::value& v) {
  if (v.is_string()) return v.as_string().str;
  if (v.is_integer()) return v.as_integer();
  if (v.is_boolean()) return v.as_boolean();
  if (v.is_floating()) return v.as_floating();
  if (v.is_array()) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& x : v.as_array())
      a.push_back(to_json(x));
    return a;
  }
  std::ostringstream os;
  os << v;
  return os.str();
}

// [[bench]]'s own keys: sizes, vector, per_call, backends.
void read_bench(const toml::value& table, Experiment& e) {
  if (!table.contains("sizes")) fail_at(table, "[[bench]] needs 'sizes'");
  e.bench.sizes = read_sizes(table);
  if (table.contains("vector"))
    e.bench.distribution = one_of(table, "vector", distribution_names());
  if (table.contains("per_call")) {
    const toml::value& v = toml::find(table, "per_call");
    if (!v.is_boolean()) fail_at(v, "'per_call' is true or false");
    if (e.bench.distribution.empty()) fail_at(v, "'per_call' needs 'vector' (Alltoallv)");
    e.bench.per_call = v.as_boolean();
  }
  read_backends(e, e.bench.kind());
  e.bench.algorithms.clear();
  if (e.all_backends) {
    e.bench.algorithms = "all";
  } else {
    for (const auto& s : e.backends)
      e.bench.algorithms += (e.bench.algorithms.empty() ? "" : ",") + s;
  }
  e.bench.iters = e.iters;
  e.bench.warmup = e.warmup;
  e.bench.check = e.check;
}

// [[fft]]'s own keys: grid, decomposition, transform, baseline, chunks, in place, layout.
void read_fft(const toml::value& table, Experiment& e) {
  if (!table.contains("grid")) fail_at(table, "[[fft]] needs 'grid' (\"NXxNYxNZ\")");
  e.grid = text_of(table, "grid");
  if (table.contains("decomp")) e.decomp = one_of(table, "decomp", {"slab", "pencil", "auto"});
  if (table.contains("proc_grid")) {
    if (!table.contains("decomp")) e.decomp = "pencil";  // a process grid asks for a pencil
    if (e.decomp != "pencil") fail_at(table.at("proc_grid"), "proc_grid needs decomp = \"pencil\"");
    e.proc_grid = text_of(table, "proc_grid");
  }
  if (table.contains("transform")) e.transform = one_of(table, "transform", {"c2c", "r2c"});
  if (e.transform == "r2c" && e.fft_check == "planewave") {
    fail_at(table.at("check"), "check = \"planewave\" is for transform = \"c2c\"");
  }
  if (table.contains("baseline")) e.baseline = one_of(table, "baseline", {"fftw-mpi"});
  if (table.contains("chunks")) e.chunks = static_cast<int>(integer_of(table, "chunks", 1, 65536));
  if (table.contains("in_place")) {
    const toml::value& v = table.at("in_place");
    if (!v.is_boolean()) fail_at(v, "'in_place' is true or false");
    e.in_place = v.as_boolean();
    if (e.in_place && e.transform != "c2c") {
      fail_at(v,
              "in_place = true is for transform = \"c2c\" (r2c's real input and complex "
              "spectrum are different arrays)");
    }
  }
  if (table.contains("spectrum_layout")) {
    e.spectrum_layout = one_of(table, "spectrum_layout", {"transposed", "natural"});
  }
  read_fftw_planning(table, e);
  read_backends(e, Kind::vector, true);
}

// [[fft1d]]'s own keys: points (relative to P where written so), n1, baseline.
void read_fft1d(const toml::value& table, int procs, Experiment& e) {
  if (!table.contains("points")) fail_at(table, "[[fft1d]] needs 'points'");
  // An integer, or text that may be relative to P: "2^20", "64P^2" (Fig. 13's sizes).
  if (table.at("points").is_integer()) {
    e.points = integer_of(table, "points", 1, std::int64_t{1} << 40);
  } else if (table.at("points").is_string()) {
    try {
      e.points = parse_points(text_of(table, "points"), procs, std::int64_t{1} << 40, "'points'");
    } catch (const Error& error) {
      fail_at(table.at("points"), error.what());
    }
  } else {
    fail_at(table.at("points"), "'points' must be an integer or text such as \"64P^2\"");
  }
  if (table.contains("n1")) {
    e.n1 = integer_of(table, "n1", 1, e.points);
    if (e.points % e.n1 != 0) fail_at(table.at("n1"), "'n1' does not divide 'points'");
  }
  if (table.contains("baseline")) e.baseline = one_of(table, "baseline", {"fftw-mpi"});
  read_fftw_planning(table, e);
  read_backends(e, Kind::vector, true);
}

// [[is]]'s own keys: class, iterations, counts_backend; IS always verifies.
void read_is(const toml::value& table, Experiment& e) {
  const std::string c =
      table.contains("class") ? one_of(table, "class", {"S", "W", "A", "B", "C"}) : "S";
  e.is_class = c[0];
  if (table.contains("iterations")) {
    e.is_iterations = static_cast<int>(integer_of(table, "iterations", 1, 1000));
  }
  if (table.contains("counts_backend")) e.counts_backend = text_of(table, "counts_backend");
  read_backends(e, Kind::vector);
  if (table.contains("check") && !e.check) {
    fail_at(table.at("check"), "IS always verifies (NPB); 'check' cannot be false");
  }
  e.check = true;
}

// [[model]]'s own keys: procs, radix.
void read_model(const toml::value& table, Experiment& e) {
  if (!table.contains("procs")) fail_at(table, "[[model]] needs 'procs'");
  e.model_procs = static_cast<std::uint64_t>(integer_of(table, "procs", 1, 1 << 24));
  // radix = "all" (the default) is one row per r: bounded like a2a model --radix all.
  const bool all = !table.contains("radix") ||
                   (table.at("radix").is_string() && table.at("radix").as_string().str == "all");
  if (all && e.model_procs > (1u << 20)) {
    fail_at(table.contains("radix") ? table.at("radix") : table.at("procs"),
            "radix = \"all\" at procs = " + std::to_string(e.model_procs) +
                " would be more than 2^20 rows: give the radices as an array");
  }
  if (table.contains("radix")) {
    const toml::value& r = table.at("radix");
    if (r.is_string() && r.as_string().str == "all") {
    } else if (r.is_array()) {
      for (const toml::value& x : r.as_array()) {
        if (!x.is_integer() || x.as_integer() < 2 ||
            static_cast<std::uint64_t>(x.as_integer()) >
                std::max<std::uint64_t>(2, e.model_procs)) {
          fail_at(x, "a radix is an integer in [2; max(2, procs)]");
        }
        e.radices.push_back(static_cast<std::uint64_t>(x.as_integer()));
      }
    } else {
      fail_at(r, "'radix' is \"all\" or an array of integers");
    }
  }
  read_backends(e, Kind::uniform);
}

Experiment read_experiment(Type type, const toml::value& table, const toml::value& defaults,
                           int procs, std::size_t index) {
  Experiment e;
  e.type = type;
  e.table = table;
  const auto& allowed = kKeys.at(type);
  for (const auto& [key, value] : table.as_table()) {
    if (!kCommon.count(key) && !allowed.count(key)) {
      std::string list;
      for (const auto& k : kCommon)
        list += " " + k;
      for (const auto& k : allowed)
        list += " " + k;
      fail_at(value,
              "unknown key '" + key + "' in [[" + to_string(type) + "]] (known:" + list + ")");
    }
  }
  auto has = [&](const std::string& key) { return table.contains(key); };
  auto from = [&](const std::string& key) -> const toml::value& {
    return has(key) ? table : defaults;
  };
  e.name = has("name") ? text_of(table, "name")
                       : std::string(to_string(type)) + "-" + std::to_string(index + 1);
  // The name is a group of the results file: '/' would make it a path of groups.
  const bool control = std::any_of(e.name.begin(), e.name.end(), [](char ch) {
    return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f;
  });
  if (e.name.empty() || e.name.find_first_of("/\\") != std::string::npos || e.name == "." ||
      e.name == ".." || control) {
    fail_at(table.at("name"), "'name' = \"" + e.name +
                                  "\" cannot be a results group: no '/', '\\', '.' or '..', "
                                  "no control characters, not empty");
  }
  if (has("iters") || defaults.contains("iters")) {
    e.iters = static_cast<int>(integer_of(from("iters"), "iters", 1, 1000000));
  }
  if (has("warmup") || defaults.contains("warmup")) {
    e.warmup = static_cast<int>(integer_of(from("warmup"), "warmup", 0, 1000000));
  }
  if (has("check") || defaults.contains("check")) {
    const toml::value& c = from("check").at("check");
    if (c.is_boolean()) {
      e.check = c.as_boolean();
    } else if (type == Type::fft && c.is_string()) {
      e.fft_check = one_of(table, "check", {"serial", "roundtrip", "planewave", "none"});
      e.check = e.fft_check != "none";
    } else {
      fail_at(c, type == Type::fft ? "'check' is true, false or serial|roundtrip|planewave|none"
                                   : "'check' is true or false");
    }
  }
  if (type == Type::fft && !e.check) e.fft_check = "none";

  switch (type) {
    case Type::bench:
      read_bench(table, e);
      break;
    case Type::fft:
      read_fft(table, e);
      break;
    case Type::fft1d:
      read_fft1d(table, procs, e);
      break;
    case Type::is:
      read_is(table, e);
      break;
    case Type::model:
      read_model(table, e);
      break;
  }
  // The parameters as JSON (HDF5 attributes): the table as written plus what was defaulted.
  for (const auto& [key, value] : table.as_table())
    e.params[key] = to_json(value);
  e.params["name"] = e.name;
  e.params["type"] = to_string(type);
  e.params["iters"] = e.iters;
  e.params["warmup"] = e.warmup;
  return e;
}

}  // namespace

const char* to_string(Type type) {
  switch (type) {
    case Type::bench:
      return "bench";
    case Type::fft:
      return "fft";
    case Type::fft1d:
      return "fft1d";
    case Type::is:
      return "is";
    case Type::model:
      return "model";
  }
  return "?";
}

void fail_at(const toml::value& where, const std::string& message) {
  throw LocatedError(error_at(where, message));
}

std::string error_at(const toml::value& where, const std::string& message) {
  const auto& loc = where.location();
  std::string text = loc.file_name() + ":" + std::to_string(loc.line()) + ": " + message;
  // toml11's excerpt: the line with the value underlined.
  std::string excerpt = toml::format_error("", where, "here", {}, false);
  if (const auto first = excerpt.find('\n'); first != std::string::npos) {
    excerpt.erase(0, first + 1);  // toml11's empty "[error]" heading
  }
  text += "\n" + excerpt;
  while (!text.empty() && text.back() == '\n')
    text.pop_back();
  return text;
}

Deck parse(const std::string& text, const std::string& file, int procs) {
  Deck deck;
  deck.file = file;
  deck.text = text;
  toml::value root;
  // toml11 recurses once per level: a deck nested 100,000 deep would overflow the stack.
  if (const std::string deep = nesting_problem(text, true, file); !deep.empty()) throw Error(deep);
  try {
    std::istringstream in(text);
    root = toml::parse(in, file);
  } catch (const toml::syntax_error& e) {
    // toml11 names the line itself ("--> FILE" and the numbered line).
    throw Error(file + ": malformed TOML:\n" + e.what());
  }
  const toml::value empty = toml::table{};
  const toml::value* defaults = &empty;
  std::vector<std::pair<std::size_t, Experiment>> found;
  for (const auto& [key, value] : root.as_table()) {
    if (key == "deck") {
      if (!value.is_table()) fail_at(value, "'deck' must be a table ([deck])");
      for (const auto& [k, v] : value.as_table()) {
        if (k != "title" && k != "iters" && k != "warmup" && k != "check") {
          fail_at(v, "unknown key '" + k + "' in [deck] (known: title iters warmup check)");
        }
      }
      defaults = &value;
      continue;
    }
    const auto type = kTypes.find(key);
    if (type == kTypes.end()) {
      fail_at(value, "unknown experiment '" + key +
                         "' (known: [[bench]] [[fft]] [[fft1d]] [[is]] "
                         "[[model]], and [deck])");
    }
    if (!value.is_array()) {
      fail_at(value,
              "'" + key + "' must be an array of tables: write [[" + key + "]], not [" + key + "]");
    }
  }
  if (defaults->contains("title")) deck.title = text_of(*defaults, "title");
  for (const auto& [key, value] : root.as_table()) {
    if (key == "deck") continue;
    const Type type = kTypes.at(key);
    const auto& tables = value.as_array();
    for (std::size_t i = 0; i < tables.size(); ++i) {
      if (!tables[i].is_table()) fail_at(tables[i], "'" + key + "' entries must be tables");
      found.emplace_back(tables[i].location().line(),
                         read_experiment(type, tables[i], *defaults, procs, i));
    }
  }
  // Deck order: as written, whatever the experiment type.
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::set<std::string> names;
  for (auto& [line, e] : found) {
    if (!names.insert(e.name).second) {
      fail_at(e.table.contains("name") ? e.table.at("name") : e.table,
              "two experiments are named '" + e.name + "'");
    }
    deck.experiments.push_back(std::move(e));
  }
  if (deck.experiments.empty()) {
    throw Error(file +
                ": the deck has no experiments ([[bench]], [[fft]], [[fft1d]], [[is]], "
                "[[model]])");
  }
  return deck;
}

}  // namespace a2a::app::deck
