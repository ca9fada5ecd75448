// The passes. Each takes a module and returns whether it changed anything,
// or an error value; none aborts or throws on any input. Each leaves the IR
// valid when given valid IR (tests run the validator after every pass), and
// each is linear in the size of the module, or n log n (tests at 10^5 and
// 10^6 instructions, timed in bench/transform_bench.cpp). docs/ir.md,
// "Transformations", describes them; every pass file opens with its
// algorithm.
#pragma once

#include <cstddef>

#include "ir/module.h"
#include "ir/result.h"

namespace sluice::transform {

using PassResult = Result<bool>;

// Removes every Alias, pointing its uses at what it aliases. Outputs need it.
PassResult dealias(ir::Module& m);

// Evaluates unary, binary, built-in, constructor and extract instructions
// whose operands are constants (fold_constants.cpp says exactly how).
PassResult fold_constants(ir::Module& m);

// If on a constant, Loop on a constant false, DoLoop that runs its body
// once, and NextBlock chains stitched into one block.
PassResult simplify_control_flow(ir::Module& m);

// Merge blocks nothing reaches become `Unreachable`; what followed is dropped.
PassResult eliminate_unreachable_code(ir::Module& m);
// Registers without side effects and without uses; merge inputs nobody reads.
PassResult eliminate_dead_registers(ir::Module& m);
// Function and Private variables nobody reads (their stores go too).
PassResult remove_unused_variables(ir::Module& m);
// Uniform, storage, push-constant, sampler/image, shared and input globals
// that no instruction uses, where Vulkan lets a shader leave them out
// (outputs, Private variables and inputs that turn on sample shading stay).
PassResult remove_unused_interface(ir::Module& m);
// Functions the entry point never calls.
PassResult remove_unused_functions(ir::Module& m);
// The four above, in an order where each feeds the next.
PassResult eliminate_dead_code(ir::Module& m);

// Stores (and increments) into Function locals and Private globals that no
// live instruction reads, with everything only they used.
PassResult eliminate_dead_stores(ir::Module& m);
// Loads of Private globals and locals without initializer that nothing
// writes (their value is undefined) become zero constants.
PassResult replace_uninitialized_loads(ir::Module& m);
// Function/Private variables whose every write stores one constant get it
// as their initializer; the stores go, a local's declaration moves to the
// entry block.
PassResult initialize_constant_variables(ir::Module& m);
// Increments of Function/Private scalars and vectors become Load, Add or
// Sub, Store.
PassResult lower_increments(ir::Module& m);
// Loads of whole Function/Private variables whose value a dominating
// Store, Load or initializer gives, with no write in between.
PassResult forward_stores(ir::Module& m);
// Stores into Function, Private or Output memory that a later Store in the
// same block through the same pointer overwrites before anything may read it.
PassResult eliminate_overwritten_stores(ir::Module& m);
// Loops whose only effects are writes to Function/Private variables that
// nothing outside them reads (assumed to terminate, as spirv-opt does).
PassResult eliminate_dead_loops(ir::Module& m);
// Function/Private structs and arrays accessed only through constant
// indices (and whole Loads and Stores) become one variable per element.
PassResult scalar_replace_aggregates(ir::Module& m);
// If whose branches compute a few values, store them into locals and
// merge: straight-line code and a Select per value.
PassResult convert_ifs(ir::Module& m);
// A loop's continue block that only the end of its body reaches moves into
// that end.
PassResult merge_continue_blocks(ir::Module& m);
// Private globals only the entry point's function uses become its locals.
PassResult private_to_local(ir::Module& m);

// Driver workaround (docs/workarounds.md): a Loop whose body starts by
// testing for its exit gets that test as its condition.
PassResult loop_exit_in_header(ir::Module& m);
// Driver workaround (docs/workarounds.md): every Loop left only by Break,
// and every DoLoop, gets an exit test at the top of its body that fires
// after 2^64 iterations.
PassResult loop_top_exit_test(ir::Module& m);
// Driver workaround (docs/workarounds.md): a value loaded from uniform
// memory outside a loop and used inside it is loaded again in the loop.
PassResult reload_uniforms_in_loops(ir::Module& m);

// Pure instructions computed twice where the first dominates the second.
PassResult eliminate_common_subexpressions(ir::Module& m);

struct InlineOptions {
  // Budgets, checked at each call site before its copy is made, so that
  // inlining can never turn a small module into a huge one (it can
  // otherwise grow a module exponentially: f_k calling f_{k-1} twice).
  // A call stays a call when any of them would be exceeded:
  // - the caller would grow past this many instructions;
  std::size_t max_function_instructions = 200000;
  // - the module would grow past max(before * max_module_growth,
  //   before + module_growth_slack) instructions, `before` being its size
  //   when the pass starts;
  std::size_t max_module_growth = 4;
  std::size_t module_growth_slack = 50000;
  // - or past this many instructions in all (unless it was larger already).
  std::size_t max_module_instructions = 1000000;
};
// Replaces calls by the callee's body, copying arguments in and out as
// in/out/inout require.
PassResult inline_functions(ir::Module& m, const InlineOptions& options = {});

}  // namespace sluice::transform
