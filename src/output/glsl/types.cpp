// Type spelling, canonical structs, precision words, constant text and block
// layouts. Recursion here follows type nesting only, which
// compute_canonical_types() limits to kMaxTypeDepth.
#include "output/glsl/types.h"

#include <array>
#include <bit>
#include <cmath>
#include <unordered_map>

#include <fmt/format.h>

#include "ir/dump.h"
#include "ir/typing.h"

namespace sluice::glsl_out {

using ir::TypeId;
using ir::TypeKind;

namespace {

const char* scalar_word(ir::ScalarKind k) {
  switch (k) {
    case ir::ScalarKind::Float: return "float";
    case ir::ScalarKind::Int: return "int";
    case ir::ScalarKind::Uint: return "uint";
    case ir::ScalarKind::Bool: return "bool";
  }
  return "?";
}

const char* vector_prefix(ir::ScalarKind k) {
  switch (k) {
    case ir::ScalarKind::Float: return "";
    case ir::ScalarKind::Int: return "i";
    case ir::ScalarKind::Uint: return "u";
    case ir::ScalarKind::Bool: return "b";
  }
  return "?";
}

enum class ImageUse { Sampled, Texture, Storage };

std::string image_type_name(EmitContext& ctx, const ir::ImageDescriptor& d, ImageUse use) {
  std::string name;
  if (d.sampled_type == ir::ScalarKind::Bool) {
    ctx.fail("an image of bool texels cannot be declared in GLSL");
    return "sampler2D";
  }
  name += vector_prefix(d.sampled_type);
  name += use == ImageUse::Sampled ? "sampler" : use == ImageUse::Texture ? "texture" : "image";
  switch (d.dim) {
    case ir::ImageDim::Dim1D: name += "1D"; break;
    case ir::ImageDim::Dim2D: name += "2D"; break;
    case ir::ImageDim::Dim3D: name += "3D"; break;
    case ir::ImageDim::Cube: name += "Cube"; break;
    case ir::ImageDim::Rect: name += "2DRect"; break;
    case ir::ImageDim::Buffer: name += "Buffer"; break;
    case ir::ImageDim::SubpassData:
      ctx.fail("subpass inputs are not supported by the GLSL output (the IR has no input attachment index)");
      return "sampler2D";
  }
  if (d.multisampled) name += "MS";
  if (d.arrayed) name += "Array";
  if (d.depth && use == ImageUse::Sampled) name += "Shadow";
  if (d.dim == ir::ImageDim::Rect && ctx.vulkan)
    ctx.fail(fmt::format("{}: rectangle images do not exist in Vulkan", name));
  if (use == ImageUse::Texture && !ctx.vulkan)
    ctx.fail(fmt::format("{}: separate textures exist only in Vulkan GLSL", name));
  if (ctx.es) {
    if (d.dim == ir::ImageDim::Dim1D || d.dim == ir::ImageDim::Rect)
      ctx.fail(fmt::format("{}: GLSL ES has no 1D or rectangle textures", name));
    if (d.dim == ir::ImageDim::Buffer) ctx.extensions.insert("GL_EXT_texture_buffer");
    if (d.dim == ir::ImageDim::Cube && d.arrayed) ctx.extensions.insert("GL_EXT_texture_cube_map_array");
    if (d.multisampled && d.arrayed) ctx.extensions.insert("GL_OES_texture_storage_multisample_2d_array");
  }
  return name;
}

Expr literal(std::string text) {
  const Prec p = !text.empty() && text[0] == '-' ? Prec::Unary : Prec::Primary;
  return Expr{std::move(text), p};
}

// The NaN glslang's folding of 0.0 / 0.0 gives (C's NAN as a float).
constexpr std::uint32_t kFoldedNan = 0x7fc00000u;

// A double: the literal with GLSL's `lf` suffix (4.60 §4.1.4), written
// so that it reads back as the same binary64 value; others through their
// bits (packDouble2x32, GLSL 4.00).
Expr double_constant(const ir::Constant& c) {
  const double d = c.as_double();
  if (std::isfinite(d)) return literal(ir::format_double(d) + "lf");
  return Expr{fmt::format("packDouble2x32(uvec2(0x{:08x}u, 0x{:08x}u))", c.bits, c.high_bits), Prec::Postfix};
}

Expr scalar_constant(const ir::Constant& c, ir::ScalarKind k) {
  switch (k) {
    case ir::ScalarKind::Bool: return literal(c.as_bool() ? "true" : "false");
    case ir::ScalarKind::Uint: return literal(fmt::format("{}u", c.as_uint()));
    case ir::ScalarKind::Int:
      // -2147483648 is the negation of a literal that does not fit an int.
      if (c.as_int() == INT32_MIN) return Expr{"(-2147483647 - 1)", Prec::Primary};
      return literal(fmt::format("{}", c.as_int()));
    case ir::ScalarKind::Float: {
      const float f = c.as_float();
      // Infinities and the NaNs glslang's constant folding makes (x / 0.0
      // and its negation) are written as that division, so that they stay
      // constants; other NaNs keep their bits.
      if (std::isinf(f)) return Expr{f > 0 ? "(1.0 / 0.0)" : "(-1.0 / 0.0)", Prec::Primary};
      if (c.bits == kFoldedNan) return Expr{"(0.0 / 0.0)", Prec::Primary};
      if (c.bits == (kFoldedNan | 0x80000000u)) return Expr{"(-(0.0 / 0.0))", Prec::Primary};
      if (!std::isfinite(f)) return Expr{fmt::format("uintBitsToFloat(0x{:08x}u)", c.bits), Prec::Postfix};
      return literal(ir::format_float(f));
    }
  }
  return literal("0");
}

// A specialization-constant expression (an array length): its operands'
// text, parenthesised, so that it reads as the expression it came from.
Expr spec_op_expr(EmitContext& ctx, ir::ConstantId id, const ir::Constant& c) {
  const ir::Module& m = ctx.m;
  for (ir::ConstantId operand : c.operands)
    if (!operand.valid() || operand.index() >= id.index()) {
      ctx.fail(fmt::format("constant c{} has operand c{}, which is not an earlier constant", id.index(),
                           operand.index()));
      return Expr{"0", Prec::Primary};
    }
  if (c.operands.size() != 2) {
    ctx.fail(fmt::format("constant c{}: a specialization-constant operation has two operands", id.index()));
    return Expr{"0", Prec::Primary};
  }
  const std::string a = constant_expr(ctx, c.operands[0]).text;
  if (c.spec_op == ir::SpecOp::CompositeExtract) {
    const std::uint32_t i = m.constant(c.operands[1]).bits;
    return Expr{i < 4 ? fmt::format("{}.{}", a, "xyzw"[i]) : fmt::format("{}[{}]", a, i), Prec::Postfix};
  }
  const char* op = c.spec_op == ir::SpecOp::IAdd ? "+" : c.spec_op == ir::SpecOp::ISub ? "-"
                   : c.spec_op == ir::SpecOp::IMul ? "*" : "/";
  return Expr{fmt::format("({} {} {})", a, op, constant_expr(ctx, c.operands[1]).text), Prec::Primary};
}

}  // namespace

void compute_canonical_types(EmitContext& ctx) {
  const ir::Module& m = ctx.m;
  const std::size_t n = m.type_count();
  ctx.canonical.assign(n, TypeId{});
  std::vector<std::uint32_t> depth(n, 1);
  std::unordered_map<std::string, TypeId> by_shape;
  for (std::uint32_t i = 0; i < n; ++i) {
    const TypeId id(i);
    const ir::Type& t = m.type(id);
    ctx.canonical[i] = id;
    auto child = [&](TypeId c) -> bool {
      if (!c.valid() || c.index() >= i) {
        ctx.fail(fmt::format("type t{} refers to t{}, which is not an earlier type", i, c.index()));
        return false;
      }
      depth[i] = std::max(depth[i], depth[c.index()] + 1);
      return true;
    };
    std::string shape;
    switch (t.kind) {
      case TypeKind::Vector:
      case TypeKind::Matrix:
      case TypeKind::SampledImage:
      case TypeKind::Pointer:
        if (!child(t.element)) return;
        break;
      case TypeKind::Array:
      case TypeKind::UnsizedArray:
        if (!child(t.element)) return;
        shape = fmt::format("{}{}:{}:{}", t.kind == TypeKind::Array ? 'A' : 'U',
                            ctx.canonical[t.element.index()].index(), t.count, t.length.index());
        break;
      case TypeKind::Struct:
        if (t.members.empty()) {
          ctx.fail(fmt::format("struct '{}' has no members; GLSL structs need at least one", t.name));
          return;
        }
        shape = t.is_block ? fmt::format("B{}", i) : "S" + t.name + "{";
        for (const ir::StructMember& mem : t.members) {
          if (!child(mem.type)) return;
          if (!t.is_block)
            shape += fmt::format("{}:{}:{};", mem.name, ctx.canonical[mem.type.index()].index(),
                                 static_cast<int>(mem.precision));
        }
        break;
      default:
        break;
    }
    if (depth[i] > kMaxTypeDepth) {
      ctx.fail(fmt::format("type t{} nests deeper than {} levels", i, kMaxTypeDepth));
      return;
    }
    if (!shape.empty()) ctx.canonical[i] = by_shape.emplace(std::move(shape), id).first->second;
  }
}

bool is_opaque(const EmitContext& ctx, TypeId t) {
  if (!t.valid() || t.index() >= ctx.m.type_count()) return false;
  return ir::is_opaque(ctx.m.type(t));
}

bool contains_opaque(const EmitContext& ctx, TypeId t) { return ir::contains_opaque(ctx.m, t); }

TypeId innermost_element(const EmitContext& ctx, TypeId t) {
  while (t.valid() && t.index() < ctx.m.type_count()) {
    const ir::Type& ty = ctx.m.type(t);
    if (ty.kind != TypeKind::Array && ty.kind != TypeKind::UnsizedArray) break;
    t = ty.element;
  }
  return t;
}

std::string type_text(EmitContext& ctx, TypeId t) {
  if (!t.valid() || t.index() >= ctx.m.type_count()) {
    ctx.fail(fmt::format("type t{} does not exist", t.index()));
    return "float";
  }
  const ir::Module& m = ctx.m;
  const ir::Type& ty = m.type(t);
  switch (ty.kind) {
    case TypeKind::Void: return "void";
    case TypeKind::Scalar:
      if (ty.width == 64 && ctx.es) ctx.fail("double, which GLSL ES lacks");
      return ty.width == 64 ? "double" : scalar_word(ty.scalar);
    case TypeKind::Vector: {
      const auto k = ir::component_kind(m, t);
      if (ir::is_double_like(m, t)) {
        if (ctx.es) ctx.fail("double, which GLSL ES lacks");
        return fmt::format("dvec{}", ty.count);
      }
      return fmt::format("{}vec{}", vector_prefix(k.value_or(ir::ScalarKind::Float)), ty.count);
    }
    case TypeKind::Matrix: {
      if (ir::component_kind(m, t) != ir::ScalarKind::Float) ctx.fail("GLSL matrices hold floats only");
      const std::uint32_t rows = ir::component_count(m, ty.element);
      const char* d = ir::is_double_like(m, ty.element) ? "d" : "";
      if (*d && ctx.es) ctx.fail("double, which GLSL ES lacks");
      return rows == ty.count ? fmt::format("{}mat{}", d, ty.count) : fmt::format("{}mat{}x{}", d, ty.count, rows);
    }
    case TypeKind::Array:
    case TypeKind::UnsizedArray: {
      std::string dims;
      TypeId e = t;
      while (m.type(e).kind == TypeKind::Array || m.type(e).kind == TypeKind::UnsizedArray) {
        const ir::Type& a = m.type(e);
        dims += a.kind != TypeKind::Array ? std::string("[]")
                : a.length.valid()         ? fmt::format("[{}]", constant_expr(ctx, a.length).text)
                                           : fmt::format("[{}]", a.count);
        e = a.element;
      }
      return type_text(ctx, e) + dims;
    }
    case TypeKind::Struct: {
      const TypeId c = ctx.canonical.empty() ? t : ctx.canonical[t.index()];
      if (c.index() < ctx.struct_names.size() && !ctx.struct_names[c.index()].empty())
        return ctx.struct_names[c.index()];
      ctx.fail(fmt::format("struct '{}' (t{}) is used as a value type, which GLSL cannot spell", ty.name, t.index()));
      return "float";
    }
    case TypeKind::Image:
      return image_type_name(ctx, ty.image, ty.image.storage ? ImageUse::Storage : ImageUse::Texture);
    case TypeKind::SampledImage:
      if (ty.element.valid() && ty.element.index() < m.type_count() && m.type(ty.element).kind == TypeKind::Image)
        return image_type_name(ctx, m.type(ty.element).image, ImageUse::Sampled);
      ctx.fail("a sampled image of a type that is not an image");
      return "sampler2D";
    case TypeKind::Sampler:
      if (!ctx.vulkan) ctx.fail("separate samplers exist only in Vulkan GLSL");
      return "sampler";
    case TypeKind::Pointer: ctx.fail("a pointer type has no GLSL spelling"); return "float";
  }
  return "float";
}

std::string declarator(EmitContext& ctx, TypeId t, std::string_view name) {
  std::string text = type_text(ctx, t);
  const std::size_t bracket = text.find('[');
  if (bracket == std::string::npos) return fmt::format("{} {}", text, name);
  return fmt::format("{} {}{}", text.substr(0, bracket), name, text.substr(bracket));
}

namespace {
const char* precision_word(ir::Precision p) {
  switch (p) {
    case ir::Precision::Low: return "lowp ";
    case ir::Precision::Medium: return "mediump ";
    case ir::Precision::High: return "highp ";
    case ir::Precision::None: return "";
  }
  return "";
}
}  // namespace

std::string precision_prefix(const EmitContext& ctx, TypeId t, ir::Precision p, bool variable) {
  const TypeId base = innermost_element(ctx, t);
  if (!base.valid() || base.index() >= ctx.m.type_count()) return "";
  if (is_opaque(ctx, base)) {
    // Most opaque types have no default precision in GLSL ES.
    if (ctx.es && p == ir::Precision::None) return "highp ";
    return ctx.es || (variable && p != ir::Precision::High) ? precision_word(p) : "";
  }
  const auto kind = ir::component_kind(ctx.m, base);
  // bool, structs, doubles: no precision (GLSL 4.60 §4.7.2 qualifies only
  // floats, integers and opaque types).
  if (!kind || *kind == ir::ScalarKind::Bool || ir::is_double_like(ctx.m, base)) return "";
  // Desktop GLSL: highp is what every declaration gets anyway; lowp and
  // mediump stay, on temporaries too, because glslang turns them into
  // RelaxedPrecision there as well and drivers then compute in fp16.
  if (!ctx.es) return p == ir::Precision::Low || p == ir::Precision::Medium ? precision_word(p) : "";
  const ir::Precision fallback = *kind == ir::ScalarKind::Float ? ctx.default_float : ctx.default_int;
  return p == fallback ? "" : precision_word(p);
}

ir::Precision text_precision(const EmitContext& ctx, ir::Operand o) {
  const ir::Module& m = ctx.m;
  if (o.is_register() && o.value() < m.register_count()) return m.reg(o.as_register()).precision;
  if (!o.is_constant() || o.value() >= m.constant_count()) return ir::Precision::None;
  const ir::Constant& c = m.constant(o.as_constant());
  if (!c.spec_id && c.spec_op == ir::SpecOp::None) return ir::Precision::None;
  const auto kind = ir::component_kind(m, c.type);
  if (!kind || *kind == ir::ScalarKind::Bool) return ir::Precision::None;
  // Declared `const` without a qualifier: the header's defaults in ES, highp
  // in desktop GLSL under Vulkan, none in OpenGL's.
  if (ctx.es) return *kind == ir::ScalarKind::Float ? ctx.default_float : ctx.default_int;
  return ctx.vulkan ? ir::Precision::High : ir::Precision::None;
}

void choose_default_precisions(EmitContext& ctx) {
  // Votes of variables and registers, per kind; ties go to the higher precision.
  std::array<std::array<std::size_t, 4>, 2> votes{};
  auto vote = [&](TypeId t, ir::Precision p) {
    if (p == ir::Precision::None) return;
    const auto kind = ir::component_kind(ctx.m, innermost_element(ctx, t));
    if (!kind || *kind == ir::ScalarKind::Bool) return;
    ++votes[*kind == ir::ScalarKind::Float ? 0 : 1][static_cast<std::size_t>(p)];
  };
  for (std::uint32_t i = 0; i < ctx.m.variable_count(); ++i) {
    const ir::Variable& v = ctx.m.variable(ir::VariableId(i));
    if (v.type.valid() && v.type.index() < ctx.m.type_count()) vote(ctx.m.type(v.type).element, v.precision);
  }
  for (std::uint32_t i = 0; i < ctx.m.register_count(); ++i) {
    const ir::RegisterInfo& r = ctx.m.reg(ir::RegisterId(i));
    if (r.type.valid() && r.type.index() < ctx.m.type_count()) vote(r.type, r.precision);
  }
  auto winner = [](const std::array<std::size_t, 4>& v) {
    ir::Precision best = ir::Precision::High;
    for (ir::Precision p : {ir::Precision::Medium, ir::Precision::Low})
      if (v[static_cast<std::size_t>(p)] > v[static_cast<std::size_t>(best)]) best = p;
    return best;
  };
  ctx.default_float = winner(votes[0]);
  ctx.default_int = winner(votes[1]);
}

const Expr& constant_expr(EmitContext& ctx, ir::ConstantId id) {
  static const Expr kInvalid{"0", Prec::Primary};
  const ir::Module& m = ctx.m;
  if (!id.valid() || id.index() >= m.constant_count()) {
    ctx.fail(fmt::format("constant c{} does not exist", id.index()));
    return kInvalid;
  }
  if (ctx.constants.size() < m.constant_count()) ctx.constants.resize(m.constant_count());
  if (ctx.constants[id.index()]) return *ctx.constants[id.index()];
  const ir::Constant& c = m.constant(id);
  if (!c.type.valid() || c.type.index() >= m.type_count()) {
    ctx.fail(fmt::format("constant c{} has no valid type", id.index()));
    return kInvalid;
  }
  const ir::Type& t = m.type(c.type);
  Expr e;
  if (c.spec_op != ir::SpecOp::None) {
    e = spec_op_expr(ctx, id, c);
  } else if (!c.is_composite()) {
    const auto k = ir::component_kind(m, c.type);
    if (t.kind != TypeKind::Scalar || !k) {
      ctx.fail(fmt::format("constant c{} has no components but is not a scalar", id.index()));
      return kInvalid;
    }
    e = t.width == 64 ? double_constant(c) : scalar_constant(c, *k);
  } else {
    std::vector<std::string> parts;
    for (ir::ConstantId part : c.components) {
      if (!part.valid() || part.index() >= id.index()) {
        ctx.fail(fmt::format("constant c{} has component c{}, which is not an earlier constant", id.index(),
                             part.index()));
        return kInvalid;
      }
      parts.push_back(constant_expr(ctx, part).text);
    }
    bool all_same = true;
    for (const auto& p : parts) all_same = all_same && p == parts[0];
    std::string args;
    if (t.kind == TypeKind::Vector && all_same) {
      args = parts[0];
    } else if (t.kind == TypeKind::Matrix && t.count == ir::component_count(m, t.element)) {
      // A multiple of the identity is spelled matN(d).
      bool diagonal = true;
      std::string d;
      for (std::uint32_t col = 0; col < c.components.size() && diagonal; ++col) {
        const ir::Constant& column = m.constant(c.components[col]);
        for (std::uint32_t row = 0; row < column.components.size() && diagonal; ++row) {
          const ir::Constant& x = m.constant(column.components[row]);
          if (row == col) {
            if (d.empty()) d = constant_expr(ctx, column.components[row]).text;
            diagonal = constant_expr(ctx, column.components[row]).text == d;
          } else {
            diagonal = !x.is_composite() && x.bits == 0;
          }
        }
      }
      args = diagonal && !d.empty() ? d : fmt::format("{}", fmt::join(parts, ", "));
    } else {
      args = fmt::format("{}", fmt::join(parts, ", "));
    }
    e = Expr{fmt::format("{}({})", type_text(ctx, c.type), args), Prec::Postfix};
  }
  ctx.constants[id.index()] = std::move(e);
  return *ctx.constants[id.index()];
}

MemberLayout std_layout(const EmitContext& ctx, TypeId t, bool std430, bool row_major) {
  const ir::Module& m = ctx.m;
  if (!t.valid() || t.index() >= m.type_count()) return {};
  const ir::Type& ty = m.type(t);
  auto array_of = [&](MemberLayout e, std::uint32_t count) {
    std::uint32_t align = std430 ? e.align : std::max<std::uint32_t>(e.align, 16);
    const std::uint32_t stride = round_up(e.size, align);
    return MemberLayout{align, stride * count};
  };
  switch (ty.kind) {
    // GLSL 4.60 §7.6.2.2: components of 4 bytes, or 8 for doubles.
    case TypeKind::Scalar: return {ty.width / 8, ty.width / 8};
    case TypeKind::Vector: {
      const std::uint32_t b = m.type(ty.element).width / 8;
      return {(ty.count == 2 ? 2 : 4) * b, b * ty.count};
    }
    case TypeKind::Matrix: {
      const std::uint32_t rows = ir::component_count(m, ty.element);
      const std::uint32_t vec = row_major ? ty.count : rows;
      const std::uint32_t n = row_major ? rows : ty.count;
      const std::uint32_t b = ir::is_double_like(m, ty.element) ? 8 : 4;
      return array_of(MemberLayout{(vec == 2 ? 2 : 4) * b, b * vec}, n);
    }
    case TypeKind::Array: return array_of(std_layout(ctx, ty.element, std430, row_major), ty.count);
    case TypeKind::UnsizedArray: return array_of(std_layout(ctx, ty.element, std430, row_major), 0);
    case TypeKind::Struct: {
      std::uint32_t offset = 0, align = 4;
      for (const auto& mem : ty.members) {
        const bool rm = mem.matrix_layout == ir::MatrixLayout::Default ? row_major
                                                                       : mem.matrix_layout == ir::MatrixLayout::RowMajor;
        const MemberLayout l = std_layout(ctx, mem.type, std430, rm);
        offset = round_up(offset, l.align) + l.size;
        align = std::max(align, l.align);
      }
      if (!std430) align = round_up(align, 16);
      return {align, round_up(offset, align)};
    }
    default: return {};
  }
}

}  // namespace sluice::glsl_out
