// The GLSL front end: glslang preprocesses, parses and type-checks the
// shader; Sluice walks glslang's typed AST and builds IR through the
// ir::Builder. Every failure — glslang's own errors and the features this
// front end does not support — comes back as a diagnostic, never as an
// exception or an abort. docs/glsl.md lists the supported subset.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/diagnostic.h"
#include "ir/module.h"
#include "ir/result.h"

namespace sluice::glsl_in {

struct Options {
  // The stage; when unset it comes from the file name's extension
  // (.vert, .frag, .comp, .geom, .tesc, .tese), as glslangValidator decides it.
  std::optional<ir::ShaderStage> stage;
  // glslangValidator's --auto-map-locations / --auto-map-bindings (--aml,
  // --amb): give interface variables without layout(location) or
  // layout(binding) the next free one instead of rejecting them.
  bool auto_map_locations = false;
  bool auto_map_bindings = false;
  // Client API: Vulkan (glslangValidator -V) or OpenGL (-G).
  bool vulkan = true;
  // The SPIR-V version the shader is written for (0x00010300 is 1.3), as
  // glslangValidator's --target-env sets it: 1.3 and later (Vulkan 1.1)
  // allow the subgroup built-ins.
  std::uint32_t spirv_version = 0x00010000;
  // The preprocessor, as glslangValidator's -D and -U: in command-line
  // order, ("NAME", "VALUE") is `#define NAME VALUE` (an empty value
  // defines NAME as nothing, as -DNAME does) and ("NAME", nullopt) is
  // `#undef NAME`. check_macro_definition() tells whether a -D is well formed.
  std::vector<std::pair<std::string, std::optional<std::string>>> macros;
  // glslangValidator's -I: where `#include` looks after the including
  // file's directory (GL_GOOGLE_include_directive; includer.h).
  std::vector<std::string> include_dirs;
  // glslangValidator's --source-entrypoint: the source function glslang
  // takes as the entry point. glslang's GLSL front end accepts only "main"
  // and reports any other name as an error.
  std::string source_entry_point;
};

// A source text and the name it is known by (the path it was read from).
struct SourceFile {
  std::string path;
  std::string text;
};

// Splits glslangValidator's -D argument "NAME[=VALUE]" into a macro for
// Options::macros, or says what is wrong with it.
sluice::Result<std::pair<std::string, std::optional<std::string>>> parse_define(std::string_view argument);
// Checks a -U argument: a macro name.
sluice::Result<std::string> parse_undefine(std::string_view argument);

struct Result {
  std::optional<ir::Module> module;  // set when the shader translated without errors
  Diagnostics diagnostics;           // errors and warnings, in source order where known
  std::vector<SourceFile> includes;  // every file #include read, once each, in the order first read
};

// The diagnostics as text (render() of diagnostic.h), each with the source
// line of the file it names: the main source or one of the includes.
std::string render(const Result& result, std::string_view file_name, std::string_view source);

// Translates one GLSL shader. `file_name` names the source in diagnostics
// and, when Options::stage is unset, chooses the stage. Safe to call from
// several threads at once. The work runs on a thread of its own with a
// large stack (glslang recurses along its syntax tree); the call blocks
// until it is done. The caller validates the module (validator.h).
Result compile(std::string_view source, std::string_view file_name, const Options& options = {});

// The stage glslangValidator infers from a file name: the last extension
// .vert, .frag, .comp, .geom, .tesc or .tese; nullopt for anything else.
std::optional<ir::ShaderStage> stage_from_path(std::string_view path);

// The deepest glslang AST this front end walks (nodes from the tree root to
// the deepest leaf). Deeper shaders are refused with a diagnostic; the walk
// that measures the depth keeps its stack on the heap.
inline constexpr std::size_t kMaxAstDepth = 1000;

}  // namespace sluice::glsl_in
