// Line-oriented tokens of an AmberScript file. '#' starts a comment outside
// shader bodies; shader bodies are taken verbatim up to a line holding END.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sluice::exec::amber {

struct Token {
  std::string text;
  int line = 0;  // 1-based
};

class Lexer {
 public:
  explicit Lexer(std::string_view text);

  // The next token, moving to later lines as needed; empty text at the end.
  Token next();
  Token peek();
  // True when no token is left on the current line.
  bool at_line_end();
  // The number of the line the next token comes from.
  int line() { return peek().line; }
  // Raw lines after the current one up to (not including) a line whose only
  // word is END, which is consumed; `found_end` reports whether there was one.
  std::string raw_block(bool& found_end);

 private:
  void load_line(size_t index);

  std::vector<std::string_view> lines_;
  size_t line_index_ = 0;  // the line `tokens_` came from
  std::vector<std::string> tokens_;
  size_t token_index_ = 0;
};

}  // namespace sluice::exec::amber
