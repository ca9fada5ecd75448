// Diagnostics about source text (.ir, .lv, GLSL): `file:line:col: error:
// message`, then the source line and a caret under the column. Front ends
// and parsers collect them in a list and return it; nobody prints and exits
// from inside a library.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {

enum class Severity : std::uint8_t { Error, Warning };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string file;
  std::uint32_t line = 0;    // 1-based; 0 = no position
  std::uint32_t column = 0;  // 1-based
  std::string message;
};

using Diagnostics = std::vector<Diagnostic>;

// "file:line:col: error: message\n<source line>\n<spaces>^\n". `source` is
// the whole text the position refers to; pass an empty view to omit the
// source line and caret.
std::string render(const Diagnostic& d, std::string_view source);
std::string render(const Diagnostics& ds, std::string_view source);

bool has_errors(const Diagnostics& ds);

}  // namespace sluice
