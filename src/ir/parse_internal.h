// Internals of the text-form parser (parse.h), shared by parse.cpp (lines,
// tokens, header), parse_tables.cpp (types, constants, variables, globals)
// and parse_function.cpp (functions, block trees, instructions). Not part
// of the IR's interface.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/parse.h"

namespace sluice::ir::parse_detail {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_word_char(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

inline std::optional<Precision> precision_from_word(std::string_view w) {
  if (w == "lowp") return Precision::Low;
  if (w == "mediump") return Precision::Medium;
  if (w == "highp") return Precision::High;
  return std::nullopt;
}

// One line of the text, read left to right. Columns are 1-based byte offsets.
class Cursor {
 public:
  Cursor(std::string_view text, std::uint32_t line) : text_(text), line_(line) {}

  std::uint32_t line() const { return line_; }
  std::uint32_t column() const { return static_cast<std::uint32_t>(pos_ + 1); }
  bool at_end() const { return pos_ >= text_.size(); }
  // '\0' at the end of the line.
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
  std::string_view rest() const { return text_.substr(pos_); }
  void advance(std::size_t n = 1) { pos_ = std::min(text_.size(), pos_ + n); }
  bool consume(char c) {
    if (at_end() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  bool consume(std::string_view s) {
    if (!rest().starts_with(s)) return false;
    pos_ += s.size();
    return true;
  }
  void skip_spaces() {
    while (!at_end() && text_[pos_] == ' ') ++pos_;
  }
  // The longest run of letters, digits and '_' here (possibly empty).
  std::string_view word() {
    const std::size_t start = pos_;
    while (!at_end() && is_word_char(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }

 private:
  std::string_view text_;
  std::uint32_t line_;
  std::size_t pos_ = 0;
};

// `[name, name=value, ...]` as written after types and variables.
struct Attribute {
  std::string_view name;
  std::optional<std::string_view> value;
  std::uint32_t column = 0;  // of the name
};

// A register the text defines (an instruction result or a merge input).
struct RegisterDefinition {
  RegisterInfo info;
  std::uint32_t line = 0;  // 0 while no line defines it
  bool defined() const { return line != 0; }
};

// A reference whose target may be defined further down (registers,
// functions); checked once the whole text is read.
struct ForwardReference {
  std::uint32_t id = 0;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

// Reads one text into one module. Every bool member returns false once it
// has recorded an error (only the first is kept); parsing stops there.
class Parser {
 public:
  Parser(std::string_view text, std::string_view file_name);
  ParseResult run();

 private:
  struct Line {
    std::string_view text;  // without the line break (and a trailing '\r')
    std::uint32_t number = 0;
  };

  // --- parse.cpp: lines, tokens, header ---
  // The next line that is not blank, without consuming it.
  std::optional<Line> peek_line();
  void next_line();  // consumes the line peek_line() returned

  bool fail(std::uint32_t line, std::uint32_t column, std::string message);
  bool fail(const Cursor& c, std::string message) { return fail(c.line(), c.column(), std::move(message)); }
  bool fail_at_end(std::string_view expected);

  bool expect(Cursor& c, std::string_view text);
  // Errors point at `column`, or at the digits when it is 0.
  bool number(Cursor& c, std::uint32_t& out, std::string_view what, std::uint32_t column = 0);
  bool signed_number(Cursor& c, std::int64_t& out, std::int64_t min, std::int64_t max, std::string_view what);
  // `<letter><digits>`, e.g. t5.
  bool id(Cursor& c, char letter, std::uint32_t& out, std::string_view what);
  // A type id below `limit`: the type being defined (a type refers to
  // earlier ones), or the number of types.
  enum class Refers { Earlier, Any };
  bool type_ref(Cursor& c, std::uint32_t limit, TypeId& out, Refers refers = Refers::Earlier);
  bool type_ref(Cursor& c, TypeId& out) {
    return type_ref(c, static_cast<std::uint32_t>(module_.type_count()), out, Refers::Any);
  }
  bool constant_ref(Cursor& c, std::uint32_t limit, ConstantId& out, Refers refers = Refers::Earlier);
  bool variable_ref(Cursor& c, VariableId& out);
  bool precision_word(Cursor& c, Precision& out);
  bool quoted_name(Cursor& c, std::string_view& out);
  bool attributes(Cursor& c, std::vector<Attribute>& out);
  bool attribute_number(const Attribute& a, std::uint32_t line, std::uint32_t& out);
  bool expect_end(const Cursor& c);
  // `  <letter>N` with N the next id of its table.
  bool entry_id(Cursor& c, char letter, std::uint32_t expected, std::string_view what);

  bool parse_header();
  bool parse_section_title(std::string_view title);
  bool resolve();

  // --- parse_tables.cpp: Types, Constants, Variables, Globals ---
  bool parse_types();
  bool parse_type(Cursor& c, std::uint32_t self, Type& t);
  bool parse_struct(Cursor& c, std::uint32_t self, Type& t);
  bool parse_image(Cursor& c, Type& t);
  bool parse_constants();
  bool parse_scalar_value(Cursor& c, ScalarKind kind, std::uint32_t& bits);
  bool parse_double_value(Cursor& c, Constant& k);
  bool parse_variables();
  bool parse_variable_attributes(Cursor& c, Variable& v);
  bool parse_globals();

  // --- parse_function.cpp: functions, block trees, instructions ---
  bool parse_functions();
  bool parse_function_header(Cursor& c, Function& f);
  bool parse_function_body(Function& f);
  bool parse_sub_block_title(Cursor& c, Opcode construct, std::uint32_t next_slot, std::uint32_t& slot,
                             std::optional<SwitchCase>& case_label);
  bool block_prefix(Cursor& c, std::uint32_t& depth);
  bool parse_declare(Cursor& c, Block& b);
  bool parse_input(Cursor& c, Block& b);
  bool parse_instruction(Cursor& c, Instruction& inst);
  bool parse_operand(Cursor& c, Operand& out);
  bool define_register(std::uint32_t id, const RegisterInfo& info, std::uint32_t line, std::uint32_t column);

  std::string_view text_;
  std::string file_;
  Module module_;
  Diagnostics diagnostics_;

  // Line reading: offset and number of the next unread line, and the line
  // peek_line() found (valid while peeked_at_ == pos_).
  std::size_t pos_ = 0;
  std::uint32_t line_number_ = 1;
  std::size_t peeked_at_ = std::string_view::npos;
  std::size_t peeked_end_ = 0;  // offset just past the peeked line's break
  Line peeked_;

  // Registers are module-level and may be used before the line that
  // defines them (a continue block prints after the body); they are
  // created once the whole text is read.
  std::uint32_t register_limit_ = 0;
  std::vector<RegisterDefinition> registers_;
  std::vector<ForwardReference> register_uses_;
  std::vector<ForwardReference> function_uses_;
};

}  // namespace sluice::ir::parse_detail
