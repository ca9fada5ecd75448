// Pinning a batch that crashed, lost the device or timed out (`sluice flesh
// --run`). A batch of fleshed tests runs in a child process (flesh_run.cpp);
// when that child dies (a driver segfault or abort), reports a lost device
// or a submission timeout, or is killed for exceeding its time limit, the
// parent cannot tell which test did it. It bisects: the batch's halves run
// in fresh children; each half that fails again is halved in turn, down to
// single tests and then to single variants of one test (delta debugging's
// halving step, Zeller and Hildebrandt, "Simplifying and Isolating
// Failure-Inducing Input", IEEE TSE 28(2), 2002, restricted to contiguous
// halves). Halves that run deliver their tests' verdicts as usual. When
// neither half fails, the whole set runs once more alone: if it fails, the
// failure needs tests of both halves and the set is the smallest found; if
// not, it was not reproduced (a flaky failure, or one caused by a batch
// running beside it on the same GPU).
//
// The bisection is a work list (no native recursion); its cost is about
// 2·log2(batch) children per culprit, plus one per variant at the end.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "flesh/flesh.h"

namespace sluice::tools {

// One child's work: tests [first, first + count) of one mode; `variant`
// restricts it to one variant (an index of kFleshVariants), -1 for all.
struct FleshUnit {
  flesh::Mode mode = flesh::Mode::Basic;
  std::uint64_t first = 0;
  std::uint64_t count = 0;
  int variant = -1;
};

// Why a unit produced no verdicts.
struct UnitFailure {
  std::string reason;    // "the batch's process died (signal 11)", "VK_ERROR_DEVICE_LOST ..."
  bool timeout = false;  // a hang (submission timeout or the child's time limit), not a crash
  bool fatal = false;    // no device could be created: the bisection stops
};

// Runs units, each in a fresh child, and returns per unit its failure or
// nullopt when it ran (the caller has taken its verdicts).
using RunUnits = std::function<std::vector<std::optional<UnitFailure>>(const std::vector<FleshUnit>&)>;

struct Culprit {
  FleshUnit unit;        // count 1 and a variant: that variant of that test alone fails
  UnitFailure failure;   // as the smallest failing run reported it
  bool together = false; // the set fails only as a whole (neither half alone)
};

struct BisectResult {
  std::vector<Culprit> culprits;
  std::vector<FleshUnit> not_reproduced;  // failed in the batch, then not when run again alone
  unsigned runs = 0;                      // children started
  std::string stopped;                    // non-empty: a child found no usable device
};

// Bisects `failed` (which failed with `why`); `variants` says which
// variants the run has (single variants are tried only among those).
BisectResult bisect_failure(const FleshUnit& failed, const UnitFailure& why, const std::array<bool, 4>& variants,
                            const RunUnits& run);

// A deliberate failure for testing the above (the hidden option
// --inject-failure KIND:MODE:I[+J][:VARIANT]): the child running a unit
// that holds test I (and J) of MODE (and, given VARIANT, that variant of
// it) aborts (KIND abort), dies of SIGSEGV (segv) or reports a lost device
// (lost). A failure needing two tests exercises the "together" case.
// KIND:loop (for --reduce) fails any child that runs a test whose CFG has a
// loop, so the reduction of a crash can be tested.
struct InjectedFailure {
  enum class Kind : std::uint8_t { None, Abort, Segv, Lost };
  Kind kind = Kind::None;
  bool on_loop = false;
  flesh::Mode mode = flesh::Mode::Basic;
  std::vector<std::uint64_t> tests;
  int variant = -1;
};
// Parses the option's text; an error names the bad part.
std::optional<InjectedFailure> parse_injected_failure(const std::string& text, std::string& error);
// True when the unit (with jobs for these (test index, variant) pairs)
// must fail; for Abort and Segv this does not return.
bool injected_failure_fires(const InjectedFailure& inject, const FleshUnit& unit,
                            const std::vector<std::pair<std::uint64_t, std::size_t>>& jobs);
// The same for KIND:loop and the tests a --reduce child runs.
bool injected_failure_fires(const InjectedFailure& inject, const std::vector<flesh::Test>& tests);

}  // namespace sluice::tools
