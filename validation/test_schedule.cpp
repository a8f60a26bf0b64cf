// The randomized schedule as pure functions, without MPI: the generator against its published
// reference stream, the shuffle, and the anti-circulant matrix (randomized-alltoall paper,
// Function 1, Algorithm 2, Figure 1).
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>

#include <vector>
#include "serial_checks.hpp"

#include "a2a/randomized.hpp"

int main() {
  using namespace a2a;
  test::SerialChecks expect("test_schedule");

  // SplitMix64 from seed 1234567: the reference sequence published with the algorithm
  // (Rosetta Code "Pseudo-random numbers/Splitmix64", after Steele, Lea, Flood 2014).
  SplitMix64 g(1234567);
  const std::uint64_t reference[] = {6457827717110365317ULL, 3203168211198807973ULL,
                                     9817491932198370423ULL, 4593380528125082431ULL,
                                     16408922859458223821ULL};
  for (std::uint64_t r : reference)
    expect(g.next() == r, "SplitMix64 reference stream");

  // Figure 1 of the paper: ranks {1, 3, 2, 0}; row p is the first row shifted left by p.
  const randomized::AntiCirculant fig1({1, 3, 2, 0});
  const int figure[4][4] = {{1, 3, 2, 0}, {3, 2, 0, 1}, {2, 0, 1, 3}, {0, 1, 3, 2}};
  for (int p = 0; p < 4; ++p) {
    for (int i = 0; i < 4; ++i) {
      expect(fig1.send_to(p, i) == figure[p][i], "Figure 1 matrix entry");
    }
  }

  std::vector<int> sizes;
  for (int p = 1; p <= 64; ++p)
    sizes.push_back(p);
  for (int p : {67, 97, 101, 127, 251, 509})
    sizes.push_back(p);
  for (int P : sizes) {
    for (std::uint64_t seed : {0ULL, 1ULL, 42ULL, static_cast<unsigned long long>(P)}) {
      for (bool shuffle : {true, false}) {
        const std::string at = "P=" + std::to_string(P) + " seed=" + std::to_string(seed) +
                               (shuffle ? "" : " shuffle=off");
        std::vector<int> ranks = randomized::shuffled_ranks(P, seed, shuffle);
        expect(ranks == randomized::shuffled_ranks(P, seed, shuffle), at + ": deterministic");
        std::vector<int> sorted = ranks;
        std::sort(sorted.begin(), sorted.end());
        std::vector<int> identity(static_cast<std::size_t>(P));
        std::iota(identity.begin(), identity.end(), 0);
        expect(sorted == identity, at + ": the shuffle is a permutation");
        if (!shuffle) expect(ranks == identity, at + ": shuffle=off is the identity");

        const randomized::AntiCirculant s(ranks);
        std::vector<std::vector<int>> met(static_cast<std::size_t>(P),
                                          std::vector<int>(static_cast<std::size_t>(P), 0));
        bool permutations = true, agree = true;
        for (int i = 0; i < P; ++i) {
          std::vector<int> targets(static_cast<std::size_t>(P)), sources = targets;
          for (int p = 0; p < P; ++p) {
            const int dst = s.send_to(p, i);
            targets[static_cast<std::size_t>(p)] = dst;
            sources[static_cast<std::size_t>(p)] = s.recv_from(p, i);
            ++met[static_cast<std::size_t>(p)][static_cast<std::size_t>(dst)];
            // The receiver expects exactly this sender at this iteration.
            agree &= s.recv_from(dst, i) == p;
            if (!shuffle) agree &= dst == (i + p) % P;
          }
          std::sort(targets.begin(), targets.end());
          std::sort(sources.begin(), sources.end());
          permutations &= targets == identity && sources == identity;
        }
        expect(permutations, at + ": every iteration is a permutation (sends and receives)");
        expect(agree, at + ": sender and receiver agree");
        bool once = true;
        for (const auto& row : met)
          once &= std::all_of(row.begin(), row.end(), [](int n) { return n == 1; });
        expect(once, at + ": every ordered pair meets exactly once in P iterations");
      }
    }
  }

  // The shuffle is unbiased: over 4000 seeds each rank lands in position 0 about 1000 times
  // (binomial sd ~27; the bound is ~7 sd).
  std::vector<int> first(4, 0);
  for (std::uint64_t seed = 0; seed < 4000; ++seed)
    ++first[static_cast<std::size_t>(randomized::shuffled_ranks(4, seed)[0])];
  for (int n : first)
    expect(n > 800 && n < 1200, "shuffle position 0 is uniform: " + std::to_string(n));

  return expect.finish();
}
