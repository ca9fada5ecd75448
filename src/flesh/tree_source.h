// The fleshing fuzzer's second source of CFGs (issue 14): random Sluice IR
// block trees put through Sluice's own SPIR-V output, so that what is
// fleshed is the control flow Sluice emits (headers and latches it adds,
// merge stubs, the continue construct it builds for a DoLoop) rather than
// what the direct generator (generate.h) builds by hand.
//
// Algorithm, in four steps over one fragment-shader `main`:
//  1. Build: a work list (LIFO, so a construct's sub-chains are filled
//     before the chain that continues in its merge block; no native
//     recursion) of chains, each ending normally with its chain's
//     terminator (Merge in an If arm, Continue in a loop body or continue
//     chain, LoopIf in a loop condition, Break or Passthrough in a case,
//     Return at the top). A chain opens If (with or without else), Loop,
//     DoLoop (with or without a continue chain), Switch (1–3 cases, the
//     default anywhere or none) or NextBlock while the block budget and
//     the depth bound allow. Conditions and selectors read a flat input,
//     so no constant folds them away.
//  2. Escapes: the normal ends of If arms, loop bodies and cases become,
//     by chance, Break, Continue, Return or Discard where the one scope
//     model (ir/structure.h, compute_block_contexts) says the jump is
//     legal IR; none inside any continue construct (SPIR-V's rules for
//     it, docs/ir.md "Scopes", and the SPIR-V output's refusal of blocks
//     nothing reaches there). Code after an escape becomes unreachable, as
//     in a front end's output: whole merges, continue targets, a DoLoop's
//     condition.
//  3. eliminate-unreachable-code drops the code after escapes (a merge
//     nothing enters becomes Unreachable), as a front end's output would.
//  4. Emit with spirv::emit and read the CFG back with import_cfg (the
//     same reader --import uses): OpKill becomes OpReturn there.
// The coverage counts the constructs of the final tree that can run, and
// loops whose continue target nothing reaches in the SPIR-V CFG.
#pragma once

#include <cstdint>
#include <vector>

#include "flesh/cfg_model.h"
#include "flesh/generate.h"
#include "ir/module.h"
#include "ir/result.h"

namespace sluice::flesh {

// The tree for `seed` (about options.blocks IR blocks); `coverage`
// receives its shapes. An error only when the builder rejects an
// instruction (a bug here).
Result<ir::Module> random_block_tree(std::uint64_t seed, const GenerateOptions& options, Coverage& coverage);

// The tree's SPIR-V (Vulkan 1.0), as Sluice's SPIR-V output writes it.
Result<std::vector<std::uint32_t>> block_tree_spirv(const ir::Module& tree);

// The CFG of the tree's SPIR-V; an error only when the output or the
// reader rejects it (a bug in one of them or here).
Result<Cfg> tree_cfg(std::uint64_t seed, const GenerateOptions& options, Coverage& coverage);

}  // namespace sluice::flesh
