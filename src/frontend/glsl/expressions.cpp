// Expressions: operators, assignments, access chains and swizzles, and the
// short-circuit operators.
//
// An expression evaluates to a Value: symbols and access chains on them
// stay pointers (Access* instructions) until a value is needed, so `a[i].x
// = v` stores through one pointer and `a[i].x` loads only what it reads.
// Access chains on values (a function's result, a constant) use Extract*.
//
// `a && b`, `a || b` and `c ? x : y` keep GLSL's short-circuit evaluation:
// each is an If whose merge block has an input, fed by Merge from both
// branches (docs/ir.md, "Merge inputs").
#include <fmt/format.h>
#include <glslang/Public/ResourceLimits.h>

#include "frontend/glsl/translator.h"
#include "ir/typing.h"

namespace sluice::glsl_in::detail {
namespace {

using glslang::TOperator;

std::optional<TOperator> compound_base(TOperator op) {
  switch (op) {
    case glslang::EOpAddAssign: return glslang::EOpAdd;
    case glslang::EOpSubAssign: return glslang::EOpSub;
    case glslang::EOpMulAssign: return glslang::EOpMul;
    case glslang::EOpVectorTimesMatrixAssign: return glslang::EOpVectorTimesMatrix;
    case glslang::EOpVectorTimesScalarAssign: return glslang::EOpVectorTimesScalar;
    case glslang::EOpMatrixTimesScalarAssign: return glslang::EOpMatrixTimesScalar;
    case glslang::EOpMatrixTimesMatrixAssign: return glslang::EOpMatrixTimesMatrix;
    case glslang::EOpDivAssign: return glslang::EOpDiv;
    case glslang::EOpModAssign: return glslang::EOpMod;
    case glslang::EOpAndAssign: return glslang::EOpAnd;
    case glslang::EOpInclusiveOrAssign: return glslang::EOpInclusiveOr;
    case glslang::EOpExclusiveOrAssign: return glslang::EOpExclusiveOr;
    case glslang::EOpLeftShiftAssign: return glslang::EOpLeftShift;
    case glslang::EOpRightShiftAssign: return glslang::EOpRightShift;
    default: return std::nullopt;
  }
}

// The value of a constant index node (direct indexing, struct members,
// swizzle components).
std::uint32_t constant_index(const TIntermTyped* node) {
  const TIntermConstantUnion* c = node->getAsConstantUnion();
  const glslang::TConstUnion& u = c->getConstArray()[0];
  return u.getType() == glslang::EbtUint ? u.getUConst() : static_cast<std::uint32_t>(u.getIConst());
}

}  // namespace

Value Translator::expr(TIntermTyped* node) {
  if (failed_ || !node) return {};
  locate(node);
  const glslang::TQualifier& q = node->getQualifier();
  if (q.nonUniform) {
    unsupported(node->getLoc(), "nonuniformEXT (the IR has no non-uniform marking)");
    return {};
  }
  if (q.noContraction) precise_seen = true;
  if (const TIntermConstantUnion* c = node->getAsConstantUnion()) {
    const ir::ConstantId id = constant(c->getType(), c->getConstArray(), c->getLoc());
    if (!id.valid()) return {};
    return Value::rvalue(id);
  }
  if (const TIntermSymbol* s = node->getAsSymbolNode()) return symbol(s);
  if (TIntermBinary* b = node->getAsBinaryNode()) return binary(b);
  if (TIntermUnary* u = node->getAsUnaryNode()) return unary(u);
  if (TIntermAggregate* a = node->getAsAggregate()) return aggregate(a);
  if (TIntermSelection* s = node->getAsSelectionNode()) return ternary(s);
  unsupported(node->getLoc(), "this kind of expression");
  return {};
}

ir::Operand Translator::load(Value v, const TIntermTyped* node) {
  if (failed_ || !v.valid) return kNoValue;
  if (!v.is_pointer) return v.operand;
  // The node's precision, as glslang's load takes it (a mediump member of a
  // highp-less block loads at mediump); without one, the pointer's.
  const ir::Operand pointer[] = {v.operand};
  return emit(ir::Opcode::Load, pointer, node);
}

ir::Operand Translator::rvalue(TIntermTyped* node) { return load(expr(node), node); }

ir::Operand Translator::lvalue(TIntermTyped* node) {
  const Value v = expr(node);
  if (failed_ || !v.valid) return kNoValue;
  if (!v.is_pointer) {
    error(node->getLoc(), "internal error: assignment to an expression that has no storage");
    return kNoValue;
  }
  return v.operand;
}

Value Translator::binary(TIntermBinary* node) {
  const TOperator op = node->getOp();
  switch (op) {
    case glslang::EOpAssign: return assign(node);
    case glslang::EOpIndexDirect:
    case glslang::EOpIndexIndirect:
    case glslang::EOpIndexDirectStruct: return index(node);
    case glslang::EOpVectorSwizzle: return swizzle(node);
    case glslang::EOpLogicalAnd:
    case glslang::EOpLogicalOr: return short_circuit(node);
    case glslang::EOpComma: {
      expr(node->getLeft());
      return expr(node->getRight());
    }
    default: break;
  }
  if (auto base = compound_base(op)) return compound_assign(node, *base);
  const ir::Operand a = rvalue(node->getLeft());
  const ir::Operand b = rvalue(node->getRight());
  if (failed_) return {};
  locate(node);
  const ir::Operand r = arithmetic(op, a, b, node);
  if (failed_) return {};
  return Value::rvalue(r);
}

ir::Operand Translator::arithmetic(TOperator op, ir::Operand a, ir::Operand b, const TIntermTyped* node) {
  using ir::Opcode;
  if (failed_) return kNoValue;
  const bool is_float = ir::component_kind(module_, type_of(a)) == ir::ScalarKind::Float;
  auto componentwise = [&](Opcode o) {
    match_shapes(a, b, node);
    return emit(o, {a, b}, node);
  };
  switch (op) {
    case glslang::EOpAdd: return componentwise(Opcode::Add);
    case glslang::EOpSub: return componentwise(Opcode::Sub);
    case glslang::EOpMul: return componentwise(Opcode::Mul);
    case glslang::EOpDiv: return componentwise(Opcode::Div);
    case glslang::EOpMod: return componentwise(is_float ? Opcode::Mod : Opcode::IMod);
    case glslang::EOpAnd: return componentwise(Opcode::BitwiseAnd);
    case glslang::EOpInclusiveOr: return componentwise(Opcode::BitwiseOr);
    case glslang::EOpExclusiveOr: return componentwise(Opcode::BitwiseXor);
    case glslang::EOpLeftShift: return emit(Opcode::BitShiftLeft, {a, b}, node);
    case glslang::EOpRightShift: return emit(Opcode::BitShiftRight, {a, b}, node);
    case glslang::EOpLogicalXor: return emit(Opcode::LogicalXor, {a, b}, node);
    case glslang::EOpEqual:
    case glslang::EOpNotEqual:
      b = coerce(b, type_of(a), node);
      return emit(op == glslang::EOpEqual ? Opcode::Equal : Opcode::NotEqual, {a, b}, node);
    case glslang::EOpVectorEqual: return componentwise(Opcode::EqualComponentwise);
    case glslang::EOpVectorNotEqual: return componentwise(Opcode::NotEqualComponentwise);
    case glslang::EOpLessThan: return componentwise(Opcode::LessThan);
    case glslang::EOpGreaterThan: return componentwise(Opcode::GreaterThan);
    case glslang::EOpLessThanEqual: return componentwise(Opcode::LessThanEqual);
    case glslang::EOpGreaterThanEqual: return componentwise(Opcode::GreaterThanEqual);
    case glslang::EOpVectorTimesScalar:
    case glslang::EOpMatrixTimesScalar: {
      // glslang keeps the source's operand order; the IR wants the scalar last.
      if (ir::is_scalar(module_, type_of(a))) std::swap(a, b);
      if (!is_float && ir::component_kind(module_, type_of(b)) != ir::ScalarKind::Float)
        return componentwise(Opcode::Mul);
      return emit(op == glslang::EOpVectorTimesScalar ? Opcode::VectorTimesScalar : Opcode::MatrixTimesScalar,
                  {a, b}, node);
    }
    case glslang::EOpVectorTimesMatrix: return emit(Opcode::VectorTimesMatrix, {a, b}, node);
    case glslang::EOpMatrixTimesVector: return emit(Opcode::MatrixTimesVector, {a, b}, node);
    case glslang::EOpMatrixTimesMatrix: return emit(Opcode::MatrixTimesMatrix, {a, b}, node);
    default: break;
  }
  unsupported(node->getLoc(), fmt::format("the operator '{}'", operator_word(node)));
  return kNoValue;
}

Value Translator::unary(TIntermUnary* node) {
  const TOperator op = node->getOp();
  TIntermTyped* operand = node->getOperand();
  switch (op) {
    case glslang::EOpNegative: return Value::rvalue(emit(ir::Opcode::Negate, {rvalue(operand)}, node));
    case glslang::EOpLogicalNot:
    case glslang::EOpVectorLogicalNot: return Value::rvalue(emit(ir::Opcode::LogicalNot, {rvalue(operand)}, node));
    case glslang::EOpBitwiseNot: return Value::rvalue(emit(ir::Opcode::BitwiseNot, {rvalue(operand)}, node));
    case glslang::EOpPostIncrement:
    case glslang::EOpPostDecrement:
    case glslang::EOpPreIncrement:
    case glslang::EOpPreDecrement: {
      const ir::Operand p = lvalue(operand);
      const ir::Opcode o = op == glslang::EOpPostIncrement   ? ir::Opcode::PostfixIncrement
                           : op == glslang::EOpPostDecrement ? ir::Opcode::PostfixDecrement
                           : op == glslang::EOpPreIncrement  ? ir::Opcode::PrefixIncrement
                                                             : ir::Opcode::PrefixDecrement;
      locate(node);
      return Value::rvalue(emit(o, {p}, node));
    }
    case glslang::EOpCopyObject: return Value::rvalue(rvalue(operand));
    case glslang::EOpArrayLength: {
      const ir::Operand p = lvalue(operand);
      return Value::rvalue(emit(ir::Opcode::ArrayLength, {p}, node));
    }
    default: break;
  }
  if (op >= glslang::EOpConvInt8ToBool && op <= glslang::EOpConvDoubleToFloat) return conversion(node);
  TIntermTyped* const args[] = {operand};
  if (auto v = builtin(node, args)) return *v;
  if (!failed_) unsupported(node->getLoc(), fmt::format("the operator or built-in function '{}'", operator_word(node)));
  return {};
}

Value Translator::aggregate(TIntermAggregate* node) {
  const TOperator op = node->getOp();
  if (op == glslang::EOpFunctionCall) return call(node);
  if (op > glslang::EOpConstructGuardStart && op < glslang::EOpConstructGuardEnd) return constructor(node);
  if (op == glslang::EOpComma) {
    Value last;
    for (TIntermNode* n : node->getSequence())
      if (TIntermTyped* t = n ? n->getAsTyped() : nullptr) last = expr(t);
    return last;
  }
  std::vector<TIntermTyped*> args;
  for (TIntermNode* n : node->getSequence()) {
    TIntermTyped* t = n ? n->getAsTyped() : nullptr;
    if (!t) {
      unsupported(node->getLoc(), "a built-in call with a non-expression argument");
      return {};
    }
    args.push_back(t);
  }
  if (auto v = builtin(node, args)) return *v;
  if (!failed_) unsupported(node->getLoc(), fmt::format("the built-in function '{}'", operator_word(node)));
  return {};
}

Value Translator::assign(TIntermBinary* node) {
  TIntermTyped* left = node->getLeft();
  TIntermTyped* right = node->getRight();
  if (const TIntermSymbol* s = left->getAsSymbolNode(); s && try_initialize_local(s, right))
    return Value::rvalue(module_.variable(variables.at(s->getId())).initializer);
  if (const TIntermSymbol* s = left->getAsSymbolNode()) {
    if (auto value = try_bind_const_local(s, right)) return failed_ ? Value{} : Value::rvalue(*value);
  }
  const ir::Operand p = lvalue(left);
  ir::Operand v = rvalue(right);
  if (failed_) return {};
  v = coerce(v, ir::pointee(module_, type_of(p)), node);
  locate(node);
  store(p, v);
  return Value::rvalue(v);
}

Value Translator::compound_assign(TIntermBinary* node, TOperator op) {
  const ir::Operand p = lvalue(node->getLeft());
  const ir::Operand b = rvalue(node->getRight());
  if (failed_) return {};
  locate(node);
  const ir::Operand current = load(Value::pointer(p));
  ir::Operand r = arithmetic(op, current, b, node);
  r = coerce(r, ir::pointee(module_, type_of(p)), node);
  store(p, r);
  return Value::rvalue(r);
}

// gl_SampleMask and gl_SampleMaskIn have ceil(gl_MaxSamples / 32)
// elements: GLSL 4.60 §7.1.5 (and GLSL ES 3.20 §7.1.5), "This array must be
// sized in the fragment shader either implicitly or explicitly to be the
// same size as the implementation-dependent maximum sample-mask (as an
// array of 32-bit elements), determined by the maximum number of samples";
// and §4.1.9, "It is a compile-time error to declare an array with a size,
// and then later (in the same shader) index the same array with an integral
// constant expression greater than or equal to the declared size." glslang
// 12 instead sizes the array implicitly from the largest constant index
// (index_outside_sample_mask_range.frag: gl_SampleMask[1] makes it int[2]),
// so the out-of-range index would reach the output as an in-range one;
// later glslang reports the same error as here.
bool Translator::sample_mask_index_in_range(TIntermBinary* node) {
  const TIntermTyped* base = node->getLeft();
  if (base->getQualifier().builtIn != glslang::EbvSampleMask || !base->getType().isArray()) return true;
  const std::uint32_t size = static_cast<std::uint32_t>((GetDefaultResources()->maxSamples + 31) / 32);
  const std::uint32_t k = constant_index(node->getRight());
  if (k < size) return true;
  error(node->getLoc(), fmt::format("{} array index out of range '{}': the array has ceil(gl_MaxSamples / 32) = {} "
                                    "element{} (GLSL 4.60 §7.1.5, §4.1.9)",
                                    base->getAsSymbolNode() ? base->getAsSymbolNode()->getName().c_str() : "gl_SampleMask",
                                    k, size, size == 1 ? "" : "s"));
  return false;
}

Value Translator::index(TIntermBinary* node) {
  const TOperator op = node->getOp();
  if (op != glslang::EOpIndexIndirect && !node->getRight()->getAsConstantUnion()) {
    unsupported(node->getLoc(), "a direct index that is not a constant");
    return {};
  }
  if (op == glslang::EOpIndexDirectStruct) {
    if (auto member = block_member(node)) return *member;
  }
  if (op != glslang::EOpIndexDirectStruct) {
    if (TIntermBinary* sw = node->getLeft()->getAsBinaryNode();
        sw && sw->getOp() == glslang::EOpVectorSwizzle && sw->getLeft()->getType().isVector())
      return index_swizzle(node, sw);
  }
  if (op == glslang::EOpIndexDirect && !sample_mask_index_in_range(node)) return {};
  const Value base = expr(node->getLeft());
  if (failed_ || !base.valid) return {};
  const glslang::TType& bt = node->getLeft()->getType();
  TIntermTyped* right = node->getRight();
  const bool direct = op != glslang::EOpIndexIndirect;
  const bool ptr = base.is_pointer;
  using ir::Opcode;
  auto index_operand = [&]() -> ir::Operand {
    if (direct) return int_constant(static_cast<std::int32_t>(constant_index(right)));
    return rvalue(right);
  };
  ir::Operand result;
  if (op == glslang::EOpIndexDirectStruct) {
    std::uint32_t field = constant_index(right);
    if (auto it = member_remap.find(bt.getStruct()); it != member_remap.end() && field < it->second.size()) {
      if (it->second[field] < 0) {
        unsupported(node->getLoc(), "a gl_PerVertex member of an extension the shader does not enable");
        return {};
      }
      field = static_cast<std::uint32_t>(it->second[field]);
    }
    const auto lit = ir::Operand::literal(field);
    locate(node);
    result = emit(ptr ? Opcode::AccessStructField : Opcode::ExtractStructField, {base.operand, lit}, node);
  } else if (bt.isArray()) {
    const ir::Operand i = index_operand();
    locate(node);
    result = emit(ptr ? Opcode::AccessArrayElement : Opcode::ExtractArrayElement, {base.operand, i}, node);
  } else if (bt.isMatrix()) {
    const ir::Operand i = index_operand();
    locate(node);
    result = emit(ptr ? Opcode::AccessMatrixColumn : Opcode::ExtractMatrixColumn, {base.operand, i}, node);
  } else if (bt.isVector()) {
    locate(node);
    if (direct) {
      const auto lit = ir::Operand::literal(constant_index(right));
      result = emit(ptr ? Opcode::AccessVectorComponent : Opcode::ExtractVectorComponent, {base.operand, lit}, node);
    } else {
      const ir::Operand i = rvalue(right);
      locate(node);
      result = emit(ptr ? Opcode::AccessVectorComponentDynamic : Opcode::ExtractVectorComponentDynamic,
                    {base.operand, i}, node);
    }
  } else {
    unsupported(node->getLoc(), "indexing this type");
    return {};
  }
  if (failed_) return {};
  return ptr ? Value::pointer(result) : Value::rvalue(result);
}

Value Translator::index_swizzle(TIntermBinary* node, TIntermBinary* swizzle_node) {
  // `v.zyx[i]` indexes v itself: component i of the swizzle is v's
  // component swizzle[i], so no pointer to a swizzle is ever indexed.
  const Value base = expr(swizzle_node->getLeft());
  const TIntermAggregate* components = swizzle_node->getRight()->getAsAggregate();
  if (failed_ || !base.valid || !components) return {};
  std::vector<std::int32_t> picks;
  bool identity = true;
  for (TIntermNode* c : components->getSequence()) {
    const TIntermTyped* t = c ? c->getAsTyped() : nullptr;
    if (!t || !t->getAsConstantUnion()) {
      unsupported(node->getLoc(), "this swizzle");
      return {};
    }
    picks.push_back(static_cast<std::int32_t>(constant_index(t)));
    identity = identity && picks.back() == static_cast<std::int32_t>(picks.size() - 1);
  }
  const bool ptr = base.is_pointer;
  ir::Operand r;
  if (node->getOp() == glslang::EOpIndexDirect) {
    const std::uint32_t k = constant_index(node->getRight());
    if (k >= picks.size()) {
      error(node->getLoc(), "internal error: swizzle index out of range");
      return {};
    }
    locate(node);
    r = emit(ptr ? ir::Opcode::AccessVectorComponent : ir::Opcode::ExtractVectorComponent,
             {base.operand, ir::Operand::literal(static_cast<std::uint32_t>(picks[k]))}, node);
  } else {
    ir::Operand i = rvalue(node->getRight());
    locate(node);
    if (!identity) {
      std::vector<ir::ConstantId> table;
      for (std::int32_t p : picks) table.push_back(int_constant(p));
      const ir::TypeId table_type = module_.array_type(ir::predefined::kInt, static_cast<std::uint32_t>(picks.size()));
      i = emit(ir::Opcode::ExtractArrayElement, {module_.composite_constant(table_type, table), i}, node);
    }
    r = emit(ptr ? ir::Opcode::AccessVectorComponentDynamic : ir::Opcode::ExtractVectorComponentDynamic,
             {base.operand, i}, node);
  }
  if (failed_) return {};
  return ptr ? Value::pointer(r) : Value::rvalue(r);
}

Value Translator::swizzle(TIntermBinary* node) {
  const Value base = expr(node->getLeft());
  if (failed_ || !base.valid) return {};
  const TIntermAggregate* components = node->getRight()->getAsAggregate();
  if (!components) {
    unsupported(node->getLoc(), "this swizzle");
    return {};
  }
  std::vector<ir::Operand> operands{base.operand};
  for (TIntermNode* c : components->getSequence()) {
    const TIntermTyped* t = c ? c->getAsTyped() : nullptr;
    if (!t || !t->getAsConstantUnion()) {
      unsupported(node->getLoc(), "this swizzle");
      return {};
    }
    operands.push_back(ir::Operand::literal(constant_index(t)));
  }
  locate(node);
  if (node->getLeft()->getType().isScalar()) {
    // A scalar's .x / .xx (GL_ARB_shading_language_420pack).
    const ir::Operand v = load(base);
    if (operands.size() == 2) return Value::rvalue(v);
    const ir::TypeId t = type(node->getType(), node->getLoc());
    return Value::rvalue(splat(v, t, node));
  }
  const bool ptr = base.is_pointer;
  ir::Operand r;
  if (operands.size() == 2)
    r = emit(ptr ? ir::Opcode::AccessVectorComponent : ir::Opcode::ExtractVectorComponent, operands, node);
  else
    r = emit(ptr ? ir::Opcode::AccessVectorComponentMulti : ir::Opcode::ExtractVectorComponentMulti, operands, node);
  if (failed_) return {};
  return ptr ? Value::pointer(r) : Value::rvalue(r);
}

Value Translator::short_circuit(TIntermBinary* node) {
  const bool is_and = node->getOp() == glslang::EOpLogicalAnd;
  const ir::Operand a = rvalue(node->getLeft());
  if (failed_) return {};
  locate(node);
  auto blocks = builder_.branch_if(a, true, ir::predefined::kBool);
  if (!blocks) {
    error(node->getLoc(), fmt::format("internal error: {}", blocks.error()));
    return {};
  }
  // &&: the right operand only when the left one holds; ||: only when not.
  builder_.set_block(is_and ? blocks->false_block : blocks->true_block);
  terminate(ir::Opcode::Merge, is_and ? ir::predefined::kFalse : ir::predefined::kTrue);
  builder_.set_block(is_and ? blocks->true_block : blocks->false_block);
  const ir::Operand b = rvalue(node->getRight());
  if (failed_) return {};
  locate(node);
  terminate(ir::Opcode::Merge, b);
  builder_.set_block(blocks->merge);
  return Value::rvalue(builder_.merge_input(blocks->merge));
}

Value Translator::ternary(TIntermSelection* node) {
  if (node->getBasicType() == glslang::EbtVoid) {
    if_statement(node);
    return Value::rvalue(kNoValue);
  }
  TIntermTyped* yes = node->getTrueBlock() ? node->getTrueBlock()->getAsTyped() : nullptr;
  TIntermTyped* no = node->getFalseBlock() ? node->getFalseBlock()->getAsTyped() : nullptr;
  if (!yes || !no) {
    unsupported(node->getLoc(), "a selection without a value in both branches");
    return {};
  }
  const ir::TypeId t = type(node->getType(), node->getLoc());
  const ir::Operand c = rvalue(node->getCondition());
  if (failed_) return {};
  locate(node);
  ir::Precision p = node_precision(node).value_or(ir::Precision::None);
  if (ir::component_kind(module_, t) == ir::ScalarKind::Bool) p = ir::Precision::None;
  auto blocks = builder_.branch_if(c, true, t, p);
  if (!blocks) {
    error(node->getLoc(), fmt::format("internal error: {}", blocks.error()));
    return {};
  }
  for (auto [block, branch] : {std::pair{blocks->true_block, yes}, std::pair{blocks->false_block, no}}) {
    builder_.set_block(block);
    const ir::Operand v = coerce(rvalue(branch), t, branch);
    if (failed_) return {};
    locate(node);
    terminate(ir::Opcode::Merge, v);
  }
  builder_.set_block(blocks->merge);
  return Value::rvalue(builder_.merge_input(blocks->merge));
}

}  // namespace sluice::glsl_in::detail
