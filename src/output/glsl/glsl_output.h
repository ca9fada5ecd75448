// The GLSL output generator: turns a module into readable GLSL text for
// `#version 450` or `#version 310 es`, in the Vulkan flavour that
// `glslangValidator -V` accepts (explicit locations, set/binding, push
// constants, separate textures and samplers) or the OpenGL flavour.
//
// Statements follow the block tree (If → if/else, Loop → for/while, DoLoop →
// do/while, Switch → switch with fall-through); a register's expression is
// inlined where it is used once, in the same straight-line code, without
// moving it across a side effect; other values get a named temporary.
// docs/ir.md ("GLSL output") lists the forms and the rules.
//
// The emitter keeps all of its state on the heap (no recursion along the
// block tree), so arbitrarily deep nesting emits without stack overflow; IR
// that GLSL cannot express comes back as an error, never as an abort.
#pragma once

#include <string>

#include "ir/module.h"
#include "ir/result.h"

namespace sluice::glsl_out {

enum class GlslVersion { V450, V310es };
enum class Flavour { Vulkan, OpenGL };

struct Options {
  GlslVersion version = GlslVersion::V450;
  Flavour flavour = Flavour::Vulkan;
};

// The whole shader: version line, extensions, declarations and functions.
// Invalid IR gets the IR validator's first problem ("invalid IR: ..."), as
// from spirv::emit; past that only what GLSL cannot express is an error.
Result<std::string> emit(const ir::Module& m, const Options& options);

// The version `--glsl-version` names: "450" or "310es" (also "310 es");
// an error for anything else.
Result<GlslVersion> parse_version(std::string_view text);

}  // namespace sluice::glsl_out
