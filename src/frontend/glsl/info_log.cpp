// Parsing glslang's info log. Its lines look like
//   ERROR: shader.frag:4: 'foo' : undeclared identifier
//   WARNING: shader.frag:2: '#extension' : extension not supported: ...
//   ERROR: Linking fragment stage: Missing entry point: ...
//   ERROR: 2 compilation errors.  No code generated.
// The summary lines repeat what the others said and are dropped.
#include "frontend/glsl/info_log.h"

#include <charconv>
#include <string>

namespace sluice::glsl_in::detail {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r' || s.back() == '\t')) s.remove_suffix(1);
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  return s;
}

std::string_view source_line(std::string_view source, std::uint32_t line) {
  std::size_t start = 0;
  for (std::uint32_t l = 1; l < line; ++l) {
    start = source.find('\n', start);
    if (start == std::string_view::npos) return {};
    ++start;
  }
  const std::size_t end = source.find('\n', start);
  return source.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

// "<name>:<line>: rest" -> name, line and rest; the name may itself hold
// colons.
bool split_position(std::string_view text, std::string_view file, std::string_view& name, std::uint32_t& line,
                    std::string_view& rest) {
  std::size_t search_from = 0;
  if (!file.empty() && text.starts_with(file) && text.size() > file.size() && text[file.size()] == ':')
    search_from = file.size();
  for (std::size_t colon = text.find(':', search_from); colon != std::string_view::npos;
       colon = text.find(':', colon + 1)) {
    std::size_t end = colon + 1;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    if (end == colon + 1 || end >= text.size() || text[end] != ':') continue;
    std::uint32_t value = 0;
    if (std::from_chars(text.data() + colon + 1, text.data() + end, value).ec != std::errc()) continue;
    name = text.substr(0, colon);
    line = value;
    rest = trim(text.substr(end + 1));
    return true;
  }
  return false;
}

}  // namespace

void append_info_log(std::string_view log, std::string_view file, const SourceOf& source_of, Diagnostics& out) {
  while (!log.empty()) {
    const std::size_t nl = log.find('\n');
    std::string_view text = log.substr(0, nl);
    log = nl == std::string_view::npos ? std::string_view() : log.substr(nl + 1);
    Diagnostic d;
    d.file = std::string(file);
    if (text.starts_with("ERROR: ")) {
      d.severity = Severity::Error;
      text.remove_prefix(7);
    } else if (text.starts_with("WARNING: ")) {
      d.severity = Severity::Warning;
      text.remove_prefix(9);
    } else {
      continue;
    }
    text = trim(text);
    if (text.find("compilation errors.") != std::string_view::npos ||
        text.find("compilation terminated") != std::string_view::npos)
      continue;
    std::string_view message = text;
    std::uint32_t line = 0;
    std::string_view name;
    if (split_position(text, file, name, line, message)) {
      if (!name.empty()) d.file = std::string(name);  // an included file's messages name it
      d.line = line;
      d.column = 1;
      if (message.starts_with('\'')) {
        const std::size_t close = message.find('\'', 1);
        const std::string_view token = close == std::string_view::npos ? std::string_view() : message.substr(1, close - 1);
        const std::string_view src = source_line(source_of(d.file), line);
        if (!token.empty())
          if (const std::size_t at = src.find(token); at != std::string_view::npos)
            d.column = static_cast<std::uint32_t>(at + 1);
      }
    }
    // glslang quotes the offending token first; an empty one says nothing.
    if (message.starts_with("'' :")) message = trim(message.substr(4));
    d.message = std::string(trim(message));
    if (!d.message.empty()) out.push_back(std::move(d));
  }
}

}  // namespace sluice::glsl_in::detail
