// Runs a parsed AmberScript on the Runner and checks its EXPECTs.
//
// Shaders: SPIRV-ASM is assembled with SPIRV-Tools for its TARGET_ENV;
// GLSL needs ExecuteOptions::compile_glsl (the runner does not link
// glslang); PASSTHROUGH is the runner's built-in vertex shader. A caller can
// substitute any shader's SPIR-V through ExecuteOptions::replace_shader,
// which is how xcheck runs Sluice's SPIR-V in place of the script's.
//
// Colour buffers hold what an Amber framebuffer of their FORMAT holds (8-bit
// UNORM values for B8G8R8A8_UNORM). EXPECT ... EQ_RGBA compares each channel
// with value/255 within 0.002 (Amber's default, so 8-bit values must match
// exactly), or within TOLERANCE given in the same 0-255 units ('%' suffix:
// percent of the expected value).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "exec/amber_script.h"
#include "exec/compare.h"
#include "exec/runner.h"

namespace sluice::exec::amber {

struct ExecuteOptions {
  // Called for each SPIRV-ASM or GLSL shader with its declaration and the
  // SPIR-V built from the script; returns the SPIR-V to run instead.
  std::function<Result<std::vector<uint32_t>>(const ShaderDecl&, const std::vector<uint32_t>& original)>
      replace_shader;
  // Compiles GLSL shader bodies; GLSL shaders are refused without it.
  std::function<Result<std::vector<uint32_t>>(const std::string& source, ShaderStage stage)> compile_glsl;
  // Buffers the script does not declare, bound in every draw after the
  // script's own (the ub-check findings buffer, docs/ub-check.md); read
  // back with the shader's storage buffers (ScriptOutcome::storage_buffers).
  std::vector<BufferInit> extra_buffers;
};

struct ExpectOutcome {
  int line = 0;
  bool passed = false;
  std::string message;  // why it failed: first differing pixel, both values, count
};

struct ScriptOutcome {
  std::vector<ExpectOutcome> expects;
  std::map<std::string, Image> color_buffers;  // final contents, by buffer name
  std::vector<BufferData> storage_buffers;     // of the last RUN

  bool passed() const;
  // "3/3 EXPECTs passed" or the first failure's message.
  std::string summary() const;
};

// A Result error means the script could not run (unsupported feature, bad
// shader, Vulkan failure); failing EXPECTs are reported in the outcome.
Result<ScriptOutcome> execute_script(Runner& runner, const Script& script, const ExecuteOptions& options = {});
Result<ScriptOutcome> run_amber_file(Runner& runner, const std::string& path, const ExecuteOptions& options = {});

// Compares two outcomes of the same script (e.g. Amber's SPIR-V against
// Sluice's): EXPECT verdicts, then colour buffers, then storage buffers.
std::optional<Mismatch> compare_outcomes(const ScriptOutcome& expected, const ScriptOutcome& actual,
                                         const CompareOptions& options = {});

// The SPIR-V version word for an Amber TARGET_ENV ("spv1.3", "vulkan1.1"...).
Result<uint32_t> spirv_version_for_target_env(const std::string& env);

}  // namespace sluice::exec::amber
