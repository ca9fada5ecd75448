// glslangValidator's command-line conventions for the GLSL front end: -D and
// -U become a preamble of #define/#undef lines glslang reads before the
// shader (as glslangValidator's UserPreamble does), and diagnostics are
// rendered against the file they name, the shader or one of its includes.
#include <fmt/format.h>

#include "frontend/glsl/glsl_frontend.h"
#include "frontend/glsl/preamble.h"

namespace sluice::glsl_in {
namespace {

// A GLSL identifier (GLSL 4.60 §3.7): a letter or underscore, then letters,
// digits and underscores.
bool is_identifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s)
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
  return true;
}

}  // namespace

sluice::Result<std::pair<std::string, std::optional<std::string>>> parse_define(std::string_view argument) {
  const std::size_t eq = argument.find('=');
  const std::string_view name = argument.substr(0, eq);
  if (!is_identifier(name))
    return Error{fmt::format("-D '{}': '{}' is not a macro name (-D NAME or -D NAME=VALUE)", argument, name)};
  std::string value = eq == std::string_view::npos ? std::string() : std::string(argument.substr(eq + 1));
  // One preamble line per macro: a newline would end the #define early.
  if (value.find_first_of("\r\n") != std::string::npos)
    return Error{fmt::format("-D {}: the value may not hold a line break", name)};
  return std::pair<std::string, std::optional<std::string>>(std::string(name), std::move(value));
}

sluice::Result<std::string> parse_undefine(std::string_view argument) {
  if (!is_identifier(argument)) return Error{fmt::format("-U '{}': not a macro name", argument)};
  return std::string(argument);
}

namespace detail {

std::string preamble(const Options& options) {
  std::string text;
  for (const auto& [name, value] : options.macros) {
    if (value)
      text += value->empty() ? fmt::format("#define {}\n", name) : fmt::format("#define {} {}\n", name, *value);
    else
      text += fmt::format("#undef {}\n", name);
  }
  return text;
}

}  // namespace detail

std::string render(const Result& result, std::string_view file_name, std::string_view source) {
  std::string out;
  for (const Diagnostic& d : result.diagnostics) {
    std::string_view text = d.file == file_name ? source : std::string_view();
    for (const SourceFile& f : result.includes)
      if (f.path == d.file) text = f.text;
    out += sluice::render(d, text);
  }
  return out;
}

}  // namespace sluice::glsl_in
