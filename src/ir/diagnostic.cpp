#include "ir/diagnostic.h"

#include <fmt/format.h>

namespace sluice {

std::string render(const Diagnostic& d, std::string_view source) {
  const char* kind = d.severity == Severity::Error ? "error" : "warning";
  std::string out;
  if (d.line > 0)
    out = fmt::format("{}:{}:{}: {}: {}\n", d.file, d.line, d.column, kind, d.message);
  else
    out = fmt::format("{}: {}: {}\n", d.file, kind, d.message);
  if (d.line == 0 || source.empty()) return out;
  std::size_t start = 0;
  for (std::uint32_t l = 1; l < d.line && start != std::string_view::npos; ++l) {
    start = source.find('\n', start);
    if (start != std::string_view::npos) ++start;
  }
  if (start == std::string_view::npos || start > source.size()) return out;
  std::size_t end = source.find('\n', start);
  std::string_view text = source.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  // Very long lines (minified input) are cut around the column.
  std::size_t col = d.column > 0 ? d.column - 1 : 0;
  std::size_t from = 0;
  if (text.size() > 160 && col > 80) from = col - 80;
  text = text.substr(std::min(from, text.size()), 160);
  std::string caret;
  for (std::size_t i = from; i < col && i - from < text.size(); ++i) caret += text[i - from] == '\t' ? '\t' : ' ';
  out += fmt::format("{}\n{}^\n", text, caret);
  return out;
}

std::string render(const Diagnostics& ds, std::string_view source) {
  std::string out;
  for (const auto& d : ds) out += render(d, source);
  return out;
}

bool has_errors(const Diagnostics& ds) {
  for (const auto& d : ds)
    if (d.severity == Severity::Error) return true;
  return false;
}

}  // namespace sluice
