// GLSL -> SPIR-V through glslang, in process, the way `glslangValidator -V`
// compiles (optionally with --aml --amb: automatic locations and bindings).
// Used by tests and by xcheck's "Sluice's GLSL, compiled by glslang" variant.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "exec/shader_interface.h"
#include "ir/result.h"

namespace sluice::exec {

struct GlslCompileOptions {
  bool auto_map_locations = true;  // glslang's --aml
  bool auto_map_bindings = true;   // glslang's --amb
  // Vulkan 1.0 / SPIR-V 1.0, as glslangValidator -V produces by default.
  uint32_t vulkan_version = 100;  // 100, 110, 120 or 130
};

// Keeps glslang's process-wide state (its built-in symbol tables among it)
// alive while it exists. compile_glsl takes and drops that state itself,
// so without a session every call rebuilds the built-in tables (about a
// tenth of a second each); hold one around many compilations in a row.
class GlslangSession {
 public:
  GlslangSession();
  ~GlslangSession();
  GlslangSession(const GlslangSession&) = delete;
  GlslangSession& operator=(const GlslangSession&) = delete;
};

Result<std::vector<uint32_t>> compile_glsl(std::string_view source, ShaderStage stage,
                                           const GlslCompileOptions& options = {});

// The stage of a file by its extension: .frag, .comp, .vert.
Result<ShaderStage> shader_stage_from_path(const std::string& path);

}  // namespace sluice::exec
