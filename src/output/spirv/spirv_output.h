// The SPIR-V output: turns a Sluice IR module into a SPIR-V binary module.
//
// emit() walks each function's block tree into a structured CFG (cfg.h),
// optionally promotes function-local variables to SSA values (ssa.h), and
// writes the binary in one deterministic pass: the same module and options
// always give the same words. Types, constants, capabilities and the
// GLSL.std.450 import are declared on first use, so the module carries only
// what its code needs.
//
// validate(), disassemble() and optimize() wrap SPIRV-Tools in-process; the
// driver's --validate, --emit spvasm and --spirv-opt call them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spirv-tools/libspirv.h>

#include "ir/module.h"
#include "ir/result.h"

namespace sluice::spirv {

enum class TargetEnv : std::uint8_t {
  Vulkan1_0,  // SPIR-V 1.0
  Vulkan1_1,  // SPIR-V 1.3
  Vulkan1_2,  // SPIR-V 1.5
  Vulkan1_3,  // SPIR-V 1.6
  Spirv1_0,
  Spirv1_1,
  Spirv1_2,
  Spirv1_3,
  Spirv1_4,
  Spirv1_5,
  Spirv1_6,
};

// "vulkan1.0" … "vulkan1.3", "spv1.0" … "spv1.6" (also spelled "spirv1.x").
std::optional<TargetEnv> target_env_from_string(std::string_view text);
// The spelling target_env_from_string() reads: "vulkan1.2", "spv1.4".
std::string_view to_string(TargetEnv env);
// The SPIR-V version word the target's modules carry (0x00010300 for 1.3).
std::uint32_t spirv_version(TargetEnv env);
bool is_vulkan(TargetEnv env);
// SPIRV-Tools' name for the environment (what spirv-val --target-env takes).
spv_target_env spvtools_env(TargetEnv env);

struct Options {
  TargetEnv target = TargetEnv::Vulkan1_0;
  // Function-local variables whose address never escapes become SSA values
  // (OpPhi) and vanish from the output; -O0 turns this off and keeps them as
  // OpVariable/OpLoad/OpStore.
  bool promote_to_ssa = true;
  // Driver workaround fall-through-in-memory (docs/workarounds.md; lavapipe,
  // Mesa 22.3): a variable that would need an OpPhi in a switch case entered
  // by fall-through, in a switch inside a loop (or in a function other than
  // the entry point, which a caller may run in a loop), stays in memory.
  bool fall_through_in_memory = false;
  // Driver workaround loop-vectors-in-memory (docs/workarounds.md; lavapipe,
  // a performance one): a vector variable that would need an OpPhi in a
  // loop header stays in memory.
  bool loop_vectors_in_memory = false;
  // Driver workaround loop-latch (docs/workarounds.md; lavapipe, a
  // performance one): a loop's one-block body is not its continue target;
  // an empty latch block after it is.
  bool loop_latch = false;
  // Driver workaround reload-uniforms-in-loops (docs/workarounds.md; NVIDIA
  // 580): a load of uniform memory inside a loop is not replaced by an equal
  // one before the loop (readonly_loads.cpp).
  bool uniform_loads_in_loops = false;
  // OpName/OpMemberName for variables, functions, parameters and structs.
  bool debug_names = true;
  // Runs SPIRV-Tools' performance passes over the emitted module.
  bool run_spirv_opt = false;
  // The name OpEntryPoint gives the IR's entry point, `main` in the IR
  // (glslangValidator's -e/--entry-point).
  std::string entry_point_name = "main";
  // Inf, NaN and signed zeros of 32-bit floats as IEEE-754 has them: the
  // SignedZeroInfNanPreserve 32 execution mode (SPIR-V 1.4's float
  // controls), written only where the target is SPIR-V 1.4 or later. The
  // λV front end's programs ask for it (docs/lambdav.md, "Floats").
  bool preserve_float_specials = false;
  // Debug line information from the module's location table (`sluice
  // compile -g`, as glslang -g): OpString per source file, OpSource for
  // the first, and OpLine before each instruction whose location differs
  // from the previous one in its block.
  bool debug_lines = false;
  // No floating-point contraction (`--fp-contract=off`): the result of every
  // floating-point arithmetic instruction the output emits (OpFAdd, OpFSub,
  // OpFMul, OpFDiv, OpFRem, OpFMod, OpFNegate, OpVectorTimesScalar,
  // OpMatrixTimesScalar, OpVectorTimesMatrix, OpMatrixTimesVector,
  // OpMatrixTimesMatrix, OpOuterProduct, OpDot) is decorated NoContraction,
  // as glslang decorates the operations of a `precise` result: the driver
  // may neither fuse it with another (a * b + c into one fma) nor
  // reassociate it (SPIR-V 3.20, Decoration: NoContraction). The
  // GLSL.std.450 instructions (mix, fma, length, ...) are extended
  // instructions, not arithmetic ones, and take no such decoration.
  bool no_contraction = false;
};

// The module as SPIR-V words, or why it cannot be translated. emit() runs
// the IR validator (validator.h) first and returns its first problem for
// invalid IR ("invalid IR: f0 'main', ...: message"); past that the emitter
// relies on the validator's guarantees and reports only what SPIR-V cannot
// express.
Result<std::vector<std::uint32_t>> emit(const ir::Module& module, const Options& options = {});

// SPIRV-Tools' validator (spirv-val) run in-process: one message per
// problem, empty when the module is valid for `env`.
std::vector<std::string> validate(std::span<const std::uint32_t> words, TargetEnv env);

// Text form with friendly names (%main, %float, %_ptr_Output_v4float).
Result<std::string> disassemble(std::span<const std::uint32_t> words, TargetEnv env);

// SPIRV-Tools' optimizer with its performance passes.
Result<std::vector<std::uint32_t>> optimize(std::span<const std::uint32_t> words, TargetEnv env);

}  // namespace sluice::spirv
