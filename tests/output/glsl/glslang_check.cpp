// glslang (initialised once per process behind std::call_once) and
// SPIRV-Tools validation for the tests.
#include "glslang_check.h"

#include <mutex>

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>
#include <spirv-tools/libspirv.hpp>

namespace sluice::testing {
namespace {

void initialise_glslang() {
  static std::once_flag once;
  std::call_once(once, [] { glslang::InitializeProcess(); });
}

EShLanguage language_of(ir::ShaderStage stage) {
  switch (stage) {
    case ir::ShaderStage::Vertex: return EShLangVertex;
    case ir::ShaderStage::Fragment: return EShLangFragment;
    case ir::ShaderStage::Compute: return EShLangCompute;
    case ir::ShaderStage::Geometry: return EShLangGeometry;
    case ir::ShaderStage::TessControl: return EShLangTessControl;
    case ir::ShaderStage::TessEvaluation: return EShLangTessEvaluation;
  }
  return EShLangFragment;
}

}  // namespace

GlslCheck compile_glsl_text(const std::string& text, ir::ShaderStage stage, const glsl_out::Options& options,
                            std::uint32_t spirv_version) {
  initialise_glslang();
  GlslCheck out;
  const EShLanguage language = language_of(stage);
  glslang::TShader shader(language);
  const char* source = text.c_str();
  shader.setStrings(&source, 1);
  const bool vulkan = options.flavour == glsl_out::Flavour::Vulkan;
  const bool spirv = vulkan || options.version == glsl_out::GlslVersion::V450;
  EShMessages messages = EShMsgDefault;
  spv_target_env env = SPV_ENV_VULKAN_1_0;
  if (vulkan) {
    shader.setEnvInput(glslang::EShSourceGlsl, language, glslang::EShClientVulkan, 100);
    const bool v11 = spirv_version >= 0x00010300;
    shader.setEnvClient(glslang::EShClientVulkan, v11 ? glslang::EShTargetVulkan_1_1 : glslang::EShTargetVulkan_1_0);
    shader.setEnvTarget(glslang::EShTargetSpv, v11 ? glslang::EShTargetSpv_1_3 : glslang::EShTargetSpv_1_0);
    messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
    if (v11) env = SPV_ENV_VULKAN_1_1;
  } else if (spirv) {
    shader.setEnvInput(glslang::EShSourceGlsl, language, glslang::EShClientOpenGL, 100);
    shader.setEnvClient(glslang::EShClientOpenGL, glslang::EShTargetOpenGL_450);
    shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_0);
    // An OpenGL driver assigns what the text leaves out; glslang -G needs --aml --amb for that.
    shader.setAutoMapLocations(true);
    shader.setAutoMapBindings(true);
    messages = EShMsgSpvRules;
    env = SPV_ENV_OPENGL_4_5;
  }
  if (!shader.parse(GetDefaultResources(), 100, false, messages)) {
    out.log = std::string("glslang: ") + shader.getInfoLog();
    return out;
  }
  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(messages) || (spirv && !program.mapIO())) {
    out.log = std::string("glslang link: ") + program.getInfoLog();
    return out;
  }
  if (!spirv) {
    out.ok = true;
    return out;
  }
  spv::SpvBuildLogger logger;
  glslang::SpvOptions spv_options;
  glslang::GlslangToSpv(*program.getIntermediate(language), out.spirv, &logger, &spv_options);
  if (out.spirv.empty()) {
    out.log = "glslang made no SPIR-V: " + logger.getAllMessages();
    return out;
  }
  spvtools::SpirvTools tools(env);
  std::string messages_text;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& p, const char* m) {
    messages_text += "spirv-val: " + std::string(m) + " (word " + std::to_string(p.index) + ")\n";
  });
  out.ok = tools.Validate(out.spirv);
  out.log = messages_text;
  return out;
}

}  // namespace sluice::testing
