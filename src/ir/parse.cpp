// The text-form parser, part 1: reading lines and tokens, the module header,
// and the final resolution of forward references. The Types / Constants /
// Variables / Globals sections are in parse_tables.cpp, function bodies in
// parse_function.cpp. The grammar is in docs/ir.md ("Text form grammar").
#include <charconv>
#include <limits>

#include <fmt/format.h>

#include "ir/parse_internal.h"
#include "ir/predefined.h"

namespace sluice::ir {
namespace parse_detail {

Parser::Parser(std::string_view text, std::string_view file_name) : text_(text), file_(file_name) {
  // A register id costs a table entry; without a bound, "r4000000000" in a
  // ten-byte text would allocate gigabytes.
  const std::uint64_t limit = static_cast<std::uint64_t>(text.size()) + 65536;
  register_limit_ = static_cast<std::uint32_t>(std::min<std::uint64_t>(limit, Operand::kMaxValue));
}

ParseResult Parser::run() {
  if (parse_header() && parse_section_title("Types:") && parse_types() && parse_constants() && parse_variables() &&
      parse_globals() && parse_functions() && resolve())
    return ParseResult{std::move(module_), {}};
  return ParseResult{std::nullopt, std::move(diagnostics_)};
}

// --- Lines and tokens ---

std::optional<Parser::Line> Parser::peek_line() {
  if (peeked_at_ == pos_) return peeked_;
  while (pos_ < text_.size()) {
    const std::size_t brk = text_.find('\n', pos_);
    const std::size_t stop = brk == std::string_view::npos ? text_.size() : brk;
    std::string_view line = text_.substr(pos_, stop - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::size_t next = brk == std::string_view::npos ? text_.size() : brk + 1;
    if (line.find_first_not_of(" \t") != std::string_view::npos) {
      peeked_at_ = pos_;
      peeked_end_ = next;
      peeked_ = Line{line, line_number_};
      return peeked_;
    }
    pos_ = next;  // blank lines carry no meaning
    ++line_number_;
  }
  return std::nullopt;
}

void Parser::next_line() {
  if (peeked_at_ != pos_ && !peek_line()) return;
  pos_ = peeked_end_;
  ++line_number_;
}

bool Parser::fail(std::uint32_t line, std::uint32_t column, std::string message) {
  if (diagnostics_.empty()) diagnostics_.push_back(Diagnostic{Severity::Error, file_, line, column, std::move(message)});
  return false;
}

bool Parser::fail_at_end(std::string_view expected) {
  return fail(line_number_, 1, fmt::format("unexpected end of file; expected {}", expected));
}

bool Parser::expect(Cursor& c, std::string_view text) {
  if (c.consume(text)) return true;
  return fail(c, fmt::format("expected '{}'", text));
}

bool Parser::expect_end(const Cursor& c) {
  if (c.at_end()) return true;
  return fail(c, fmt::format("unexpected '{}' at the end of the line", c.rest().substr(0, 20)));
}

bool Parser::number(Cursor& c, std::uint32_t& out, std::string_view what, std::uint32_t column) {
  if (column == 0) column = c.column();
  if (!is_digit(c.peek())) return fail(c.line(), column, fmt::format("expected {}", what));
  std::uint64_t value = 0;
  while (is_digit(c.peek())) {
    value = value * 10 + static_cast<std::uint64_t>(c.peek() - '0');
    if (value > std::numeric_limits<std::uint32_t>::max()) return fail(c.line(), column, "number too large");
    c.advance();
  }
  out = static_cast<std::uint32_t>(value);
  return true;
}

bool Parser::signed_number(Cursor& c, std::int64_t& out, std::int64_t min, std::int64_t max, std::string_view what) {
  const std::uint32_t column = c.column();
  const bool negative = c.consume('-');
  std::uint32_t magnitude = 0;
  if (!number(c, magnitude, what)) return false;
  out = negative ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
  if (out < min || out > max) return fail(c.line(), column, fmt::format("{} is out of range for {}", out, what));
  return true;
}

bool Parser::id(Cursor& c, char letter, std::uint32_t& out, std::string_view what) {
  const std::uint32_t column = c.column();
  if (c.peek() != letter || !is_digit(c.peek(1))) return fail(c, fmt::format("expected {}", what));
  c.advance();
  return number(c, out, what, column);
}

bool Parser::type_ref(Cursor& c, std::uint32_t limit, TypeId& out, Refers refers) {
  const std::uint32_t column = c.column();
  std::uint32_t n = 0;
  if (!id(c, 't', n, "a type id (tN)")) return false;
  if (n >= limit) {
    if (refers == Refers::Earlier)
      return fail(c.line(), column, fmt::format("t{} is not listed before t{}: a type refers to earlier types", n, limit));
    return fail(c.line(), column, fmt::format("t{} does not exist", n));
  }
  out = TypeId(n);
  return true;
}

bool Parser::constant_ref(Cursor& c, std::uint32_t limit, ConstantId& out, Refers refers) {
  const std::uint32_t column = c.column();
  std::uint32_t n = 0;
  if (!id(c, 'c', n, "a constant id (cN)")) return false;
  if (n >= limit) {
    if (refers == Refers::Earlier)
      return fail(c.line(), column,
                  fmt::format("c{} is not listed before c{}: a composite refers to earlier constants", n, limit));
    return fail(c.line(), column, fmt::format("c{} does not exist", n));
  }
  out = ConstantId(n);
  return true;
}

bool Parser::variable_ref(Cursor& c, VariableId& out) {
  const std::uint32_t column = c.column();
  std::uint32_t n = 0;
  if (!id(c, 'v', n, "a variable id (vN)")) return false;
  if (n >= module_.variable_count()) return fail(c.line(), column, fmt::format("v{} does not exist", n));
  out = VariableId(n);
  return true;
}

bool Parser::precision_word(Cursor& c, Precision& out) {
  const std::uint32_t column = c.column();
  auto p = precision_from_word(c.word());
  if (!p) return fail(c.line(), column, "expected a precision: lowp, mediump or highp");
  out = *p;
  return true;
}

bool Parser::quoted_name(Cursor& c, std::string_view& out) {
  if (!expect(c, "'")) return false;
  const std::string_view rest = c.rest();
  const std::size_t close = rest.find('\'');
  if (close == std::string_view::npos) return fail(c, "unterminated name: expected a closing '");
  out = rest.substr(0, close);
  c.advance(close + 1);
  return true;
}

bool Parser::attributes(Cursor& c, std::vector<Attribute>& out) {
  if (!expect(c, "[")) return false;
  for (;;) {
    Attribute a;
    a.column = c.column();
    a.name = c.word();
    if (a.name.empty()) return fail(c, "expected an attribute name");
    if (c.consume('=')) {
      const std::uint32_t column = c.column();
      // A value may be negative (secondary_view_offset=-1); the sign stays
      // part of it, and the numbers' readers decide.
      const bool negative = c.consume('-');
      const std::string_view w = c.word();
      a.value = negative ? std::string_view(w.data() - 1, w.size() + 1) : w;
      if (w.empty()) return fail(c.line(), column, fmt::format("expected a value for '{}'", a.name));
    }
    out.push_back(a);
    if (c.consume(']')) return true;
    if (!c.consume(", ")) return fail(c, "expected ', ' or ']' in the attribute list");
  }
}

bool Parser::attribute_number(const Attribute& a, std::uint32_t line, std::uint32_t& out) {
  if (!a.value) return fail(line, a.column, fmt::format("'{}' needs a value: {}=N", a.name, a.name));
  const std::string_view v = *a.value;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out, 10);
  if (ec != std::errc() || end != v.data() + v.size() || !is_digit(v.front()))
    return fail(line, a.column + static_cast<std::uint32_t>(a.name.size()) + 1,
                fmt::format("'{}' needs a number below 2^32", a.name));
  return true;
}

bool Parser::entry_id(Cursor& c, char letter, std::uint32_t expected, std::string_view what) {
  if (!c.consume("  ") || c.peek() != letter || !is_digit(c.peek(1)))
    return fail(c, fmt::format("expected {} '  {}{}'", what, letter, expected));
  const std::uint32_t column = c.column();
  std::uint32_t n = 0;
  if (!id(c, letter, n, what)) return false;
  if (n != expected)
    return fail(c.line(), column,
                fmt::format("expected {}{}, not {}{}: ids are listed densely and in order", letter, expected, letter, n));
  return true;
}

// --- Header ---

namespace {

// The enumerator of E (0 .. last) whose to_string is `w`; None's word
// ("none") is not one a header writes.
template <class E>
std::optional<E> enum_from_word(std::string_view w, E last) {
  for (std::uint32_t i = 1; i <= static_cast<std::uint32_t>(last); ++i)
    if (w == to_string(static_cast<E>(i))) return static_cast<E>(i);
  return std::nullopt;
}

}  // namespace

bool Parser::parse_header() {
  auto l = peek_line();
  if (!l) return fail_at_end("a shader header such as 'Fragment Shader'");
  Cursor c(l->text, l->number);
  const std::string_view stage = c.word();
  ShaderInfo& s = module_.shader();
  if (stage == "Vertex") {
    s.stage = ShaderStage::Vertex;
  } else if (stage == "Fragment") {
    s.stage = ShaderStage::Fragment;
  } else if (stage == "Compute") {
    s.stage = ShaderStage::Compute;
  } else if (stage == "Geometry") {
    s.stage = ShaderStage::Geometry;
  } else if (stage == "TessControl") {
    s.stage = ShaderStage::TessControl;
  } else if (stage == "TessEvaluation") {
    s.stage = ShaderStage::TessEvaluation;
  } else {
    return fail(l->number, 1,
                "expected a shader header: 'Vertex Shader', 'Fragment Shader', 'Compute Shader', 'Geometry Shader', "
                "'TessControl Shader' or 'TessEvaluation Shader'");
  }
  if (!expect(c, " Shader") || !expect_end(c)) return false;
  next_line();
  // Shader attributes, one per line, in any order.
  for (l = peek_line(); l && l->text.starts_with('['); l = peek_line()) {
    Cursor a(l->text, l->number);
    auto enum_word = [&](Cursor& at, auto last, auto& out, std::string_view what) {
      const std::uint32_t column = at.column();
      const auto e = enum_from_word(at.word(), last);
      if (!e) return fail(l->number, column, fmt::format("expected {}", what));
      out = *e;
      return true;
    };
    if (a.consume("[Early fragment tests]")) {
      s.early_fragment_tests = true;
    } else if (a.consume("[Depth replacing]")) {
      s.depth_replacing = true;
    } else if (a.consume("[Transform feedback]")) {
      s.transform_feedback = true;
    } else if (a.consume("[Input primitive ")) {
      if (!enum_word(a, Primitive::Isolines, s.input_primitive, "a primitive (points, lines, triangles, quads, ...)") || !expect(a, "]")) return false;
    } else if (a.consume("[Output primitive ")) {
      if (!enum_word(a, Primitive::Isolines, s.output_primitive, "a primitive (points, line_strip, triangle_strip, ...)") || !expect(a, "]")) return false;
    } else if (a.consume("[Output vertices ")) {
      std::uint32_t n = 0;
      if (!number(a, n, "a vertex count") || !expect(a, "]")) return false;
      s.output_vertices = n;
    } else if (a.consume("[Invocations ")) {
      std::uint32_t n = 0;
      if (!number(a, n, "an invocation count") || !expect(a, "]")) return false;
      s.invocations = n;
    } else if (a.consume("[Spacing ")) {
      if (!enum_word(a, TessSpacing::FractionalOdd, s.spacing, "equal_spacing, fractional_even_spacing or fractional_odd_spacing") || !expect(a, "]")) return false;
    } else if (a.consume("[Vertex order ")) {
      if (!enum_word(a, VertexOrder::Ccw, s.order, "cw or ccw") || !expect(a, "]")) return false;
    } else if (a.consume("[Point mode]")) {
      s.point_mode = true;
    } else if (a.consume("[Local size ids ")) {
      for (std::size_t i = 0; i < 3; ++i) {
        if (i > 0 && !expect(a, ", ")) return false;
        if (a.consume('-')) continue;
        std::uint32_t spec = 0;
        if (!number(a, spec, "a specialization constant id or -")) return false;
        s.local_size_spec_id[i] = spec;
      }
      if (!expect(a, "]")) return false;
    } else if (a.consume("[Local size ")) {
      for (std::size_t i = 0; i < 3; ++i)
        if ((i > 0 && !expect(a, ", ")) || !number(a, s.local_size[i], "a local size")) return false;
      if (!expect(a, "]")) return false;
    } else {
      return fail(a, "unknown shader attribute; expected [Early fragment tests], [Depth replacing], "
                     "[Transform feedback], [Local size X, Y, Z], [Local size ids X, Y, Z], [Input primitive P], "
                     "[Output primitive P], [Output vertices N], [Invocations N], [Spacing S], [Vertex order O] "
                     "or [Point mode]");
    }
    if (!expect_end(a)) return false;
    next_line();
  }
  return true;
}

bool Parser::parse_section_title(std::string_view title) {
  auto l = peek_line();
  if (!l) return fail_at_end(fmt::format("'{}'", title));
  if (l->text != title) return fail(l->number, 1, fmt::format("expected '{}'", title));
  next_line();
  return true;
}

// --- After the last line ---

bool Parser::resolve() {
  for (const ForwardReference& use : register_uses_)
    if (use.id >= registers_.size() || !registers_[use.id].defined())
      return fail(use.line, use.column, fmt::format("r{} is never defined", use.id));
  for (const ForwardReference& use : function_uses_)
    if (use.id >= module_.function_count())
      return fail(use.line, use.column, fmt::format("f{} does not exist", use.id));
  // Ids nobody defines (the module had dropped those registers) get void.
  module_.reserve_registers(registers_.size());
  for (const RegisterDefinition& r : registers_)
    module_.new_register(r.defined() ? r.info.type : predefined::kVoid, r.info.precision);
  return true;
}

}  // namespace parse_detail

ParseResult parse_module(std::string_view text, std::string_view file_name) {
  return parse_detail::Parser(text, file_name).run();
}

}  // namespace sluice::ir
