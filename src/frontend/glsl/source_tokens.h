// GLSL source text as tokens, for the checks Sluice makes before glslang
// reads a shader (block_names.h, macro_recursion.h, macro_expansion.h): the
// one scanner they share.
//
// It follows glslang's scanner (and GLSL 4.60 §3.1–§3.3) where the checks
// need it: comments are skipped (`/* */` may span lines; a comment is one
// space), a backslash-newline joins two lines into one logical line (the
// directive goes on), and `"…"` is one token (it appears only in `#line` and
// `#include`). Everything else is coarser than a real GLSL lexer and need
// not be finer: identifiers, numbers (a digit and the identifier characters
// and dots after it) and single characters of punctuation (`##` is two `#`).
// Linear in the text's size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace sluice::glsl_in::detail {

struct SourceToken {
  std::string_view text;
  std::size_t offset = 0;
  std::uint32_t line = 1, column = 1;  // physical, 1-based (a backslash-newline counts as a line)
  bool first_on_line = false;          // first of its logical line (no backslash-newline joined it to the one before)
  bool identifier = false;
};

std::vector<SourceToken> tokenize_source(std::string_view text);

// The end of the logical line that token `begin` is on: the index of the
// next token that starts a line, or tokens.size().
std::size_t end_of_line(const std::vector<SourceToken>& tokens, std::size_t begin);

// One `#define NAME[(PARAMS)] BODY`: token indices.
struct MacroDefinition {
  std::size_t name = 0;                      // the name's token
  bool function_like = false;                // `(` right after the name, no space (GLSL 4.60 §3.3, as C)
  std::size_t params_begin = 0, params_end = 0;  // the parameter list's tokens, `(` and `)` excluded
  std::size_t body_begin = 0, body_end = 0;
};

// Every `#define` of the text in order, wherever it is (conditional
// compilation and #undef are not followed).
std::vector<MacroDefinition> macro_definitions(const std::vector<SourceToken>& tokens);

}  // namespace sluice::glsl_in::detail
