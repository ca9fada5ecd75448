#include "xcheck_variants.h"

#include <fmt/format.h>

#include "spirv_cross_peer.h"

namespace sluice::tools {

exec::GlslCompileOptions glslang_options(const PipelineOptions& options) {
  exec::GlslCompileOptions g;
  const std::uint32_t v = spirv::spirv_version(options.spirv.target);
  g.vulkan_version = v >= 0x00010600 ? 130 : v >= 0x00010500 ? 120 : v >= 0x00010300 ? 110 : 100;
  return g;
}

StepResult<std::vector<std::uint32_t>> glsl_to_checked_spirv(const std::string& text, exec::ShaderStage stage,
                                                             const PipelineOptions& options, const std::string& whose) {
  StepResult<std::vector<std::uint32_t>> out;
  auto words = exec::compile_glsl(text, stage, glslang_options(options));
  if (!words) {
    out.failure.message = fmt::format("glslang rejected {} GLSL: {}", whose, words.error());
    return out;
  }
  if (const auto messages = spirv::validate(*words, options.spirv.target); !messages.empty()) {
    out.failure.message = fmt::format("glslang's SPIR-V for {} GLSL fails spirv-val: {}", whose, messages.front());
    return out;
  }
  out.value = std::move(*words);
  return out;
}

StepResult<std::vector<std::uint32_t>> spirv_cross_variant(const std::vector<std::uint32_t>& spirv, exec::ShaderStage stage,
                                                           const PipelineOptions& options) {
  auto glsl = spirv_cross_glsl(spirv);
  if (!glsl) {
    StepResult<std::vector<std::uint32_t>> out;
    out.failure.message = glsl.error();
    return out;
  }
  return glsl_to_checked_spirv(*glsl, stage, options, "SPIRV-Cross's");
}

SluiceVariants compile_variants(const std::string& source, const std::string& display_name, exec::ShaderStage stage,
                                const PipelineOptions& options) {
  SluiceVariants v;
  auto module = compile_to_ir(source, display_name, options);
  if (!module.ok()) {
    v.spirv.failure = v.via_glsl.failure = module.failure;
    return v;
  }
  v.spirv = emit_spirv(*module.value, options, display_name);
  if (v.spirv.ok()) {
    const auto messages = spirv::validate(*v.spirv.value, options.spirv.target);
    if (!messages.empty()) {
      v.spirv.failure.message = "Sluice's SPIR-V fails spirv-val: " + messages.front();
      v.spirv.value.reset();
    }
  }
  auto glsl = emit_glsl(*module.value, options);
  if (!glsl.ok()) {
    v.via_glsl.failure = glsl.failure;
    return v;
  }
  v.via_glsl = glsl_to_checked_spirv(*glsl.value, stage, options, "Sluice's");
  return v;
}

std::string first_line(std::string s) {
  s = s.substr(0, s.find('\n'));
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

VariantOutcome from_result(const exec::XcheckVariantResult& r) {
  if (!r.error.empty()) return {r.name, CheckStatus::Error, first_line(r.error)};
  if (r.mismatch) return {r.name, CheckStatus::Fail, r.mismatch->describe()};
  return {r.name, CheckStatus::Pass, ""};
}

}  // namespace sluice::tools
