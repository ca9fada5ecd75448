// Module-level checks of the type and constant tables, and which registers
// have usable types. They run first and record which entries are usable
// (type_ok, constant_ok, register_ok), so that later checks and
// ir::infer_result_type() only ever look at well-formed, in-range types.
//
// Types may refer only to earlier types. The module's interning makes that
// true of every table built through Module::intern (a type's parts must exist
// before their ids can be named), and it keeps the table acyclic, so nothing
// that follows type references (describe_type, component_kind) can loop.
#include <fmt/format.h>

#include "ir/built_in.h"
#include "ir/image_format.h"
#include "ir/typing.h"
#include "validator/context.h"

namespace sluice::validator::detail {
namespace {

using ir::Type;
using ir::TypeId;
using ir::TypeKind;

// describe_type() recurses through arrays, pointers and sampled images; a
// nesting limit keeps its depth, and so the native stack, bounded.
constexpr std::uint32_t kMaxTypeNesting = 64;

bool enums_in_range(const Type& t) {
  if (t.kind > TypeKind::Pointer || t.scalar > ir::ScalarKind::Bool || t.storage > ir::StorageClass::Workgroup ||
      t.layout > ir::BlockLayout::Std430 || t.image.dim > ir::ImageDim::SubpassData ||
      t.image.sampled_type > ir::ScalarKind::Bool)
    return false;
  for (const auto& member : t.members)
    if (member.matrix_layout > ir::MatrixLayout::RowMajor || member.precision > ir::Precision::High) return false;
  return true;
}

class TypeTableChecker {
 public:
  explicit TypeTableChecker(Context& ctx) : ctx_(ctx), depth_(ctx.m.type_count(), 0) {}

  void run() {
    for (std::uint32_t i = 0; i < ctx_.m.type_count(); ++i) ctx_.type_ok[i] = check(i) ? 1 : 0;
  }

 private:
  bool fail(std::uint32_t i, std::string message) {
    ctx_.report(fmt::format("t{}: {}", i, message));
    return false;
  }

  // A part of type i: it must be an earlier, usable type.
  bool part(std::uint32_t i, TypeId e) {
    if (!e.valid() || e.index() >= i)
      return fail(i, fmt::format("refers to {}, which is not an earlier type", id_text('t', e.index())));
    return ctx_.type_ok[e.index()] != 0;  // a broken part was reported with that part
  }

  TypeKind kind_of(TypeId e) const { return ctx_.m.type(e).kind; }

  // Element of an array (sized or not) or member of a struct.
  bool storable(std::uint32_t i, TypeId e, const char* what) {
    const TypeKind k = kind_of(e);
    if (k == TypeKind::Void || k == TypeKind::Pointer)
      return fail(i, fmt::format("{} t{} is {}", what, e.index(), k == TypeKind::Void ? "void" : "a pointer"));
    return true;
  }

  bool check(std::uint32_t i) {
    const Type& t = ctx_.m.type(TypeId(i));
    if (!enums_in_range(t)) return fail(i, "has a kind, scalar kind, storage class or layout out of range");
    // Only floats come in 64 bits (double); every other type is 32.
    if (t.width != 32 && !(t.width == 64 && t.kind == TypeKind::Scalar && t.scalar == ir::ScalarKind::Float))
      return fail(i, fmt::format("has width {}; only a float scalar may be 64 bits (double), others are 32", t.width));
    switch (t.kind) {
      case TypeKind::Void:
      case TypeKind::Scalar:
      case TypeKind::Sampler: return true;
      case TypeKind::Image:
        // ir/image_format.h: the formats both outputs can spell.
        if (!t.image.format.empty() && t.image.format != "unknown" && !ir::find_image_format(t.image.format))
          return fail(i, fmt::format("image format '{}' is none of GLSL's format qualifiers", t.image.format));
        return true;
      case TypeKind::Vector:
        if (!part(i, t.element)) return false;
        if (kind_of(t.element) != TypeKind::Scalar)
          return fail(i, fmt::format("vector of t{}; vector components must be scalars", t.element.index()));
        if (t.count < 2 || t.count > 4)
          return fail(i, fmt::format("vector of {} components; vectors have 2 to 4", t.count));
        return true;
      case TypeKind::Matrix: {
        if (!part(i, t.element)) return false;
        const Type& column = ctx_.m.type(t.element);
        if (column.kind != TypeKind::Vector || ctx_.m.type(column.element).scalar != ir::ScalarKind::Float)
          return fail(i, fmt::format("matrix column t{} is not a float vector", t.element.index()));
        if (t.count < 2 || t.count > 4)
          return fail(i, fmt::format("matrix of {} columns; matrices have 2 to 4", t.count));
        return true;
      }
      case TypeKind::Array:
      case TypeKind::UnsizedArray: {
        if (!part(i, t.element) || !storable(i, t.element, "array element")) return false;
        if (kind_of(t.element) == TypeKind::UnsizedArray)
          return fail(i, "array of an unsized array; an unsized array is only the last member of a block");
        if (t.kind == TypeKind::Array && t.count == 0) return fail(i, "array of 0 elements");
        return nested(i, t.element);
      }
      case TypeKind::Struct: {
        for (std::size_t k = 0; k < t.members.size(); ++k) {
          const auto& member = t.members[k];
          if (!part(i, member.type) || !storable(i, member.type, "member type")) return false;
          if (kind_of(member.type) == TypeKind::UnsizedArray && (!t.is_block || k + 1 != t.members.size()))
            return fail(i,
                        fmt::format("member '{}' is an unsized array but not the last member of a block", member.name));
          // Vulkan VUID-StandaloneSpirv-Location-04919: a block's members
          // have locations all or none.
          if (member.location && !t.is_block)
            return fail(i, fmt::format("member '{}' has a location but the struct is not a block", member.name));
          if (member.location.has_value() != t.members[0].location.has_value())
            return fail(i, fmt::format("member '{}' {} a location but member '{}' {}: a block's members have "
                                       "locations all or none",
                                       member.name, member.location ? "has" : "lacks", t.members[0].name,
                                       t.members[0].location ? "has" : "lacks"));
          // GLSL 4.60 §4.3.9: a block's members cannot be or contain
          // opaque types; Vulkan keeps those in UniformConstant handles
          // (VUID-StandaloneSpirv-UniformConstant-04655).
          if (t.is_block && ir::contains_opaque(ctx_.m, member.type))
            return fail(i, fmt::format("member '{}' of a block is or holds an image or sampler (t{}); opaque types "
                                       "are not allowed in blocks",
                                       member.name, member.type.index()));
          if (!member.built_in.empty() && !ir::find_built_in(member.built_in))
            return fail(i, fmt::format("member '{}' is built-in '{}', which the IR does not know (ir/built_in.h)",
                                       member.name, member.built_in));
        }
        return true;
      }
      case TypeKind::SampledImage: {
        if (!part(i, t.element)) return false;
        const Type& image = ctx_.m.type(t.element);
        if (image.kind != TypeKind::Image || image.image.storage)
          return fail(i, fmt::format("sampled image of t{}, which is not a sampled image type", t.element.index()));
        return nested(i, t.element);
      }
      case TypeKind::Pointer: {
        if (!part(i, t.element)) return false;
        const TypeKind k = kind_of(t.element);
        if (k == TypeKind::Void || k == TypeKind::Pointer)
          return fail(i, fmt::format("pointer to {}", k == TypeKind::Void ? "void" : "a pointer"));
        return nested(i, t.element);
      }
    }
    return fail(i, "has an unknown kind");
  }

  bool nested(std::uint32_t i, TypeId element) {
    depth_[i] = depth_[element.index()] + 1;
    if (depth_[i] > kMaxTypeNesting) return fail(i, fmt::format("nests types more than {} deep", kMaxTypeNesting));
    return true;
  }

  Context& ctx_;
  std::vector<std::uint32_t> depth_;
};

// The types a composite constant of type t lists, in order; false if
// constants of that type cannot be composites.
bool component_types(const Type& t, std::vector<TypeId>& out) {
  out.clear();
  switch (t.kind) {
    case TypeKind::Vector:
    case TypeKind::Matrix:
    case TypeKind::Array: out.assign(t.count, t.element); return true;
    case TypeKind::Struct:
      for (const auto& member : t.members) out.push_back(member.type);
      return true;
    default: return false;
  }
}

bool is_integer_scalar(const Type& t) {
  return t.kind == TypeKind::Scalar && (t.scalar == ir::ScalarKind::Int || t.scalar == ir::ScalarKind::Uint);
}

// A specialization-constant expression: an integer scalar computed from
// two earlier constants (CompositeExtract: a composite and a uint index
// within it).
void check_spec_op(Context& ctx, std::uint32_t i, const ir::Constant& c, const Type& t) {
  const ir::Module& m = ctx.m;
  if (!is_integer_scalar(t) || c.is_composite() || c.spec_id || c.operands.size() != 2) {
    ctx.report(fmt::format("c{}: a specialization-constant operation is an int or uint scalar of two operands", i));
    return;
  }
  for (ir::ConstantId operand : c.operands)
    if (!operand.valid() || operand.index() >= i || !ctx.constant_ok[operand.index()]) {
      ctx.report(fmt::format("c{}: operand {} is not an earlier constant", i, id_text('c', operand.index())));
      return;
    }
  const ir::Constant& a = m.constant(c.operands[0]);
  const ir::Constant& b = m.constant(c.operands[1]);
  if (c.spec_op == ir::SpecOp::CompositeExtract) {
    if (!a.is_composite() || b.type != ir::predefined::kUint || b.bits >= a.components.size() ||
        m.constant(a.components[b.bits]).type != c.type)
      ctx.report(fmt::format("c{}: CompositeExtract needs a composite and a uint index of a {} component", i,
                             ctx.type_name(c.type)));
  } else if (a.type != c.type || b.type != c.type) {
    ctx.report(fmt::format("c{}: {} operands must have type {}", i, ir::to_string(c.spec_op), ctx.type_name(c.type)));
  }
}

// An array whose length is a specialization constant: the constant is an
// integer scalar, a specialization constant or expression, whose default
// is the array's count.
void check_array_lengths(Context& ctx) {
  const ir::Module& m = ctx.m;
  for (std::uint32_t i = 0; i < m.type_count(); ++i) {
    const Type& t = m.type(TypeId(i));
    if (!t.length.valid()) continue;
    if (t.kind != TypeKind::Array || t.length.index() >= m.constant_count()) {
      ctx.report(fmt::format("t{}: length {} is not a constant of an array type", i, id_text('c', t.length.index())));
      continue;
    }
    const ir::Constant& c = m.constant(t.length);
    const Type* ct = ctx.usable_type(c.type);
    if (!ct || !is_integer_scalar(*ct) || (!c.spec_id && c.spec_op == ir::SpecOp::None) || c.bits != t.count)
      ctx.report(fmt::format("t{}: length c{} is not an integer specialization constant whose default is {}", i,
                             t.length.index(), t.count));
  }
}

}  // namespace

void check_types(Context& ctx) { TypeTableChecker(ctx).run(); }

void check_constants(Context& ctx) {
  const ir::Module& m = ctx.m;
  std::vector<TypeId> expected;
  for (std::uint32_t i = 0; i < m.constant_count(); ++i) {
    const ir::Constant& c = m.constant(ir::ConstantId(i));
    const Type* t = ctx.usable_type(c.type);
    if (!t) {
      if (!c.type.valid() || c.type.index() >= m.type_count())
        ctx.report(fmt::format("c{}: type {} does not exist", i, id_text('t', c.type.index())));
      continue;
    }
    ctx.constant_ok[i] = 1;
    if (c.spec_op != ir::SpecOp::None) {
      check_spec_op(ctx, i, c, *t);
      continue;
    }
    if (t->kind == TypeKind::Scalar) {
      if (c.is_composite())
        ctx.report(fmt::format("c{}: scalar constant of type {} has components", i, ctx.type_name(c.type)));
      if (c.high_bits != 0 && t->width != 64)
        ctx.report(fmt::format("c{}: a {}-bit constant with high bits", i, t->width));
      continue;
    }
    if (!component_types(*t, expected)) {
      ctx.report(fmt::format("c{}: a constant cannot have type {}", i, ctx.type_name(c.type)));
      continue;
    }
    if (c.components.size() != expected.size()) {
      ctx.report(fmt::format("c{}: {} constant has {} components, expected {}", i, ctx.type_name(c.type),
                             c.components.size(), expected.size()));
      continue;
    }
    for (std::size_t k = 0; k < expected.size(); ++k) {
      const ir::ConstantId part = c.components[k];
      if (!part.valid() || part.index() >= i) {
        ctx.report(
            fmt::format("c{}: component {} is {}, which is not an earlier constant", i, k, id_text('c', part.index())));
        break;
      }
      if (ctx.constant_ok[part.index()] && m.constant(part).type != expected[k]) {
        ctx.report(fmt::format("c{}: component {} has type {}, expected {}", i, k, ctx.type_name(m.constant(part).type),
                               ctx.type_name(expected[k])));
        break;
      }
    }
  }
  check_array_lengths(ctx);
}

// Only records which registers are usable: the register table may hold
// entries nothing refers to (the text form does not spell unreferenced
// registers, so a parsed module has placeholders for them). A register's
// type is reported where the register is defined (Scopes::define_register).
void check_registers(Context& ctx) {
  const ir::Module& m = ctx.m;
  for (std::uint32_t i = 0; i < m.register_count(); ++i) {
    const Type* type = ctx.usable_type(m.reg(ir::RegisterId(i)).type);
    ctx.register_ok[i] = type && type->kind != TypeKind::Void ? 1 : 0;
  }
}

}  // namespace sluice::validator::detail
