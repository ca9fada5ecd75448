// The λV lexer: turns source text into parentheses, numbers, booleans and
// identifiers. `;` starts a comment that runs to the end of the line. An
// identifier is any run of characters other than white space and
// parentheses that is not a number or a boolean; numbers are decimal
// literals only (1, -0.25, .5, 1e3, 2.5e-1). Malformed numbers, string
// literals and control characters are reported and skipped, so that one
// pass reports every lexical error.
#pragma once

#include <cstdint>
#include <string_view>

#include "frontend/lambdav/diagnostics.h"

namespace sluice::lambdav {

enum class TokenKind : std::uint8_t { LParen, RParen, Number, True, False, Identifier, End };

struct Token {
  TokenKind kind = TokenKind::End;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::string_view text;  // a view into the source
  float number = 0;       // Number only
};

class Lexer {
 public:
  Lexer(std::string_view source, DiagnosticSink& sink) : src_(source), sink_(sink) {}

  // The next token; End at the end of the input (and from then on).
  Token next();

 private:
  void skip_space_and_comments();
  // Scans a number token; false (after reporting) if it is malformed.
  bool number(Token& t);

  std::string_view src_;
  DiagnosticSink& sink_;
  std::size_t pos_ = 0;
  std::uint32_t line_ = 1;
  std::size_t line_start_ = 0;
};

// True for the spelling of a decimal literal: [-] (digits [. digits] | . digits) [e [+|-] digits].
bool is_decimal_literal(std::string_view s);

}  // namespace sluice::lambdav
