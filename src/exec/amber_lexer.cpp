// Tokenizing AmberScript line by line.
#include "exec/amber_lexer.h"

#include <cctype>

namespace sluice::exec::amber {

Lexer::Lexer(std::string_view text) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines_.push_back(line);
    start = end + 1;
  }
  load_line(0);
}

void Lexer::load_line(size_t index) {
  line_index_ = index;
  tokens_.clear();
  token_index_ = 0;
  if (index >= lines_.size()) return;
  std::string_view line = lines_[index];
  const size_t hash = line.find('#');
  if (hash != std::string_view::npos) line = line.substr(0, hash);
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    size_t j = i;
    while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
    if (j > i) tokens_.emplace_back(line.substr(i, j - i));
    i = j;
  }
}

Token Lexer::peek() {
  while (token_index_ >= tokens_.size() && line_index_ < lines_.size()) load_line(line_index_ + 1);
  if (token_index_ >= tokens_.size()) return {"", static_cast<int>(lines_.size())};
  return {tokens_[token_index_], static_cast<int>(line_index_) + 1};
}

Token Lexer::next() {
  Token t = peek();
  if (!t.text.empty()) ++token_index_;
  return t;
}

bool Lexer::at_line_end() { return token_index_ >= tokens_.size(); }

std::string Lexer::raw_block(bool& found_end) {
  std::string block;
  found_end = false;
  size_t i = line_index_ + 1;
  for (; i < lines_.size(); ++i) {
    std::string_view line = lines_[i];
    const size_t first = line.find_first_not_of(" \t");
    const size_t last = line.find_last_not_of(" \t");
    if (first != std::string_view::npos && line.substr(first, last - first + 1) == "END") {
      found_end = true;
      break;
    }
    block.append(line);
    block.push_back('\n');
  }
  load_line(i + 1 <= lines_.size() ? i + 1 : lines_.size());
  return block;
}

}  // namespace sluice::exec::amber
