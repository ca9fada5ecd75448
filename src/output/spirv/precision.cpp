// RelaxedPrecision, as glslang's GlslangToSpv decorates it: every lowp or
// mediump variable, function parameter and function (by its return
// precision), and every result of an operation computed at lowp or mediump
// — integers included, bools never (they have no precision in GLSL), nor
// access chains (pointers) or structs. The IR carries the precision on
// variables, on functions' return values and per register
// (Module::reg(r).precision) and on struct members (OpMemberDecorate, on
// every SPIR-V copy of the struct); the front end sets it from glslang's AST.
#include <algorithm>

#include "ir/typing.h"
#include "output/spirv/context.h"

namespace sluice::spirv::detail {
namespace {

bool is_relaxed(ir::Precision p) { return p == ir::Precision::Low || p == ir::Precision::Medium; }

// Scalars, vectors, matrices of numbers, opaque types, and arrays of them.
bool takes_precision(const ir::Module& m, ir::TypeId t) {
  for (std::uint32_t depth = 0; t.valid() && t.index() < m.type_count() && depth <= kMaxTypeDepth; ++depth) {
    const ir::Type& ty = m.type(t);
    switch (ty.kind) {
      case ir::TypeKind::Array:
      case ir::TypeKind::UnsizedArray: t = ty.element; continue;
      case ir::TypeKind::Scalar:
      case ir::TypeKind::Vector:
      case ir::TypeKind::Matrix: return ir::component_kind(m, t) != ir::ScalarKind::Bool;
      case ir::TypeKind::Image:
      case ir::TypeKind::Sampler:
      case ir::TypeKind::SampledImage: return true;
      default: return false;
    }
  }
  return false;
}

}  // namespace

void ModuleContext::relax(std::uint32_t id, ir::Precision p, ir::TypeId value_type) {
  if (id == 0 || !is_relaxed(p) || !takes_precision(m, value_type)) return;
  if (id >= relaxed_.size()) relaxed_.resize(std::max<std::size_t>(id + 1, relaxed_.size() * 2));
  if (relaxed_[id]) return;
  relaxed_[id] = true;
  decorate(id, spv::Decoration::RelaxedPrecision);
}

void ModuleContext::relax_member(std::uint32_t struct_id, ir::TypeId t, std::uint32_t index) {
  const ir::StructMember& member = m.type(t).members[index];
  if (is_relaxed(member.precision) && takes_precision(m, member.type))
    member_decorate(struct_id, index, spv::Decoration::RelaxedPrecision);
}

}  // namespace sluice::spirv::detail
