// The text-form parser, part 2: the module-level tables, in the order the
// dump prints them: Types, Constants, Variables and Globals. Types and
// constants are interned as they are read, so each must be new and its id
// must be the next one; the predefined ones must come first, unchanged.
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "ir/parse_internal.h"
#include "ir/predefined.h"
#include "ir/typing.h"

namespace sluice::ir::parse_detail {
namespace {

// How the dump spells each storage class in a variable's attributes;
// Function storage has no word.
constexpr std::array<std::pair<std::string_view, StorageClass>, 8> kStorageWords = {{
    {"private", StorageClass::Private},
    {"input", StorageClass::Input},
    {"output", StorageClass::Output},
    {"uniform", StorageClass::Uniform},
    {"buffer", StorageClass::StorageBuffer},
    {"push_constant", StorageClass::PushConstant},
    {"uniform_constant", StorageClass::UniformConstant},
    {"shared", StorageClass::Workgroup},
}};

// The length of the decimal number (digits, '.', 'e', signs) `rest` starts with.
std::size_t decimal_length(std::string_view rest) {
  std::size_t n = 0;
  while (n < rest.size() &&
         (is_digit(rest[n]) || rest[n] == '.' || rest[n] == 'e' || rest[n] == '-' || rest[n] == '+'))
    ++n;
  return n;
}

std::optional<ScalarKind> scalar_from_word(std::string_view w) {
  if (w == "float") return ScalarKind::Float;
  if (w == "int") return ScalarKind::Int;
  if (w == "uint") return ScalarKind::Uint;
  if (w == "bool") return ScalarKind::Bool;
  return std::nullopt;
}

// Undoes dumped_variable_name(): "_u<name>" is an interface name,
// "t<name>_<id>" a temporary, anything else an internal name.
Name decode_variable_name(std::string_view dumped, std::uint32_t id) {
  if (dumped.starts_with("_u")) return Name{std::string(dumped.substr(2)), NameSource::Interface};
  const std::string suffix = fmt::format("_{}", id);
  if (dumped.size() >= 1 + suffix.size() && dumped.front() == 't' && dumped.ends_with(suffix))
    return Name{std::string(dumped.substr(1, dumped.size() - 1 - suffix.size())), NameSource::Temporary};
  return Name{std::string(dumped), NameSource::Internal};
}

}  // namespace

// --- Types ---

bool Parser::parse_types() {
  std::uint32_t next = 0;
  for (auto l = peek_line(); l && l->text != "Constants:"; l = peek_line()) {
    Cursor c(l->text, l->number);
    if (!entry_id(c, 't', next, "a type") || !expect(c, ": ")) return false;
    Type t;
    if (!parse_type(c, next, t) || !expect_end(c)) return false;
    if (next < predefined::kTypeCount) {
      if (!(t == module_.type(TypeId(next))))
        return fail(l->number, 3,
                    fmt::format("t{} must be the predefined type {}", next, describe_type(module_, TypeId(next))));
    } else if (const TypeId got = module_.intern(t); got.index() != next) {
      return fail(l->number, 3, fmt::format("t{} repeats t{}: each type is listed once", next, got.index()));
    }
    ++next;
    next_line();
  }
  if (next < predefined::kTypeCount) {
    auto l = peek_line();
    const std::string message = fmt::format("t{} is missing: the predefined types t0-t{} come first", next,
                                            predefined::kTypeCount - 1);
    return l ? fail(l->number, 1, message) : fail_at_end(fmt::format("t{}", next));
  }
  return parse_section_title("Constants:");
}

bool Parser::parse_type(Cursor& c, std::uint32_t self, Type& t) {
  const std::uint32_t column = c.column();
  const std::string_view word = c.word();
  if (word == "void") {
    t = Type::make_void();
  } else if (word == "double") {
    t = Type::make_double();
  } else if (auto s = scalar_from_word(word)) {
    t = Type::make_scalar(*s);
  } else if (word == "Vector" || word == "Matrix" || word == "Array") {
    TypeId element;
    std::uint32_t n = 0;
    // An array sized by a specialization constant: [cK = default]. The
    // constant table comes after the types; the validator checks cK.
    std::uint32_t length = 0;
    if (!expect(c, " of ") || !type_ref(c, self, element) || !expect(c, "[")) return false;
    const bool has_length = word == "Array" && c.peek() == 'c';
    if ((has_length && (!id(c, 'c', length, "a constant id (cN)") || !expect(c, " = "))) ||
        !number(c, n, "a count") || !expect(c, "]"))
      return false;
    t = word == "Vector" ? Type::make_vector(element, n)
        : word == "Matrix" ? Type::make_matrix(element, n)
        : has_length       ? Type::make_spec_array(element, n, ConstantId(length))
                           : Type::make_array(element, n);
  } else if (word == "Unsized") {
    TypeId element;
    if (!expect(c, " array of ") || !type_ref(c, self, element)) return false;
    t = Type::make_unsized_array(element);
  } else if (word == "Pointer") {
    TypeId pointee;
    if (!expect(c, " to ") || !type_ref(c, self, pointee)) return false;
    StorageClass storage = StorageClass::Function;
    if (c.consume(" in ")) {
      const std::uint32_t at = c.column();
      auto named = storage_class_from_string(c.word());
      // Function storage is written by leaving " in ..." out.
      if (!named || *named == StorageClass::Function)
        return fail(c.line(), at, "expected a storage class such as Input, Output, Uniform or StorageBuffer");
      storage = *named;
    }
    t = Type::make_pointer(pointee, storage);
  } else if (word == "Sampler") {
    t = Type::make_sampler();
  } else if (word == "Sampled") {
    TypeId image;
    if (!expect(c, " image of ") || !type_ref(c, self, image)) return false;
    t = Type::make_sampled_image(image);
  } else if (word == "Image") {
    return parse_image(c, t);
  } else if (word == "Struct") {
    return parse_struct(c, self, t);
  } else {
    return fail(c.line(), column,
                "expected a type: void, float, int, uint, bool, Vector, Matrix, Array, Unsized array, Pointer, "
                "Sampler, Sampled image, Image or Struct");
  }
  return true;
}

bool Parser::parse_image(Cursor& c, Type& t) {
  ImageDescriptor d;
  if (!expect(c, " ")) return false;
  std::uint32_t column = c.column();
  auto sampled = scalar_from_word(c.word());
  if (!sampled) return fail(c.line(), column, "expected the image's sampled type: float, int, uint or bool");
  d.sampled_type = *sampled;
  if (!expect(c, " ")) return false;
  column = c.column();
  auto dim = image_dim_from_string(c.word());
  if (!dim) return fail(c.line(), column, "expected an image dimension: 1D, 2D, 3D, Cube, Rect, Buffer or SubpassData");
  d.dim = *dim;
  std::vector<Attribute> attrs;
  if (c.consume(' ') && !attributes(c, attrs)) return false;
  for (const Attribute& a : attrs) {
    if (a.name == "format" && a.value) {
      d.format = std::string(*a.value);
      continue;
    }
    bool* flag = a.name == "depth"          ? &d.depth
                 : a.name == "arrayed"      ? &d.arrayed
                 : a.name == "multisampled" ? &d.multisampled
                 : a.name == "storage"      ? &d.storage
                                            : nullptr;
    if (!flag || a.value)
      return fail(c.line(), a.column,
                  fmt::format("unknown image attribute '{}'; expected depth, arrayed, multisampled, storage or "
                              "format=F",
                              a.name));
    *flag = true;
  }
  t = Type::make_image(std::move(d));
  return true;
}

bool Parser::parse_struct(Cursor& c, std::uint32_t self, Type& t) {
  std::string_view name;
  if (!expect(c, " ") || !quoted_name(c, name)) return false;
  bool is_block = false;
  BlockLayout layout = BlockLayout::None;
  std::vector<Attribute> attrs;
  if (c.peek() == ' ' && c.peek(1) == '[') {
    c.advance();
    if (!attributes(c, attrs)) return false;
  }
  for (const Attribute& a : attrs) {
    if (a.name == "block" && !a.value) {
      is_block = true;
    } else if (a.name == "std140" && !a.value) {
      layout = BlockLayout::Std140;
    } else if (a.name == "std430" && !a.value) {
      layout = BlockLayout::Std430;
    } else {
      return fail(c.line(), a.column,
                  fmt::format("unknown struct attribute '{}'; expected block, std140 or std430", a.name));
    }
  }
  if (!expect(c, " {")) return false;
  std::vector<StructMember> members;
  if (!c.consume('}')) {
    for (;;) {
      StructMember m;
      std::string_view member_name;
      if (!type_ref(c, self, m.type) || !expect(c, " ") || !quoted_name(c, member_name)) return false;
      m.name = std::string(member_name);
      std::vector<Attribute> mattrs;
      if (c.peek() == ' ' && c.peek(1) == '[') {
        c.advance();
        if (!attributes(c, mattrs)) return false;
      }
      for (const Attribute& a : mattrs) {
        if (auto p = precision_from_word(a.name); p && !a.value) {
          m.precision = *p;
        } else if (a.name == "offset") {
          std::uint32_t offset = 0;
          if (!attribute_number(a, c.line(), offset)) return false;
          m.offset = offset;
        } else if (a.name == "xfb_offset") {
          std::uint32_t offset = 0;
          if (!attribute_number(a, c.line(), offset)) return false;
          m.xfb_offset = offset;
        } else if (a.name == "location") {
          std::uint32_t location = 0;
          if (!attribute_number(a, c.line(), location)) return false;
          m.location = location;
        } else if (a.name == "row_major" && !a.value) {
          m.matrix_layout = MatrixLayout::RowMajor;
        } else if (a.name == "column_major" && !a.value) {
          m.matrix_layout = MatrixLayout::ColumnMajor;
        } else if (a.name == "builtin" && a.value) {
          m.built_in = std::string(*a.value);
        } else {
          return fail(c.line(), a.column,
                      fmt::format("unknown member attribute '{}'; expected lowp, mediump, highp, offset=N, "
                                  "xfb_offset=N, location=N, row_major, column_major or builtin=B",
                                  a.name));
        }
      }
      members.push_back(std::move(m));
      if (c.consume('}')) break;
      if (!expect(c, ", ")) return false;
    }
  }
  t = Type::make_struct(std::string(name), std::move(members), is_block, layout);
  return true;
}

// --- Constants ---

bool Parser::parse_constants() {
  std::uint32_t next = 0;
  for (auto l = peek_line(); l && l->text != "Variables:"; l = peek_line()) {
    Cursor c(l->text, l->number);
    Constant k;
    if (!entry_id(c, 'c', next, "a constant") || !expect(c, " (") ||
        !type_ref(c, k.type) || !expect(c, "): "))
      return false;
    if (c.consume("composite(")) {
      for (;;) {
        ConstantId component;
        if (!constant_ref(c, next, component)) return false;
        k.components.push_back(component);
        if (c.consume(')')) break;
        if (!expect(c, ", ")) return false;
      }
    } else if (module_.type(k.type).width == 64) {
      if (!parse_double_value(c, k)) return false;
    } else if (!parse_scalar_value(c, module_.type(k.type).scalar, k.bits)) {
      return false;
    }
    if (c.consume(" [spec_id=")) {
      std::uint32_t spec = 0;
      if (!number(c, spec, "a specialization constant id") || !expect(c, "]")) return false;
      k.spec_id = spec;
    }
    if (c.consume(" [spec_op=")) {
      const std::uint32_t column = c.column();
      auto op = spec_op_from_string(c.word());
      if (!op) return fail(c.line(), column, "expected a specialization-constant operation such as IMul");
      k.spec_op = *op;
      while (c.consume(' ')) {
        ConstantId operand;
        if (!constant_ref(c, next, operand)) return false;
        k.operands.push_back(operand);
      }
      if (!expect(c, "]")) return false;
    }
    if (!expect_end(c)) return false;
    if (next < predefined::kConstantCount) {
      if (!(k == module_.constant(ConstantId(next))))
        return fail(l->number, 3, fmt::format("c{} must be the predefined constant c{} of ir/predefined.h", next, next));
    } else if (const ConstantId got = module_.intern(k); got.index() != next) {
      return fail(l->number, 3, fmt::format("c{} repeats c{}: each constant is listed once", next, got.index()));
    }
    ++next;
    next_line();
  }
  if (next < predefined::kConstantCount) {
    auto l = peek_line();
    const std::string message = fmt::format("c{} is missing: the predefined constants c0-c{} come first", next,
                                            predefined::kConstantCount - 1);
    return l ? fail(l->number, 1, message) : fail_at_end(fmt::format("c{}", next));
  }
  return parse_section_title("Variables:");
}

// A scalar as the dump writes it for a constant of this kind: true/false,
// decimal integers, and floats as format_float() spells them.
bool Parser::parse_scalar_value(Cursor& c, ScalarKind kind, std::uint32_t& bits) {
  const std::uint32_t column = c.column();
  switch (kind) {
    case ScalarKind::Bool: {
      const std::string_view w = c.word();
      if (w != "true" && w != "false") return fail(c.line(), column, "expected true or false");
      bits = w == "true" ? 1 : 0;
      return true;
    }
    case ScalarKind::Int: {
      std::int64_t v = 0;
      if (!signed_number(c, v, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max(),
                         "an int"))
        return false;
      bits = static_cast<std::uint32_t>(static_cast<std::int32_t>(v));
      return true;
    }
    case ScalarKind::Uint:
      return number(c, bits, "a uint");
    case ScalarKind::Float: {
      if (c.consume("nan(0x")) {
        const std::string_view rest = c.rest();
        std::uint32_t v = 0;
        auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), v, 16);
        if (ec != std::errc() || end == rest.data()) return fail(c, "expected the hexadecimal bits of a NaN");
        c.advance(static_cast<std::size_t>(end - rest.data()));
        if (!std::isnan(std::bit_cast<float>(v))) return fail(c.line(), column, "these bits are not a NaN");
        bits = v;
        return expect(c, ")");
      }
      const bool negative = c.peek() == '-';
      if (c.consume(negative ? "-inf" : "inf")) {
        bits = std::bit_cast<std::uint32_t>(negative ? -std::numeric_limits<float>::infinity()
                                                     : std::numeric_limits<float>::infinity());
        return true;
      }
      const std::string_view rest = c.rest();
      const std::size_t n = decimal_length(rest);
      float f = 0;
      auto [end, ec] = std::from_chars(rest.data(), rest.data() + n, f, std::chars_format::general);
      if (ec != std::errc() || end != rest.data() + n || n == 0)
        return fail(c.line(), column, "expected a float such as 1.0, -0.5, 1e+20, inf or nan(0x7fc00000)");
      c.advance(n);
      bits = std::bit_cast<std::uint32_t>(f);
      return true;
    }
  }
  return fail(c, "unknown scalar kind");
}

bool Parser::parse_double_value(Cursor& c, Constant& k) {
  // As format_double() spells them: nan(0x<16 hex digits>), inf, -inf or
  // a decimal that reads back as the same double.
  const std::uint32_t column = c.column();
  std::uint64_t v = 0;
  if (c.consume("nan(0x")) {
    const std::string_view rest = c.rest();
    auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), v, 16);
    if (ec != std::errc() || end == rest.data()) return fail(c, "expected the hexadecimal bits of a NaN");
    c.advance(static_cast<std::size_t>(end - rest.data()));
    if (!std::isnan(std::bit_cast<double>(v))) return fail(c.line(), column, "these bits are not a NaN");
    if (!expect(c, ")")) return false;
  } else if (const bool negative = c.peek() == '-'; c.consume(negative ? "-inf" : "inf")) {
    v = std::bit_cast<std::uint64_t>(negative ? -std::numeric_limits<double>::infinity()
                                              : std::numeric_limits<double>::infinity());
  } else {
    const std::string_view rest = c.rest();
    const std::size_t n = decimal_length(rest);
    double d = 0;
    auto [end, ec] = std::from_chars(rest.data(), rest.data() + n, d, std::chars_format::general);
    if (ec != std::errc() || end != rest.data() + n || n == 0)
      return fail(c.line(), column, "expected a double such as 1.0, -0.5, 1e+300, inf or nan(0x7ff8000000000000)");
    c.advance(n);
    v = std::bit_cast<std::uint64_t>(d);
  }
  k.bits = static_cast<std::uint32_t>(v);
  k.high_bits = static_cast<std::uint32_t>(v >> 32);
  return true;
}

// --- Variables and globals ---

bool Parser::parse_variables() {
  for (auto l = peek_line(); l && !l->text.starts_with("Globals:"); l = peek_line()) {
    Cursor c(l->text, l->number);
    const auto next = static_cast<std::uint32_t>(module_.variable_count());
    Variable v;
    std::string_view name;
    if (!entry_id(c, 'v', next, "a variable") || !expect(c, " (") ||
        !type_ref(c, v.type) || !expect(c, "): ") ||
        !quoted_name(c, name))
      return false;
    v.name = decode_variable_name(name, next);
    if (c.consume('=') && !constant_ref(c, static_cast<std::uint32_t>(module_.constant_count()), v.initializer, Refers::Any))
      return false;
    if (c.consume(' ') && !parse_variable_attributes(c, v)) return false;
    if (!expect_end(c)) return false;
    module_.add_variable(std::move(v));
    next_line();
  }
  return true;
}

bool Parser::parse_variable_attributes(Cursor& c, Variable& v) {
  std::vector<Attribute> attrs;
  if (!attributes(c, attrs)) return false;
  const Type& type = module_.type(v.type);
  const bool is_pointer = type.kind == TypeKind::Pointer;
  Decorations& d = v.decorations;
  for (const Attribute& a : attrs) {
    auto bad = [&] { return fail(c.line(), a.column, fmt::format("unknown variable attribute '{}'", a.name)); };
    if (auto p = precision_from_word(a.name)) {
      if (a.value) return bad();
      v.precision = *p;
      continue;
    }
    auto word = std::find_if(kStorageWords.begin(), kStorageWords.end(), [&](auto& w) { return w.first == a.name; });
    if (word != kStorageWords.end()) {
      // The storage word is the pointer type's storage class, written again
      // for the reader; it must agree with the type.
      if (a.value || !is_pointer || type.storage != word->second)
        return fail(c.line(), a.column,
                    fmt::format("'{}' does not match the storage class of t{}", a.name, v.type.index()));
      continue;
    }
    std::optional<std::uint32_t>* number_slot = a.name == "location"    ? &d.location
                                                : a.name == "component" ? &d.component
                                                : a.name == "index"     ? &d.index
                                                : a.name == "set"       ? &d.set
                                                : a.name == "binding"   ? &d.binding
                                                : a.name == "xfb_buffer" ? &d.xfb_buffer
                                                : a.name == "xfb_stride" ? &d.xfb_stride
                                                : a.name == "xfb_offset" ? &d.xfb_offset
                                                : a.name == "stream"     ? &d.stream
                                                                        : nullptr;
    if (number_slot) {
      std::uint32_t n = 0;
      if (!attribute_number(a, c.line(), n)) return false;
      *number_slot = n;
      continue;
    }
    if (a.name == "builtin") {
      if (!a.value) return fail(c.line(), a.column, "'builtin' needs a value: builtin=Name");
      d.built_in = std::string(*a.value);
      continue;
    }
    if (a.name == "secondary_view_offset") {
      // A signed offset: `-N` is read as the magnitude, then negated.
      Attribute magnitude = a;
      const bool negative = a.value && a.value->starts_with('-');
      if (negative) magnitude.value = a.value->substr(1);
      std::uint32_t n = 0;
      if (!attribute_number(magnitude, c.line(), n)) return false;
      if (n > (negative ? 0x80000000u : 0x7fffffffu))
        return fail(c.line(), a.column, "'secondary_view_offset' needs a 32-bit signed number");
      d.secondary_view_offset = negative ? static_cast<std::int32_t>(0u - n) : static_cast<std::int32_t>(n);
      continue;
    }
    if (a.value) return bad();
    if (a.name == "flat") {
      d.interpolation = Interpolation::Flat;
    } else if (a.name == "noperspective") {
      d.interpolation = Interpolation::NoPerspective;
    } else {
      bool* flag = a.name == "centroid"    ? &d.centroid
                   : a.name == "sample"    ? &d.sample
                   : a.name == "invariant" ? &d.invariant
                   : a.name == "readonly"  ? &d.readonly
                   : a.name == "writeonly" ? &d.writeonly
                   : a.name == "coherent"  ? &d.coherent
                   : a.name == "volatile"  ? &d.volatile_
                   : a.name == "restrict"  ? &d.restrict_
                   : a.name == "patch"     ? &d.patch
                   : a.name == "passthrough" ? &d.passthrough
                   : a.name == "viewport_relative" ? &d.viewport_relative
                                           : nullptr;
      if (!flag) return bad();
      *flag = true;
    }
  }
  return true;
}

bool Parser::parse_globals() {
  auto l = peek_line();
  if (!l) return fail_at_end("'Globals:'");
  Cursor c(l->text, l->number);
  if (!expect(c, "Globals:")) return false;
  if (c.consume(' ')) {
    for (;;) {
      VariableId v;
      if (!variable_ref(c, v)) return false;
      module_.globals().push_back(v);
      if (c.at_end()) break;
      if (!expect(c, ", ")) return false;
    }
  }
  if (!expect_end(c)) return false;
  next_line();
  return parse_section_title("Functions:");
}

}  // namespace sluice::ir::parse_detail
