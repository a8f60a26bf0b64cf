// Run decks (app/run/deck): every shipped deck parses; malformed decks, unknown keys, wrong
// types and impossible values are rejected with an error that names the file and the line.
// Needs no MPI launch: parsing is local (every rank of `a2a run` parses the same text).
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "a2a/error.hpp"
#include "core/points.hpp"
#include "run/deck.hpp"
#include "serial_checks.hpp"

namespace {

using a2a::app::deck::Type;

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream all;
  all << in.rdbuf();
  return all.str();
}

// The error parsing `text` gives, or "" when it parses.
std::string error_of(const std::string& text) {
  try {
    a2a::app::deck::parse(text, "deck.toml");
  } catch (const a2a::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  a2a::test::SerialChecks check("deck");
  const std::filesystem::path source = argc > 1 ? argv[1] : ".";

  // Every deck we ship parses.
  int decks = 0;
  for (const auto& dir : {source / "inputs", source / "inputs" / "simulation"}) {
    if (!std::filesystem::exists(dir)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() != ".toml") continue;
      ++decks;
      std::string error;
      try {
        const auto d = a2a::app::deck::parse(read(entry.path()), entry.path().string());
        check(!d.experiments.empty(), entry.path().string() + " has experiments");
      } catch (const a2a::Error& e) {
        error = e.what();
      }
      check(error.empty(), entry.path().string() + " parses: " + error);
    }
  }
  check(decks >= 2, "found the shipped decks under " + source.string());

  // A good deck: values, defaults, deck order across types, backends.
  const std::string good = R"([deck]
title = "t"
iters = 7
warmup = 1

[[is]]
class = "W"
backends = ["mpi", "sloav"]

[[bench]]
name = "b"
backends = "mpi, tra_v:r=3"
sizes = [8, "1K", "2:8"]
vector = "random"
check = false

[[bench]]
backends = "all"
sizes = "16:64"
iters = 3

[[fft]]
grid = "8x9x10"
decomp = "slab"
transform = "r2c"
check = "roundtrip"
backends = "all"
fftw_plan = "measure"
wisdom = "w.wisdom"

[[model]]
procs = 64
radix = [2, 8]
)";
  try {
    const auto d = a2a::app::deck::parse(good, "good.toml");
    check(d.title == "t", "title");
    check(d.experiments.size() == 5, "five experiments");
    const auto& e = d.experiments;
    check(e[0].type == Type::is && e[0].is_class == 'W' && e[0].iters == 7 && e[0].warmup == 1,
          "is first (deck order), defaults from [deck]");
    check(e[1].type == Type::bench && e[1].name == "b" && !e[1].check, "bench named b, no check");
    check((e[1].bench.sizes == std::vector<std::size_t>{8, 1024, 2, 4, 8}), "sizes mixed forms");
    check(e[1].bench.distribution == "random" && e[1].bench.kind() == a2a::Kind::vector,
          "vector distribution");
    check((e[1].backends == std::vector<std::string>{"mpi", "tra_v:r=3"}), "comma-separated specs");
    check(e[2].all_backends && e[2].bench.algorithms == "all" && e[2].iters == 3 &&
              e[2].name == "bench-2",
          "second bench: all, own iters, default name");
    check(e[3].type == Type::fft && e[3].decomp == "slab" && e[3].transform == "r2c" &&
              e[3].fft_check == "roundtrip" && e[3].all_backends && !e[3].in_place &&
              e[3].fftw_plan == "measure" && e[3].wisdom == "w.wisdom",
          "fft keys");
    check(e[4].type == Type::model && e[4].model_procs == 64 &&
              (e[4].radices == std::vector<std::uint64_t>{2, 8}),
          "model");
    check(e[1].params.value("vector", "") == "random" && e[1].params.value("iters", 0) == 7,
          "params carry keys and defaults");
  } catch (const a2a::Error& err) {
    check(false, std::string("good deck parses: ") + err.what());
  }

  // Bad decks: (text, the line the error must name, words it must contain).
  struct Bad {
    std::string text;
    int line;
    std::string words;
  };
  const std::vector<Bad> bad = {
      {"[[bench]]\nbackends = \"all\"\nsizes = \"8:64\"\nsize = 3\n", 4, "unknown key 'size'"},
      {"[[bench]]\nbackends = [\"mpi\", \"nosuch\"]\nsizes = \"8\"\n", 2,
       "unknown backend 'nosuch'"},
      {"[[bench]]\nbackends = \"tra:radix=2\"\nsizes = \"8\"\n", 2, "no parameter 'radix'"},
      {"[[bench]]\nbackends = \"sloav\"\nsizes = \"8\"\n", 2, "does not support the uniform"},
      {"[[bench]]\nbackends = \"all\"\nsizes = \"8:lots\"\n", 3, "not a byte count"},
      {"[[bench]]\nbackends = \"all\"\nsizes = \"8\"\niters = 0\n", 4, "out of range"},
      {"[[bench]]\nbackends = \"all\"\nsizes = \"8\"\nvector = \"nosuch\"\n", 4, "not one of"},
      {"[[bench]]\nbackends = \"all\"\nsizes = \"8\"\ncheck = \"yes\"\n", 4, "true or false"},
      {"\n[[bench]]\nbackends = \"all\"\n", 2, "needs 'sizes'"},
      {"[[model]]\nprocs = 4\nname = \"a/b\"\n", 3, "cannot be a results group"},
      {"[[model]]\nprocs = 2000000\n", 2, "more than 2^20 rows"},
      {"[[bench]]\nbackends = \"all\"\nsizes = \"17179869184G\"\n", 3, "too large"},
      {"[[fft]]\ngrid = \"8x8x8\"\nbackends = \"all\"\ndecomp = \"cube\"\n", 4, "not one of"},
      {"[[fft]]\ngrid = \"8x8x8\"\nbackends = \"all\"\ndecomp = \"slab\"\nproc_grid = \"2x2\"\n", 5,
       "needs decomp"},
      {"[[fft]]\ngrid = \"8x8x8\"\nbackends = \"all\"\ntransform = \"r2c\"\ncheck = "
       "\"planewave\"\n",
       5, "planewave"},
      {"[[fft]]\ngrid = \"8x8x8\"\nbackends = \"all\"\ntransform = \"r2c\"\nin_place = true\n", 5,
       "in_place = true is for transform = \"c2c\""},
      {"[[fft]]\ngrid = \"8x8x8\"\nbackends = \"all\"\nin_place = 1\n", 4, "true or false"},
      {"[[fft]]\ngrid = \"8x8x8\"\nbackends = \"all\"\nfftw_plan = \"exhaustive\"\n", 4,
       "not one of estimate, measure, patient, wisdom-only"},
      {"[[fft]]\ngrid = \"8x8x8\"\nbackends = \"all\"\nfftw_plan = \"wisdom-only\"\n", 4,
       "needs 'wisdom'"},
      {"[[fft1d]]\npoints = 64\nbackends = \"all\"\nwisdom = \"\"\n", 4, "'wisdom' is a file name"},
      {"[[fft1d]]\npoints = 64\nbackends = \"all\"\nin_place = true\n", 4,
       "unknown key 'in_place'"},
      {"[[fft1d]]\npoints = 100\nn1 = 7\nbackends = \"all\"\n", 3, "does not divide"},
      {"[[fft1d]]\nbackends = \"all\"\npoints = \"64Q^2\"\n", 3, "expected N, B^E, P^E"},
      {"[[fft1d]]\nbackends = \"all\"\npoints = \"2^200\"\n", 3, "too large"},
      {"[[fft1d]]\nbackends = \"all\"\npoints = \"2^41\"\n", 3, "outside [1, 1099511627776]"},
      {"[[fft1d]]\nbackends = \"all\"\npoints = 1.5\n", 3, "integer or text"},
      {"[[is]]\nclass = \"X\"\nbackends = \"all\"\n", 2, "not one of"},
      {"[[is]]\nbackends = \"all\"\ncheck = false\n", 3, "always verifies"},
      {"[[model]]\nprocs = 16\nradix = [2, 1]\n", 3, "a radix is an integer"},
      {"[bench]\nbackends = \"all\"\n", 1, "array of tables"},
      {"[[sort]]\nbackends = \"all\"\n", 1, "unknown experiment 'sort'"},
      {"[deck]\nrepeat = 3\n[[model]]\nprocs = 4\n", 2, "unknown key 'repeat' in [deck]"},
      {"[[model]]\nprocs = 4\nname = \"m\"\n[[model]]\nprocs = 8\nname = \"m\"\n", 6,
       "two experiments are named 'm'"},
  };
  for (const Bad& b : bad) {
    const std::string error = error_of(b.text);
    const std::string where = "deck.toml:" + std::to_string(b.line) + ":";
    check(error.find(where) != std::string::npos && error.find(b.words) != std::string::npos,
          "expected '" + where + " ... " + b.words + "', got: " + error);
  }
  // Sizes relative to P (configurable-alltoall Fig. 13: N = P^2 and 64 P^2), against their
  // closed forms for several P.
  for (int procs : {1, 2, 3, 4, 7, 64}) {
    const auto P = static_cast<std::int64_t>(procs);
    try {
      const auto d = a2a::app::deck::parse(
          "[[fft1d]]\npoints = \"64P^2\"\nbackends = [\"mpi\"]\n[[fft1d]]\npoints = \"P^2\"\n"
          "backends = [\"mpi\"]\n[[fft1d]]\npoints = \"2^20\"\nbackends = [\"mpi\"]\n",
          "rel.toml", procs);
      check(d.experiments[0].points == 64 * P * P && d.experiments[1].points == P * P &&
                d.experiments[2].points == (1 << 20),
            "points relative to P = " + std::to_string(procs));
    } catch (const a2a::Error& err) {
      check(false, std::string("relative points parse: ") + err.what());
    }
  }
  for (const auto& [text, want] :
       std::vector<std::pair<std::string, std::int64_t>>{{"1048576", 1048576},
                                                         {" 2^10 ", 1024},
                                                         {"P", 5},
                                                         {"16P", 80},
                                                         {"3*P^3", 375},
                                                         {"64 P^2", 1600},
                                                         {"p^2", 25}}) {
    std::int64_t got = -1;
    try {
      got = a2a::app::parse_points(text, 5, std::int64_t{1} << 40, "points");
    } catch (const a2a::Error&) {
    }
    check(got == want, "parse_points('" + text + "', P = 5) = " + std::to_string(want) + ", got " +
                           std::to_string(got));
  }
  for (const std::string text :
       {"", "P^", "^2", "2^", "P2", "-4", "4P^-2", "*P", "9223372036854775807P^2"}) {
    bool refused = false;
    try {
      a2a::app::parse_points(text, 5, std::int64_t{1} << 40, "points");
    } catch (const a2a::Error&) {
      refused = true;
    }
    check(refused, "parse_points refuses '" + text + "'");
  }
  // Malformed TOML: toml11 names the line ("--> deck.toml" and " 3 | ...").
  const std::string syntax = error_of("[[bench]]\nbackends = \"all\"\nsizes = [8, 16\n");
  check(syntax.find("malformed TOML") != std::string::npos &&
            syntax.find("deck.toml") != std::string::npos &&
            syntax.find(" 3 |") != std::string::npos,
        "syntax error names the line: " + syntax);
  check(error_of("# nothing\n").find("no experiments") != std::string::npos, "empty deck");
  return check.finish();
}
