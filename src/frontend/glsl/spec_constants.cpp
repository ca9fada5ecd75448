// Specialization constants outside function bodies: gl_WorkGroupSize when
// layout(local_size_x_id = N) makes it one, array lengths written with
// specialization constants (`int a[gl_WorkGroupSize.x * 2]`), and those no
// function uses.
//
// glslang keeps such a length as an expression tree beside the array type
// (TArraySizes::getDimNode). It becomes a tree of IR constants: scalar
// specialization constants (spec_id) at the leaves, plain constants, and
// spec_op constants (OpSpecConstantOp) for component selection and integer
// arithmetic, each carrying its value at the defaults, so the array type
// keeps its default length as `count` (docs/ir.md, "Specialization
// constants"). Inside functions the same expressions are computed by
// instructions instead (interface.cpp, symbol()).
#include <fmt/format.h>

#include "frontend/glsl/translator.h"
#include "ir/workgroup_size.h"

namespace sluice::glsl_in::detail {

bool Translator::is_specialization(ir::ConstantId id) const {
  const ir::Constant& c = module_.constant(id);
  if (c.spec_id || c.spec_op != ir::SpecOp::None) return true;
  for (ir::ConstantId part : c.components)
    if (is_specialization(part)) return true;
  return false;
}

bool Translator::workgroup_size_is_spec() const { return ir::has_specialized_workgroup_size(module_.shader()); }

ir::ConstantId Translator::workgroup_size_constant() {
  const ir::ShaderInfo& info = module_.shader();
  ir::ConstantId parts[3];
  for (int i = 0; i < 3; ++i) {
    ir::Constant c{ir::predefined::kUint, info.local_size[i], {}, info.local_size_spec_id[i]};
    parts[i] = module_.intern(c);
  }
  return module_.composite_constant(module_.vector_type(ir::ScalarKind::Uint, 3), parts);
}

// A specialization constant is the pipeline's to set whether or not the
// shader uses it, and glslang's SPIR-V declares every one: those no
// function used are made after the functions, so that the others keep
// their order of first use. One of a type the IR lacks (int64, float16)
// is left out rather than refusing a shader that never uses it.
void Translator::declare_unused_spec_constants(const TIntermAggregate* linker_objects) {
  for (TIntermNode* node : linker_objects->getSequence()) {
    const TIntermSymbol* s = node ? node->getAsSymbolNode() : nullptr;
    if (failed_) return;
    if (!s || s->getQualifier().storage != glslang::EvqConst || !s->getQualifier().specConstant ||
        !s->getQualifier().hasSpecConstantId())
      continue;
    switch (s->getBasicType()) {
      case glslang::EbtBool:
      case glslang::EbtInt:
      case glslang::EbtUint:
      case glslang::EbtFloat:
      case glslang::EbtDouble: symbol(s); break;
      default: break;
    }
  }
}

ir::ConstantId Translator::spec_constant_expression(const TIntermTyped* node) {
  if (failed_) return {};
  const glslang::TSourceLoc& loc = node->getLoc();
  if (const TIntermConstantUnion* k = node->getAsConstantUnion())
    return constant(node->getType(), k->getConstArray(), loc);
  if (const TIntermSymbol* s = node->getAsSymbolNode()) {
    const glslang::TQualifier& q = s->getType().getQualifier();
    if (q.builtIn == glslang::EbvWorkGroupSize && workgroup_size_is_spec()) return workgroup_size_constant();
    if (q.storage == glslang::EvqConst) {
      // A named specialization-constant expression: its tree, not the
      // instructions symbol() would emit for it.
      if (const TIntermTyped* tree = s->getConstSubtree()) return spec_constant_expression(tree);
      const Value v = symbol(s);
      if (v.valid && v.operand.is_constant()) return v.operand.as_constant();
      if (!failed_) unsupported(loc, "this specialization-constant expression as an array length");
      return {};
    }
  }
  const TIntermBinary* b = node->getAsBinaryNode();
  ir::SpecOp op = ir::SpecOp::None;
  if (b) {
    switch (b->getOp()) {
      case glslang::EOpIndexDirect:
        op = ir::SpecOp::CompositeExtract;
        break;
      case glslang::EOpAdd:
        op = ir::SpecOp::IAdd;
        break;
      case glslang::EOpSub:
        op = ir::SpecOp::ISub;
        break;
      case glslang::EOpMul:
        op = ir::SpecOp::IMul;
        break;
      case glslang::EOpDiv:
        op = b->getType().getBasicType() == glslang::EbtUint ? ir::SpecOp::UDiv : ir::SpecOp::SDiv;
        break;
      default:
        break;
    }
  }
  const ir::TypeId result_type = op == ir::SpecOp::None ? ir::TypeId() : type(node->getType(), loc);
  if (!result_type.valid() || module_.type(result_type).kind != ir::TypeKind::Scalar ||
      module_.type(result_type).scalar == ir::ScalarKind::Float ||
      module_.type(result_type).scalar == ir::ScalarKind::Bool) {
    if (!failed_)
      unsupported(loc,
                  "this specialization-constant expression as an array length (only +, -, *, / and "
                  "component selection of integer specialization constants)");
    return {};
  }
  ir::ConstantId a = spec_constant_expression(b->getLeft());
  ir::ConstantId c = op == ir::SpecOp::CompositeExtract ? ir::ConstantId() : spec_constant_expression(b->getRight());
  if (failed_) return {};
  const ir::Constant& left = module_.constant(a);
  ir::Constant out;
  out.type = result_type;
  out.spec_op = op;
  if (op == ir::SpecOp::CompositeExtract) {
    const TIntermConstantUnion* index = b->getRight()->getAsConstantUnion();
    if (!index || !left.is_composite() || index->getConstArray()[0].getIConst() < 0 ||
        static_cast<std::size_t>(index->getConstArray()[0].getIConst()) >= left.components.size()) {
      unsupported(loc, "this component selection in a specialization-constant expression");
      return {};
    }
    const auto i = static_cast<std::uint32_t>(index->getConstArray()[0].getIConst());
    const ir::ConstantId part = left.components[i];
    // Selecting a plain component needs no operation.
    if (!module_.constant(part).spec_id && module_.constant(part).spec_op == ir::SpecOp::None) return part;
    out.bits = module_.constant(part).bits;
    out.operands = {a, module_.uint_constant(i)};
    return module_.intern(out);
  }
  const std::uint32_t x = left.bits, y = module_.constant(c).bits;
  switch (op) {
    case ir::SpecOp::IAdd:
      out.bits = x + y;
      break;
    case ir::SpecOp::ISub:
      out.bits = x - y;
      break;
    case ir::SpecOp::IMul:
      out.bits = x * y;
      break;
    case ir::SpecOp::UDiv:
    case ir::SpecOp::SDiv:
      if (y == 0 || (op == ir::SpecOp::SDiv && static_cast<std::int32_t>(y) == -1 && x == 0x80000000u)) {
        error(loc, "division by zero (or overflow) in a specialization-constant expression at its defaults");
        return {};
      }
      out.bits = op == ir::SpecOp::UDiv
                     ? x / y
                     : static_cast<std::uint32_t>(static_cast<std::int32_t>(x) / static_cast<std::int32_t>(y));
      break;
    default:
      break;
  }
  if (!is_specialization(a) && !is_specialization(c))
    return module_.intern(ir::Constant{result_type, out.bits, {}, {}});
  out.operands = {a, c};
  return module_.intern(out);
}

}  // namespace sluice::glsl_in::detail
