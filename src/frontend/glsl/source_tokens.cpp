#include "frontend/glsl/source_tokens.h"

#include <cctype>

namespace sluice::glsl_in::detail {
namespace {

bool starts_identifier(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool continues_identifier(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The length of a backslash-newline (`\` then \n or \r\n) at `at`, or 0.
std::size_t line_continuation(std::string_view s, std::size_t at) {
  if (s[at] != '\\' || at + 1 >= s.size()) return 0;
  if (s[at + 1] == '\n') return 2;
  return s[at + 1] == '\r' && at + 2 < s.size() && s[at + 2] == '\n' ? 3 : 0;
}

}  // namespace

std::vector<SourceToken> tokenize_source(std::string_view s) {
  std::vector<SourceToken> tokens;
  std::size_t pos = 0, line_start = 0;
  std::uint32_t line = 1;
  bool first = true;
  const auto newline_at = [&](std::size_t at) {
    ++line;
    line_start = at + 1;
  };
  while (pos < s.size()) {
    const char c = s[pos];
    if (const std::size_t n = line_continuation(s, pos)) {
      pos += n;
      newline_at(pos - 1);
      continue;
    }
    if (c == '\n') {
      newline_at(pos++);
      first = true;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++pos;
      continue;
    }
    if (c == '/' && pos + 1 < s.size() && s[pos + 1] == '/') {
      while (pos < s.size() && s[pos] != '\n') ++pos;
      continue;
    }
    if (c == '/' && pos + 1 < s.size() && s[pos + 1] == '*') {
      const std::size_t end = s.find("*/", pos + 2);
      const std::size_t stop = end == std::string_view::npos ? s.size() : end + 2;
      for (; pos < stop; ++pos)
        if (s[pos] == '\n') newline_at(pos);
      continue;
    }
    SourceToken t;
    t.offset = pos;
    t.line = line;
    t.column = static_cast<std::uint32_t>(pos - line_start + 1);
    t.first_on_line = first;
    first = false;
    if (starts_identifier(c)) {
      while (pos < s.size() && continues_identifier(s[pos])) ++pos;
      t.identifier = true;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (pos < s.size() && (continues_identifier(s[pos]) || s[pos] == '.')) ++pos;
    } else if (c == '"') {
      ++pos;
      while (pos < s.size() && s[pos] != '"' && s[pos] != '\n') ++pos;
      if (pos < s.size() && s[pos] == '"') ++pos;
    } else {
      ++pos;
    }
    t.text = s.substr(t.offset, pos - t.offset);
    tokens.push_back(t);
  }
  return tokens;
}

std::size_t end_of_line(const std::vector<SourceToken>& tokens, std::size_t begin) {
  std::size_t i = begin + 1;
  while (i < tokens.size() && !tokens[i].first_on_line) ++i;
  return i;
}

std::vector<MacroDefinition> macro_definitions(const std::vector<SourceToken>& t) {
  std::vector<MacroDefinition> defs;
  std::size_t i = 0;
  const auto same_line = [&](std::size_t k) { return k < t.size() && !t[k].first_on_line; };
  while (i < t.size()) {
    if (!(t[i].first_on_line && t[i].text == "#" && same_line(i + 1) && t[i + 1].text == "define" && same_line(i + 2) &&
          t[i + 2].identifier)) {
      ++i;
      continue;
    }
    MacroDefinition d;
    d.name = i + 2;
    i += 3;
    if (same_line(i) && t[i].text == "(" && t[i].offset == t[d.name].offset + t[d.name].text.size()) {
      d.function_like = true;
      d.params_begin = ++i;
      while (same_line(i) && t[i].text != ")") ++i;
      d.params_end = i;
      if (same_line(i)) ++i;
    }
    d.body_begin = i;
    while (same_line(i)) ++i;
    d.body_end = i;
    defs.push_back(d);
  }
  return defs;
}

}  // namespace sluice::glsl_in::detail
