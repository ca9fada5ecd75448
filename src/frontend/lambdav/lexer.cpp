// The λV lexer (see lexer.h). Positions are 1-based lines and byte columns.
#include "frontend/lambdav/lexer.h"

#include <charconv>

#include <fmt/format.h>

namespace sluice::lambdav {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_delimiter(char c) { return is_space(c) || c == '(' || c == ')' || c == ';'; }
// Bytes that cannot start or continue any token: control characters other
// than white space. (Bytes >= 0x80 are allowed so UTF-8 names work.)
bool is_control(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u < 0x20 && !is_space(c)) || u == 0x7f;
}

// A token "looks like" a number when it starts like one: a digit, or a sign
// or point followed by a digit. Such a token must then be a valid literal.
bool looks_numeric(std::string_view s) {
  std::size_t i = 0;
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '.') ++i;
  return i < s.size() && is_digit(s[i]);
}

}  // namespace

bool is_decimal_literal(std::string_view s) {
  std::size_t i = 0;
  if (i < s.size() && s[i] == '-') ++i;
  std::size_t digits = 0;
  while (i < s.size() && is_digit(s[i])) ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && is_digit(s[i])) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t exp_digits = 0;
    while (i < s.size() && is_digit(s[i])) ++i, ++exp_digits;
    if (exp_digits == 0) return false;
  }
  return i == s.size();
}

void Lexer::skip_space_and_comments() {
  while (pos_ < src_.size()) {
    const char c = src_[pos_];
    if (c == '\n') {
      ++pos_;
      ++line_;
      line_start_ = pos_;
    } else if (is_space(c)) {
      ++pos_;
    } else if (c == ';') {
      while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
    } else {
      return;
    }
  }
}

bool Lexer::number(Token& t) {
  if (!is_decimal_literal(t.text)) {
    sink_.error(t.line, t.column,
                fmt::format("malformed number '{}': numbers are decimal literals such as 1, -0.25, .5 or 2.5e-1",
                            t.text));
    return false;
  }
  float value = 0;
  const char* first = t.text.data();
  const char* last = first + t.text.size();
  const auto [end, ec] = std::from_chars(first, last, value);
  if (ec == std::errc::result_out_of_range) {
    sink_.error(t.line, t.column, fmt::format("number '{}' is out of range for a 32-bit float", t.text));
    return false;
  }
  if (ec != std::errc() || end != last) {
    sink_.error(t.line, t.column, fmt::format("malformed number '{}'", t.text));
    return false;
  }
  t.kind = TokenKind::Number;
  t.number = value;
  return true;
}

Token Lexer::next() {
  for (;;) {
    skip_space_and_comments();
    Token t;
    t.line = line_;
    t.column = static_cast<std::uint32_t>(pos_ - line_start_ + 1);
    if (pos_ >= src_.size()) {
      t.kind = TokenKind::End;
      return t;
    }
    const char c = src_[pos_];
    if (c == '(' || c == ')') {
      t.kind = c == '(' ? TokenKind::LParen : TokenKind::RParen;
      t.text = src_.substr(pos_, 1);
      ++pos_;
      return t;
    }
    if (c == '"') {
      // Skip to the closing quote on this line so the rest of the line is
      // not reported again as identifiers.
      std::size_t end = pos_ + 1;
      while (end < src_.size() && src_[end] != '"' && src_[end] != '\n') ++end;
      if (end < src_.size() && src_[end] == '"') ++end;
      sink_.error(t.line, t.column, "string literals are not part of λV");
      pos_ = end;
      continue;
    }
    const std::size_t start = pos_;
    bool bad_char = false;
    std::size_t bad_at = 0;
    while (pos_ < src_.size() && !is_delimiter(src_[pos_])) {
      if (src_[pos_] == '"' && !bad_char) break;
      if (is_control(src_[pos_]) && !bad_char) {
        bad_char = true;
        bad_at = pos_;
      }
      ++pos_;
    }
    t.text = src_.substr(start, pos_ - start);
    if (bad_char) {
      sink_.error(t.line, static_cast<std::uint32_t>(bad_at - line_start_ + 1),
                  fmt::format("unexpected control character 0x{:02x}", static_cast<unsigned char>(src_[bad_at])));
      continue;
    }
    if (t.text == "true") {
      t.kind = TokenKind::True;
      return t;
    }
    if (t.text == "false") {
      t.kind = TokenKind::False;
      return t;
    }
    if (looks_numeric(t.text)) {
      if (number(t)) return t;
      continue;
    }
    t.kind = TokenKind::Identifier;
    return t;
  }
}

}  // namespace sluice::lambdav
