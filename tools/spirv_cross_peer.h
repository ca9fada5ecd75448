// SPIRV-Cross as a peer of Sluice's SPIR-V front end: the `spirv-cross`
// command-line tool (Debian package spirv-cross; a run-time tool, never a
// build dependency) turns a SPIR-V module into Vulkan GLSL, which
// `sluice xcheck --peer spirv-cross` compiles with glslang and runs next to
// Sluice's translation of the same module (docs/testing.md compares them).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "ir/result.h"

namespace sluice::tools {

// Whether `spirv-cross` is found on PATH.
bool spirv_cross_available();

// `spirv-cross --vulkan-semantics` of `words`: the GLSL text, or an error
// with what the tool printed. Runs the tool as a child process with the
// module in a temporary file.
Result<std::string> spirv_cross_glsl(std::span<const std::uint32_t> words);

}  // namespace sluice::tools
