// Fleshing a CFG into an executable compute shader whose oracle is the path
// it takes (Klimis et al., "Taking Back Control in an Intermediate
// Representation for GPU Computing", POPL 2023, §6.1):
//
//  1. choose a path per invocation: a random walk over branch edges, among
//     the targets that can still reach an OpReturn, for up to `walk_bound`
//     steps, then the shortest way to an exit (the exit-ward direction);
//  2. write the directions the path needs (one word per visit of a
//     conditional or switch block) into the directions buffer;
//  3. instrument every block to append its number to the output buffer
//     (capacity checked in the shader: an overlong path lands in one
//     overflow slot) and every conditional to branch on the next direction;
//     once an invocation's directions are used up, each block takes its
//     exit-ward direction, so even a miscompiled loop stays bounded;
//  4. the expected output comes from predict(), a reference walk of the
//     CFG model with the same directions — never from a driver.
//
// Modes: basic (counters in Function variables), phi (counters carried in
// OpPhi), threads (each invocation of one dispatch its own path, indexed by
// its invocation id), phi+threads (both; the paper could not combine them)
// and data (a value computed along the path — per-block arithmetic on the
// block's constant and the directions read — is recorded next to each block
// number and predicted as well).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "flesh/cfg_model.h"
#include "ir/result.h"

namespace sluice::flesh {

enum class Mode : std::uint8_t { Basic, Phi, Threads, PhiThreads, Data };
const char* to_string(Mode m);
std::optional<Mode> mode_from_string(const std::string& s);
inline bool uses_phi(Mode m) { return m == Mode::Phi || m == Mode::PhiThreads; }
inline bool uses_threads(Mode m) { return m == Mode::Threads || m == Mode::PhiThreads; }

struct FleshOptions {
  Mode mode = Mode::Basic;
  std::uint32_t walk_bound = 48;      // random steps before heading for an exit
  std::uint32_t invocations = 16;     // threads modes: invocations of the one dispatch
  std::uint32_t local_size = 8;       // threads modes: workgroup width
};

// A fleshed test: the CFG, its buffers and its shader.
struct Test {
  Cfg cfg;
  Mode mode = Mode::Basic;
  std::uint64_t seed = 0;
  std::uint32_t invocations = 1;
  std::uint32_t local_size = 1;
  std::uint32_t directions_per_invocation = 1;  // D
  std::uint32_t capacity = 1;                    // C: recorded blocks per invocation
  std::vector<std::uint32_t> directions;         // invocations × D
  std::vector<std::uint32_t> block_constants;    // data mode: per block
  std::vector<std::uint32_t> block_ops;          // data mode: per block, 0 add, 1 xor, 2 multiply
  std::vector<std::uint32_t> expected;           // invocations × slots(), predict()'s output
  std::string assembly;                          // SPIR-V assembly text
  std::vector<std::uint32_t> spirv;              // assembled

  std::uint32_t slots() const { return (capacity + 1) * (mode == Mode::Data ? 2u : 1u); }
  std::uint32_t groups() const { return (invocations + local_size - 1) / local_size; }
};

// The blocks one invocation visits and the directions it reads.
struct Path {
  std::vector<BlockIndex> blocks;
  std::vector<std::uint32_t> directions;
};

Path choose_path(const Cfg& cfg, std::uint64_t seed, std::uint32_t walk_bound);

// The reference: the output buffer the test must produce (invocations ×
// slots words), by walking the CFG model with the directions buffer exactly
// as the shader reads it.
std::vector<std::uint32_t> predict(const Test& test);

// Fleshes `cfg`: paths, buffers, expected output, SPIR-V (assembled with
// SPIRV-Tools). An error only when SPIRV-Tools rejects the text (a bug).
Result<Test> flesh(Cfg cfg, std::uint64_t seed, const FleshOptions& options);

// A deliberate bug for measuring the oracle's teeth: swap the targets of
// an on-path conditional branch, or drop an on-path block's store of its
// number. The expected output stays the unmutated test's.
struct Mutation {
  enum class Kind : std::uint8_t { None, SwapTargets, DropStore };
  Kind kind = Kind::None;
  BlockIndex block = kNoBlock;
};
const char* to_string(Mutation::Kind k);

// A mutation of a block on invocation 0's path, chosen from `seed`: a
// swap when the path passes a conditional and the coin says so, else a
// dropped store.
Mutation choose_mutation(const Test& test, std::uint64_t seed);

// The SPIR-V assembly of a test whose buffers are filled (emit_spirv.cpp),
// with the mutation applied.
std::string emit_assembly(const Test& test, const Mutation& mutation = {});

// Test `index` of the campaign started from `seed` (flesh.cpp): its CFG
// from generate_cfg or tree_cfg (blocks between 4 and options' bound, from
// the test's seed) fleshed in `options.mode`; its shapes are added to `coverage`.
// Where generated CFGs come from: the direct SPIR-V generator
// (generate.h) or random IR block trees through Sluice's SPIR-V output
// (tree_source.h).
enum class Source : std::uint8_t { Spirv, Tree };
struct CampaignOptions {
  std::uint32_t max_blocks = 40;
  Source source = Source::Spirv;
  FleshOptions flesh;
  // --import: every test fleshes this CFG (with its own path) instead of
  // a generated one.
  std::optional<Cfg> imported;
};
struct Coverage;
Result<Test> campaign_test(std::uint64_t seed, std::uint64_t index, const CampaignOptions& options, Coverage& coverage);

// The mutated test's SPIR-V.
Result<std::vector<std::uint32_t>> mutant_spirv(const Test& test, const Mutation& mutation);

// The expected path of one invocation as block numbers ("1 2 5 3 ...").
std::string path_text(const Test& test, std::uint32_t invocation);

}  // namespace sluice::flesh
