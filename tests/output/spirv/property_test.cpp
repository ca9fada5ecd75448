// Property tests on random IR trees (random_ir.h), 10,000 per run by
// default (SLUICE_RANDOM_TREES overrides): each tree is valid IR; its
// SPIR-V, for a target and promotion setting chosen by the seed, passes
// spirv-val; and running the SPIR-V computes what running the IR computes
// (output and whether it discarded), which checks control flow and SSA
// construction together — a wrong phi or a wrong branch changes the
// traced hash. Trees have ~300 blocks; see docs/testing.md for timings.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>

#include <catch2/catch.hpp>

#include "ir/dump.h"
#include "ir_interpreter.h"
#include "random_ir.h"
#include "spirv_interpreter.h"
#include "spirv_test_util.h"
#include "validator/validator.h"

using namespace sluice;

namespace {

std::uint32_t tree_count() {
  if (const char* n = std::getenv("SLUICE_RANDOM_TREES")) return static_cast<std::uint32_t>(std::strtoul(n, nullptr, 10));
  return 10000;
}

struct Stats {
  std::uint64_t blocks = 0, instructions = 0, words = 0, compared = 0, killed = 0;
};

// Everything about one seed; returns a message describing the first failure, or "".
std::string check_seed(std::uint64_t seed, Stats& stats) {
  const ir::Module m = testing::random_ir(seed);
  if (const auto problems = validator::validate(m); !problems.empty())
    return "the generator made invalid IR: " + validator::describe(m, problems);
  for (std::uint32_t f = 0; f < m.function_count(); ++f)
    for (const ir::Block& b : m.function(ir::FunctionId(f)).blocks) {
      ++stats.blocks;
      stats.instructions += b.instructions.size();
    }
  spirv::Options options;
  const auto targets = testing::all_targets();
  options.target = targets[seed % targets.size()];
  options.promote_to_ssa = seed % 4 != 3;
  auto words = spirv::emit(m, options);
  if (!words) return "emit failed: " + words.error() + "\n" + ir::dump(m);
  stats.words += words->size();
  if (const auto problems = spirv::validate(*words, options.target); !problems.empty()) {
    auto text = spirv::disassemble(*words, options.target);
    return "spirv-val (" + std::string(spirv::to_string(options.target)) + "): " + problems.front() + "\n" +
           (text ? *text : text.error()) + "\n" + ir::dump(m);
  }
  const std::map<std::string, testing::Words> inputs = {
      {"x", {static_cast<std::uint32_t>(seed * 7 % 23) - 5u}}, {"y", {static_cast<std::uint32_t>(seed % 11)}}};
  const testing::IrRun expected = testing::run_ir(m, inputs);
  if (!expected.ok) return "the IR interpreter failed: " + expected.error;
  const testing::SpirvRun actual = testing::run_spirv(*words, inputs);
  if (!actual.ok) return "the SPIR-V interpreter failed: " + actual.error;
  ++stats.compared;
  stats.killed += expected.killed;
  if (expected.killed != actual.killed) return "discard differs";
  if (!expected.killed && expected.outputs.at("o") != actual.outputs.at("o")) {
    auto text = spirv::disassemble(*words, options.target);
    return "o differs: IR " + std::to_string(expected.outputs.at("o")[0]) + ", SPIR-V " +
           std::to_string(actual.outputs.at("o")[0]) + "\n" + (text ? *text : "") + "\n" + ir::dump(m);
  }
  return "";
}

}  // namespace

TEST_CASE("random IR trees: valid SPIR-V that computes what the IR computes") {
  const std::uint32_t count = tree_count();
  // Seeds are spread over threads: emission shares no state between modules.
  const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
  std::vector<Stats> stats(threads);
  std::vector<std::vector<std::string>> failures(threads);
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (std::uint64_t seed = t; seed < count && failures[t].size() < 3; seed += threads) {
        std::string problem = check_seed(seed, stats[t]);
        if (!problem.empty()) failures[t].push_back("seed " + std::to_string(seed) + ": " + problem);
      }
    });
  }
  for (std::thread& th : pool) th.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  Stats total;
  for (const Stats& s : stats) {
    total.blocks += s.blocks;
    total.instructions += s.instructions;
    total.words += s.words;
    total.compared += s.compared;
    total.killed += s.killed;
  }
  for (const auto& list : failures)
    for (const std::string& f : list) FAIL_CHECK(f);
  CHECK(total.compared == count);
  const std::uint64_t n = std::max<std::uint64_t>(count, 1);
  WARN(count << " trees on " << threads << " threads in " << seconds << " s: " << total.blocks / n << " blocks and "
             << total.instructions / n << " IR instructions per tree on average, " << total.words / n
             << " SPIR-V words per tree, " << total.killed << " discarded");
}

TEST_CASE("random trees emit the same words every time") {
  for (std::uint64_t seed : {1u, 17u, 123u}) {
    const auto a = spirv::emit(testing::random_ir(seed));
    const auto b = spirv::emit(testing::random_ir(seed));
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(*a == *b);
  }
}
