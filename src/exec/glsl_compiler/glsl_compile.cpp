// glslang front end plus GlslangToSpv, with the default resource limits.
#include "exec/glsl_compiler/glsl_compile.h"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <fmt/format.h>

namespace sluice::exec {
namespace {

// glslang's process-wide tables are reference counted; holding them for the
// duration of each compilation keeps this free of global state of our own.
struct GlslangProcess {
  GlslangProcess() { glslang::InitializeProcess(); }
  ~GlslangProcess() { glslang::FinalizeProcess(); }
};

EShLanguage language_of(ShaderStage stage) {
  switch (stage) {
    case ShaderStage::Vertex: return EShLangVertex;
    case ShaderStage::Fragment: return EShLangFragment;
    case ShaderStage::Compute: return EShLangCompute;
    case ShaderStage::Geometry: return EShLangGeometry;
    case ShaderStage::TessControl: return EShLangTessControl;
    case ShaderStage::TessEvaluation: return EShLangTessEvaluation;
  }
  return EShLangFragment;
}

}  // namespace

GlslangSession::GlslangSession() { glslang::InitializeProcess(); }
GlslangSession::~GlslangSession() { glslang::FinalizeProcess(); }

Result<std::vector<uint32_t>> compile_glsl(std::string_view source, ShaderStage stage,
                                           const GlslCompileOptions& options) {
  GlslangProcess process;
  const EShLanguage language = language_of(stage);
  glslang::TShader shader(language);
  const char* text = source.data();
  const int length = static_cast<int>(source.size());
  shader.setStringsWithLengths(&text, &length, 1);
  glslang::EShTargetClientVersion client = glslang::EShTargetVulkan_1_0;
  glslang::EShTargetLanguageVersion spirv = glslang::EShTargetSpv_1_0;
  switch (options.vulkan_version) {
    case 110: client = glslang::EShTargetVulkan_1_1; spirv = glslang::EShTargetSpv_1_3; break;
    case 120: client = glslang::EShTargetVulkan_1_2; spirv = glslang::EShTargetSpv_1_5; break;
    case 130: client = glslang::EShTargetVulkan_1_3; spirv = glslang::EShTargetSpv_1_6; break;
    default: break;
  }
  shader.setEnvInput(glslang::EShSourceGlsl, language, glslang::EShClientVulkan, 100);
  shader.setEnvClient(glslang::EShClientVulkan, client);
  shader.setEnvTarget(glslang::EShTargetSpv, spirv);
  shader.setAutoMapLocations(options.auto_map_locations);
  shader.setAutoMapBindings(options.auto_map_bindings);
  const EShMessages messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
  if (!shader.parse(GetDefaultResources(), 100, false, messages))
    return Error{fmt::format("glslang: {}", shader.getInfoLog())};
  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(messages)) return Error{fmt::format("glslang link: {}", program.getInfoLog())};
  if (!program.mapIO()) return Error{fmt::format("glslang I/O mapping: {}", program.getInfoLog())};
  std::vector<uint32_t> words;
  ::spv::SpvBuildLogger logger;
  glslang::SpvOptions spv_options;
  glslang::GlslangToSpv(*program.getIntermediate(language), words, &logger, &spv_options);
  if (words.empty()) return Error{"glslang produced no SPIR-V: " + logger.getAllMessages()};
  return words;
}

Result<ShaderStage> shader_stage_from_path(const std::string& path) {
  auto ends_with = [&](std::string_view suffix) {
    return path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(".frag")) return ShaderStage::Fragment;
  if (ends_with(".comp")) return ShaderStage::Compute;
  if (ends_with(".vert")) return ShaderStage::Vertex;
  if (ends_with(".geom")) return ShaderStage::Geometry;
  if (ends_with(".tesc")) return ShaderStage::TessControl;
  if (ends_with(".tese")) return ShaderStage::TessEvaluation;
  return Error{fmt::format("cannot tell the shader stage of '{}' (expected .frag, .comp, .vert, .geom, .tesc or .tese)",
                           path)};
}

}  // namespace sluice::exec
