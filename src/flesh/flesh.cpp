#include "flesh/flesh.h"

#include <algorithm>

#include <fmt/format.h>

#include "exec/vertex_shader.h"
#include "flesh/generate.h"
#include "flesh/rng.h"
#include "flesh/tree_source.h"

namespace sluice::flesh {

const char* to_string(Mode m) {
  switch (m) {
    case Mode::Basic: return "basic";
    case Mode::Phi: return "phi";
    case Mode::Threads: return "threads";
    case Mode::PhiThreads: return "phi+threads";
    case Mode::Data: return "data";
  }
  return "?";
}

std::optional<Mode> mode_from_string(const std::string& s) {
  for (Mode m : {Mode::Basic, Mode::Phi, Mode::Threads, Mode::PhiThreads, Mode::Data})
    if (s == to_string(m)) return m;
  return std::nullopt;
}

Path choose_path(const Cfg& cfg, std::uint64_t seed, std::uint32_t walk_bound) {
  Rng rng(seed);
  const auto distance = exit_distances(cfg);
  Path p;
  BlockIndex b = 0;
  // Every step either is random (at most walk_bound of them) or strictly
  // decreases the exit distance, so the walk ends.
  for (std::uint32_t step = 0;; ++step) {
    p.blocks.push_back(b);
    const Block& k = cfg.blocks[b];
    if (k.terminator == Terminator::Return || k.terminator == Terminator::Unreachable) break;
    if (k.terminator == Terminator::Branch) {
      b = k.targets[0];
      continue;
    }
    std::uint32_t direction;
    if (step < walk_bound) {
      std::vector<std::size_t> live;
      for (std::size_t i = 0; i < k.targets.size(); ++i)
        if (distance[k.targets[i]] != kUnreachableDistance) live.push_back(i);
      direction = direction_for(k, live[rng.below(static_cast<std::uint32_t>(live.size()))]);
    } else {
      direction = exitward_direction(k, distance);
    }
    p.directions.push_back(direction);
    b = target_for(k, direction);
  }
  return p;
}

namespace {

constexpr std::uint32_t kDataStart = 0x811c9dc5u;   // FNV-1a's offset basis: any odd constant
constexpr std::uint32_t kDirectionFactor = 0x9e3779b1u;

std::uint32_t apply_op(std::uint32_t op, std::uint32_t acc, std::uint32_t c) {
  switch (op) {
    case 0: return acc + c;
    case 1: return acc ^ c;
    default: return acc * (c | 1u);
  }
}

}  // namespace

std::vector<std::uint32_t> predict(const Test& t) {
  const std::uint32_t slots = t.slots(), D = t.directions_per_invocation, C = t.capacity;
  std::vector<std::uint32_t> out(std::size_t(t.invocations) * slots, 0);
  const auto distance = exit_distances(t.cfg);
  // After D directions every conditional goes exit-ward, so a walk makes at
  // most D random choices and then at most one step per block.
  const std::uint64_t step_limit = (std::uint64_t(D) + 1) * (t.cfg.size() + 1);
  for (std::uint32_t inv = 0; inv < t.invocations; ++inv) {
    std::uint32_t* o = out.data() + std::size_t(inv) * slots;
    const std::uint32_t* dirs = t.directions.data() + std::size_t(inv) * D;
    std::uint32_t di = 0, oi = 0, acc = kDataStart;
    BlockIndex b = 0;
    for (std::uint64_t step = 0; step < step_limit && b != kNoBlock; ++step) {
      const Block& k = t.cfg.blocks[b];
      if (k.terminator == Terminator::Unreachable) break;  // undefined behaviour: never on a path
      std::uint32_t direction = 0;
      const bool branches = k.terminator == Terminator::Conditional || k.terminator == Terminator::Switch;
      if (branches) {
        direction = di < D ? dirs[di] : exitward_direction(k, distance);
        ++di;
      }
      if (t.mode == Mode::Data) {
        acc = apply_op(t.block_ops[b], acc, t.block_constants[b]);
        if (branches) acc += direction * kDirectionFactor;
      }
      const std::uint32_t slot = std::min(oi, C);
      o[slot] = b + 1;
      if (t.mode == Mode::Data) o[C + 1 + slot] = acc;
      ++oi;
      if (k.terminator == Terminator::Return) break;
      b = branches ? target_for(k, direction) : k.targets[0];
    }
  }
  return out;
}

Result<Test> flesh(Cfg cfg, std::uint64_t seed, const FleshOptions& options) {
  Test t;
  t.cfg = std::move(cfg);
  t.mode = options.mode;
  t.seed = seed;
  t.invocations = uses_threads(options.mode) ? std::max(1u, options.invocations) : 1;
  t.local_size = uses_threads(options.mode) ? std::max(1u, std::min(options.local_size, t.invocations)) : 1;
  Rng rng(seed);
  std::vector<Path> paths;
  for (std::uint32_t i = 0; i < t.invocations; ++i) paths.push_back(choose_path(t.cfg, rng.next(), options.walk_bound));
  t.directions_per_invocation = 1;
  t.capacity = 1;
  for (const Path& p : paths) {
    t.directions_per_invocation = std::max(t.directions_per_invocation, static_cast<std::uint32_t>(p.directions.size()));
    t.capacity = std::max(t.capacity, static_cast<std::uint32_t>(p.blocks.size()));
  }
  t.directions.assign(std::size_t(t.invocations) * t.directions_per_invocation, 0);
  for (std::uint32_t i = 0; i < t.invocations; ++i)
    std::copy(paths[i].directions.begin(), paths[i].directions.end(),
              t.directions.begin() + std::ptrdiff_t(i) * t.directions_per_invocation);
  if (t.mode == Mode::Data)
    for (BlockIndex b = 0; b < t.cfg.size(); ++b) {
      t.block_ops.push_back(rng.below(3));
      t.block_constants.push_back(static_cast<std::uint32_t>(rng.next()));
    }
  t.expected = predict(t);
  t.assembly = emit_assembly(t);
  auto words = exec::assemble_spirv(t.assembly, 0x00010000);
  if (!words) return internal_error("the fleshed SPIR-V does not assemble: " + words.error());
  t.spirv = std::move(*words);
  return t;
}

const char* to_string(Mutation::Kind k) {
  switch (k) {
    case Mutation::Kind::None: return "none";
    case Mutation::Kind::SwapTargets: return "swap-targets";
    case Mutation::Kind::DropStore: return "drop-store";
  }
  return "?";
}

Mutation choose_mutation(const Test& t, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<BlockIndex> on_path, conditionals;
  for (std::uint32_t i = 0; i < t.capacity && t.expected[i] != 0; ++i) {
    const BlockIndex b = t.expected[i] - 1;
    on_path.push_back(b);
    if (t.cfg.blocks[b].terminator == Terminator::Conditional) conditionals.push_back(b);
  }
  Mutation m;
  if (!conditionals.empty() && rng.chance(50)) {
    m.kind = Mutation::Kind::SwapTargets;
    m.block = conditionals[rng.below(static_cast<std::uint32_t>(conditionals.size()))];
  } else {
    m.kind = Mutation::Kind::DropStore;
    m.block = on_path[rng.below(static_cast<std::uint32_t>(on_path.size()))];
  }
  return m;
}

Result<Test> campaign_test(std::uint64_t seed, std::uint64_t index, const CampaignOptions& options, Coverage& coverage) {
  const std::uint64_t s = test_seed(seed, index);
  Rng rng(s);
  GenerateOptions g;
  g.blocks = 4 + rng.below(std::max(1u, options.max_blocks > 4 ? options.max_blocks - 3 : 1u));
  // Drawn in this order explicitly (function arguments have none in C++).
  const std::uint64_t flesh_seed = rng.next();
  const std::uint64_t cfg_seed = rng.next();
  if (options.imported) return flesh(*options.imported, flesh_seed, options.flesh);
  if (options.source == Source::Tree) {
    auto cfg = tree_cfg(cfg_seed, g, coverage);
    if (!cfg) return cfg.failure();
    return flesh(std::move(*cfg), flesh_seed, options.flesh);
  }
  return flesh(generate_cfg(cfg_seed, g, coverage), flesh_seed, options.flesh);
}

Result<std::vector<std::uint32_t>> mutant_spirv(const Test& test, const Mutation& mutation) {
  auto words = exec::assemble_spirv(emit_assembly(test, mutation), 0x00010000);
  if (!words) return internal_error("the mutated SPIR-V does not assemble: " + words.error());
  return words;
}

std::string path_text(const Test& t, std::uint32_t invocation) {
  std::string s;
  const std::uint32_t* o = t.expected.data() + std::size_t(invocation) * t.slots();
  for (std::uint32_t i = 0; i < t.capacity && o[i] != 0; ++i) s += fmt::format("{}{}", i ? " " : "", o[i]);
  return s;
}

}  // namespace sluice::flesh
