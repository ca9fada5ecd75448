// A bound on how much text glslang's preprocessor makes of a shader's
// macros, computed before glslang expands them.
//
// glslang expands macros without a size limit, and each `#define` whose
// body names the one before it twice doubles the text: 25 lines of
// `#define A2 (A1+A1)`, the last one used once, take glslangValidator past
// 20 s and 2 GB, and Sluice too (it parses what glslang makes). The same
// comes from a function-like macro whose parameter appears twice, nested in
// the text (`#define D(x) x x`, `D(D(D(…)))`). Sluice refuses a shader
// whose macros would add more than kMaxMacroExpansionTokens tokens to it, or
// take the preprocessor more than kMaxMacroExpansionWork tokens to expand
// (docs/limits.md), pointing at the use of a macro that goes past a limit.
//
// The estimate is an upper bound up to small constant factors, computed in
// time linear in the text for shaders without macro cycles
// (macro_expansion.cpp gives the model). What it does not follow, it
// over-counts: #undef and conditional compilation (every definition of a
// name counts, the largest one wins), and `##` (a pasted token is counted as
// the largest macro there is). Files reached through #include are not
// scanned (glslang's includer is given them; FileIncluder bounds their size).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sluice::glsl_in::detail {

// 2^18: about half the tokens of a 1 MB shader. Seventeen nested doublings
// (`#define A17 (A16+A16)`, 2^19 tokens) took Sluice 1.8 s on the
// development machine; sixteen, 2^18 tokens, 1.0 s (docs/limits.md).
inline constexpr std::uint64_t kMaxMacroExpansionTokens = std::uint64_t{1} << 18;

// 2^20 tokens read by the preprocessor (glslangValidator -E expands about
// 4 M a second on the development machine).
inline constexpr std::uint64_t kMaxMacroExpansionWork = std::uint64_t{1} << 20;

struct MacroExpansionEstimate {
  std::uint64_t added_tokens = 0;  // tokens the macro uses add to the text (uses replaced by their expansions), saturating
  std::uint64_t work = 0;          // tokens the preprocessor reads to expand them (arguments, copies, names), saturating
  // The first use (outside #define lines) after which a total is over its
  // limit, if any: the macro's name and position (1-based).
  std::optional<std::string> over_limit_at_macro;
  std::uint32_t line = 0, column = 0;
};

MacroExpansionEstimate estimate_macro_expansion(std::string_view source,
                                                std::uint64_t limit = kMaxMacroExpansionTokens,
                                                std::uint64_t work_limit = kMaxMacroExpansionWork);

}  // namespace sluice::glsl_in::detail
