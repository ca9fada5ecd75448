// The scan of block_names.h. One pass over the tokens, with the brace and
// parenthesis depth: only tokens at global scope (depth 0 of both) can
// declare functions or blocks. Preprocessor lines left in the output
// (#version, #extension, #line, #pragma) are read for the version and the
// position and otherwise skipped.
#include "frontend/glsl/block_names.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>

namespace sluice::glsl_in::detail {
namespace {

bool is_identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// What may stand right before a block's name: a qualifier (`uniform`,
// `buffer`, `in`, `readonly`, an extension's storage such as
// `rayPayloadEXT`: any word but `struct`) or the `)` of a layout
// qualifier, which alone declares a block too (glslang's grammar:
// type_qualifier IDENTIFIER LEFT_BRACE).
bool may_precede_block_name(std::string_view token, bool identifier) {
  return identifier ? token != "struct" : token == ")";
}

struct Token {
  std::string_view text;
  Position at;
  bool identifier = false;
};

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  BlockNameScan run() {
    BlockNameScan scan;
    std::map<std::string, Position, std::less<>> functions;
    Token previous, current;
    int braces = 0, parens = 0;
    while (next(current, scan)) {
      if (current.text == "{") {
        ++braces;
      } else if (current.text == "}") {
        braces = std::max(braces - 1, 0);
      } else if (current.text == "(") {
        if (braces == 0 && parens == 0 && previous.identifier && previous.text != "layout" && before_previous_is_type_)
          functions.emplace(std::string(previous.text), previous.at);
        ++parens;
      } else if (current.text == ")") {
        parens = std::max(parens - 1, 0);
      }
      // `qualifier Name {` at global scope declares a block called Name.
      if (current.text == "{" && braces == 1 && parens == 0 && previous.identifier && before_previous_ok_) {
        BlockName b{std::string(previous.text), previous.at, false, {}};
        if (auto f = functions.find(previous.text); f != functions.end()) {
          b.clashes_with_function = true;
          b.function_at = f->second;
        }
        scan.blocks.push_back(std::move(b));
      }
      // The token before `previous` decides what `previous` is: a type or
      // qualifier before a name makes `name(` a function declaration.
      before_previous_is_type_ = previous.identifier || previous.text == "]";
      before_previous_ok_ = may_precede_block_name(previous.text, previous.identifier);
      previous = current;
    }
    return scan;
  }

 private:
  // The next token, skipping blanks and preprocessor lines; false at the end.
  bool next(Token& token, BlockNameScan& scan) {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++line_;
        line_start_ = ++pos_;
        at_line_start_ = true;
        continue;
      }
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
        continue;
      }
      // Comments (the raw source is scanned too, session.cpp): `//` to the
      // end of the line, `/* */` across lines.
      if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
        continue;
      }
      if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '*') {
        const std::size_t end = text_.find("*/", pos_ + 2);
        const std::size_t stop = end == std::string_view::npos ? text_.size() : end + 2;
        for (; pos_ < stop; ++pos_)
          if (text_[pos_] == '\n') {
            ++line_;
            line_start_ = pos_ + 1;
          }
        continue;
      }
      if (c == '#' && at_line_start_) {
        directive(scan);
        continue;
      }
      at_line_start_ = false;
      const std::size_t begin = pos_;
      token.at = {file_, line_, static_cast<std::uint32_t>(begin - line_start_ + 1)};
      if (is_identifier_start(c)) {
        while (pos_ < text_.size() && is_identifier_char(text_[pos_])) ++pos_;
        token.identifier = true;
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        while (pos_ < text_.size() && (is_identifier_char(text_[pos_]) || text_[pos_] == '.')) ++pos_;
        token.identifier = false;
      } else {
        ++pos_;
        token.identifier = false;
      }
      token.text = text_.substr(begin, pos_ - begin);
      return true;
    }
    return false;
  }

  // A preprocessor line: `#version N [es|core|compatibility]` and
  // `#line N ["file"]` matter; the rest is skipped.
  void directive(BlockNameScan& scan) {
    std::size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    std::string_view line = text_.substr(pos_ + 1, end - pos_ - 1);
    pos_ = end;
    auto word = [&line]() {
      while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) line.remove_prefix(1);
      std::size_t n = 0;
      while (n < line.size() && !std::isspace(static_cast<unsigned char>(line[n]))) ++n;
      std::string_view w = line.substr(0, n);
      line.remove_prefix(n);
      return w;
    };
    const std::string_view name = word();
    if (name == "version") {
      const std::string_view number = word();
      int v = 0;
      if (std::from_chars(number.data(), number.data() + number.size(), v).ec == std::errc()) {
        scan.version = v;
        const std::string_view profile = word();
        // GLSL ES 1.00 is version 100; 300 and 310/320 say `es`.
        scan.es = profile == "es" || v == 100;
      }
    } else if (name == "line") {
      const std::string_view number = word();
      std::uint32_t n = 0;
      if (std::from_chars(number.data(), number.data() + number.size(), n).ec == std::errc()) {
        // The line after the directive is line n (the newline ending the
        // directive adds one).
        line_ = n - 1;
        const std::string_view file = word();
        if (file.size() >= 2 && file.front() == '"' && file.back() == '"') file_ = std::string(file.substr(1, file.size() - 2));
      }
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0, line_start_ = 0;
  std::uint32_t line_ = 1;
  std::string file_;
  bool at_line_start_ = true;
  bool before_previous_is_type_ = false;
  bool before_previous_ok_ = false;
};

}  // namespace

BlockNameScan scan_block_names(std::string_view preprocessed) { return Scanner(preprocessed).run(); }

std::string space_before_line_continuations(std::string_view source) {
  const auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  // The length of a backslash-newline at `at` (\n or \r\n), or 0.
  const auto continuation = [&](std::size_t at) -> std::size_t {
    if (at >= source.size() || source[at] != '\\') return 0;
    if (at + 1 < source.size() && source[at + 1] == '\n') return 2;
    if (at + 2 < source.size() && source[at + 1] == '\r' && source[at + 2] == '\n') return 3;
    return 0;
  };
  std::string out;
  out.reserve(source.size());
  for (std::size_t i = 0; i < source.size(); ++i) {
    const std::size_t length = continuation(i);
    if (length && i > 0 && word_char(source[i - 1])) {
      const std::size_t next = i + length;
      if (next >= source.size() || !word_char(source[next])) out += ' ';
    }
    out += source[i];
  }
  return out;
}

}  // namespace sluice::glsl_in::detail
