// Block names that glslang cannot survive.
//
// glslang (Debian 12's 11.13, and the 12.x releases) dereferences a null
// symbol in TParseContext::declareBlock when a block is declared with the
// name of a function that is already in scope: a function the shader
// declared before the block, or, in the ES profiles (whose symbol table
// forbids redeclaring built-ins), any built-in function. The name's
// insertion fails, glslang looks the name up as a variable, finds nothing
// (functions are stored under mangled names) and crashes, where it meant to
// say "block name cannot be redefined". glslangValidator crashes the same
// way, e.g. on
//
//     #version 310 es
//     layout(binding = 0) uniform sin { int v; };
//
// A block name is reserved for interface matching: using it for anything
// else at global scope is a compile-time error (GLSL 4.60 §4.3.9, GLSL ES
// 3.20 §4.3.9), so these shaders are invalid and Sluice reports the error
// glslang meant to, before glslang parses them (session.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sluice::glsl_in::detail {

struct Position {
  std::string file;  // from the last `#line N "file"`, else empty (the shader's own file)
  std::uint32_t line = 0, column = 0;
};

struct BlockName {
  std::string name;
  Position at;
  bool clashes_with_function = false;  // a function of the shader was declared before the block
  Position function_at;                // where, when it was
};

struct BlockNameScan {
  std::vector<BlockName> blocks;  // every interface block at global scope, in order
  int version = 100;              // from #version (glslang's default: 100, ES)
  bool es = true;                 // the ES profile
};

// Scans glslang's preprocessed text (comments gone, macros expanded,
// includes inlined with #line directives), or the raw source (comments
// skipped): global-scope function
// declarations (a name followed by `(` after a type) and block declarations
// (a name followed by `{` after a storage qualifier such as `uniform`).
BlockNameScan scan_block_names(std::string_view preprocessed);

// The text to hand TShader::preprocess for that scan. glslang's
// preprocessed-output writer (DoPreprocessing in ShaderLang.cpp, which
// glslangValidator -E uses too) builds `std::string(column - 1, ' ')` for a
// token at the start of a line; a token made by expanding an object-like
// macro whose name ends right before a line continuation gets column 0, and
// the string's size wraps to 2^64 - 1: std::length_error, thrown through
// glslang, which then leaks what it had allocated. E.g. the three lines
// `#define X ]`, `X` followed by a backslash, and `}`.
//
// (glslangValidator -E aborts on it; -V does not, the parser never makes
// that string.) A space between such a name and its backslash-newline gives
// the same tokens (the next line does not continue the name: it starts with
// no identifier character) and line numbers, and avoids the crash. Only the
// guard's copy is changed; the parse reads the source as written.
std::string space_before_line_continuations(std::string_view source);

}  // namespace sluice::glsl_in::detail
