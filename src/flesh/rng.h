// The fleshing fuzzer's random numbers: splitmix64 (Steele, Lea and Flood,
// "Fast splittable pseudorandom number generators", OOPSLA 2014), with its
// own bounded draws. std::uniform_int_distribution is not used on purpose:
// its algorithm is unspecified and differs between standard libraries, and
// `sluice flesh --seed S` must write byte-identical tests everywhere.
#pragma once

#include <cstdint>

namespace sluice::flesh {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) for n > 0 (Lemire's multiply-shift; the bias for
  // n far below 2^32 is negligible and, above all, deterministic).
  std::uint32_t below(std::uint32_t n) {
    return static_cast<std::uint32_t>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
  }
  // True with probability percent / 100.
  bool chance(std::uint32_t percent) { return below(100) < percent; }

 private:
  std::uint64_t state_;
};

// The seed of test `index` of a campaign started from `seed`: each test is
// reproducible on its own (`--seed` of the campaign plus its index).
inline std::uint64_t test_seed(std::uint64_t seed, std::uint64_t index) {
  Rng r(seed ^ (index * 0xd1b54a32d192ed03ull));
  return r.next();
}

}  // namespace sluice::flesh
