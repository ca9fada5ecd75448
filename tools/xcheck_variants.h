// The SPIR-V modules `sluice xcheck` runs besides a reference: Sluice's
// SPIR-V and Sluice's GLSL compiled by glslang, from any input the pipeline
// reads (λV, GLSL, SPIR-V: sluice_pipeline.h), and GLSL from elsewhere (a
// peer translator's) compiled by glslang. Every module returned has passed
// spirv-val for the pipeline's target; each failure is a message naming the
// step that failed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "exec/glsl_compiler/glsl_compile.h"
#include "exec/xcheck.h"
#include "sluice_pipeline.h"
#include "xcheck_report.h"

namespace sluice::tools {

// glslang's settings for the SPIR-V target xcheck was given (vulkan1.1 for
// the subgroup built-ins).
exec::GlslCompileOptions glslang_options(const PipelineOptions& options);

// Sluice's two ways of compiling one input to SPIR-V.
struct SluiceVariants {
  StepResult<std::vector<std::uint32_t>> spirv;
  StepResult<std::vector<std::uint32_t>> via_glsl;
};

// `source` is the input's text (or bytes, for SPIR-V); `display_name` names
// it in messages and, unless options.language is set, tells its language.
SluiceVariants compile_variants(const std::string& source, const std::string& display_name, exec::ShaderStage stage,
                                const PipelineOptions& options);

// GLSL `text` (whose author `whose` names in messages, e.g. "Sluice's")
// compiled by glslang and checked by spirv-val.
StepResult<std::vector<std::uint32_t>> glsl_to_checked_spirv(const std::string& text, exec::ShaderStage stage,
                                                             const PipelineOptions& options, const std::string& whose);

// SPIRV-Cross's GLSL of `spirv` (spirv_cross_peer.h) compiled by glslang
// and checked by spirv-val: the peer variant.
StepResult<std::vector<std::uint32_t>> spirv_cross_variant(const std::vector<std::uint32_t>& spirv, exec::ShaderStage stage,
                                                           const PipelineOptions& options);

// The first line of a message, without trailing blanks: what one report line holds.
std::string first_line(std::string s);

VariantOutcome from_result(const exec::XcheckVariantResult& r);

}  // namespace sluice::tools
