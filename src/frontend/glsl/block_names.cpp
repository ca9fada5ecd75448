// The scan of block_names.h. One pass over the tokens (source_tokens.h), with the brace and
// parenthesis depth: only tokens at global scope (depth 0 of both) can
// declare functions or blocks. Preprocessor lines left in the output
// (#version, #extension, #line, #pragma) are read for the version and the
// position and otherwise skipped.
#include "frontend/glsl/block_names.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>

#include "frontend/glsl/source_tokens.h"

namespace sluice::glsl_in::detail {
namespace {

// What may stand right before a block's name: a qualifier (`uniform`,
// `buffer`, `in`, `readonly`, an extension's storage such as
// `rayPayloadEXT`: any word but `struct`) or the `)` of a layout
// qualifier, which alone declares a block too (glslang's grammar:
// type_qualifier IDENTIFIER LEFT_BRACE).
bool may_precede_block_name(std::string_view token, bool identifier) {
  return identifier ? token != "struct" : token == ")";
}

// Tokens of the text (source_tokens.h, which skips comments: the raw
// source is scanned too, session.cpp) with their positions as `#line`
// directives set them; the directives themselves are read for the version
// and the position and otherwise skipped.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : tokens_(tokenize_source(text)) {}

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
  struct Token {
    std::string_view text;
    Position at;
    bool identifier = false;
  };

  // The next token, skipping preprocessor lines; false at the end.
  bool next(Token& token, BlockNameScan& scan) {
    while (pos_ < tokens_.size()) {
      const SourceToken& t = tokens_[pos_];
      if (t.first_on_line && t.text == "#") {
        directive(scan);
        continue;
      }
      ++pos_;
      const std::int64_t line = std::clamp<std::int64_t>(t.line + line_delta_, 0, UINT32_MAX);
      token = {t.text, {file_, static_cast<std::uint32_t>(line), t.column}, t.identifier};
      return true;
    }
    return false;
  }

  // A preprocessor line: `#version N [es|core|compatibility]` and
  // `#line N ["file"]` matter; the rest is skipped.
  void directive(BlockNameScan& scan) {
    const std::size_t end = end_of_line(tokens_, pos_);
    const auto word = [&](std::size_t k) { return pos_ + k < end ? tokens_[pos_ + k].text : std::string_view(); };
    const std::string_view name = word(1), number = word(2), third = word(3);
    if (name == "version") {
      int v = 0;
      if (std::from_chars(number.data(), number.data() + number.size(), v).ec == std::errc()) {
        scan.version = v;
        // GLSL ES 1.00 is version 100; 300 and 310/320 say `es`.
        scan.es = third == "es" || v == 100;
      }
    } else if (name == "line") {
      std::int64_t n = 0;
      if (std::from_chars(number.data(), number.data() + number.size(), n).ec == std::errc()) {
        // The line after the directive is line n.
        line_delta_ = n - (static_cast<std::int64_t>(tokens_[end - 1].line) + 1);
        if (third.size() >= 2 && third.front() == '"' && third.back() == '"') file_ = std::string(third.substr(1, third.size() - 2));
      }
    }
    pos_ = end;
  }

  std::vector<SourceToken> tokens_;
  std::size_t pos_ = 0;
  std::int64_t line_delta_ = 0;  // the line a `#line` set, minus the physical line
  std::string file_;
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
