// Operators, built-in functions, constructors and access chains. Vector
// forms GLSL spells differently from scalar ones (comparisons, logical
// operators, not) are chosen from the operand types.
#include "output/glsl/expressions.h"

#include <algorithm>

#include <fmt/format.h>

#include "ir/constant_index.h"
#include "ir/typing.h"
#include "output/glsl/declarations.h"
#include "output/glsl/module_names.h"
#include "output/glsl/names.h"
#include "output/glsl/types.h"

namespace sluice::glsl_out {

using ir::Opcode;
using ir::TypeId;

namespace {

constexpr char kSwizzle[] = "xyzw";

std::string right_operand(const Expr& b, Prec prec) {
  return b.prec >= prec ? "(" + b.text + ")" : b.text;
}

Expr postfix(const Expr& a, std::string_view suffix) {
  return Expr{operand_text(a, Prec::Postfix) + std::string(suffix), Prec::Postfix};
}

Expr index(const Expr& a, const Expr& i) { return postfix(a, "[" + operand_text(i, Prec::Assignment) + "]"); }

std::string swizzle_letters(std::span<const Expr> ops, std::size_t from) {
  std::string s;
  for (std::size_t i = from; i < ops.size(); ++i) {
    const unsigned k = static_cast<unsigned>(std::stoul(ops[i].text));
    s += k < 4 ? kSwizzle[k] : '?';
  }
  return s;
}

std::string_view unary_function(Opcode op, bool es) {
  switch (op) {
    case Opcode::Radians: return "radians";
    case Opcode::Degrees: return "degrees";
    case Opcode::Sin: return "sin";
    case Opcode::Cos: return "cos";
    case Opcode::Tan: return "tan";
    case Opcode::Asin: return "asin";
    case Opcode::Acos: return "acos";
    case Opcode::Atan: return "atan";
    case Opcode::Sinh: return "sinh";
    case Opcode::Cosh: return "cosh";
    case Opcode::Tanh: return "tanh";
    case Opcode::Asinh: return "asinh";
    case Opcode::Acosh: return "acosh";
    case Opcode::Atanh: return "atanh";
    case Opcode::Exp: return "exp";
    case Opcode::Log: return "log";
    case Opcode::Exp2: return "exp2";
    case Opcode::Log2: return "log2";
    case Opcode::Sqrt: return "sqrt";
    case Opcode::InverseSqrt: return "inversesqrt";
    case Opcode::Abs: return "abs";
    case Opcode::Sign: return "sign";
    case Opcode::Floor: return "floor";
    case Opcode::Trunc: return "trunc";
    case Opcode::Round: return "round";
    case Opcode::RoundEven: return "roundEven";
    case Opcode::Ceil: return "ceil";
    case Opcode::Fract: return "fract";
    case Opcode::IsNan: return "isnan";
    case Opcode::IsInf: return "isinf";
    case Opcode::Length: return "length";
    case Opcode::Normalize: return "normalize";
    case Opcode::Transpose: return "transpose";
    case Opcode::Determinant: return "determinant";
    case Opcode::Inverse: return "inverse";
    case Opcode::Any: return "any";
    case Opcode::All: return "all";
    case Opcode::BitCount: return "bitCount";
    case Opcode::FindLSB: return "findLSB";
    case Opcode::FindMSB: return "findMSB";
    case Opcode::BitfieldReverse: return "bitfieldReverse";
    // GLSL ES has no fine/coarse variants; plain dFdx may be either (GLSL ES 3.10 §8.14).
    case Opcode::DFdx: return "dFdx";
    case Opcode::DFdy: return "dFdy";
    case Opcode::Fwidth: return "fwidth";
    case Opcode::DFdxFine: return es ? "dFdx" : "dFdxFine";
    case Opcode::DFdyFine: return es ? "dFdy" : "dFdyFine";
    case Opcode::FwidthFine: return es ? "fwidth" : "fwidthFine";
    case Opcode::DFdxCoarse: return es ? "dFdx" : "dFdxCoarse";
    case Opcode::DFdyCoarse: return es ? "dFdy" : "dFdyCoarse";
    case Opcode::FwidthCoarse: return es ? "fwidth" : "fwidthCoarse";
    default: return {};
  }
}

std::string_view binary_function(Opcode op) {
  switch (op) {
    case Opcode::OuterProduct: return "outerProduct";
    case Opcode::Atan2: return "atan";
    case Opcode::Pow: return "pow";
    case Opcode::Mod: return "mod";
    case Opcode::Min: return "min";
    case Opcode::Max: return "max";
    case Opcode::Step: return "step";
    case Opcode::Distance: return "distance";
    case Opcode::Dot: return "dot";
    case Opcode::Cross: return "cross";
    case Opcode::Reflect: return "reflect";
    case Opcode::Ldexp: return "ldexp";
    case Opcode::Clamp: return "clamp";
    case Opcode::Mix: return "mix";
    case Opcode::Smoothstep: return "smoothstep";
    case Opcode::Fma: return "fma";
    case Opcode::FaceForward: return "faceforward";
    case Opcode::Refract: return "refract";
    case Opcode::BitfieldExtract: return "bitfieldExtract";
    case Opcode::BitfieldInsert: return "bitfieldInsert";
    case Opcode::ControlBarrier: return "barrier";
    case Opcode::MemoryBarrier: return "memoryBarrier";
    case Opcode::MemoryBarrierBuffer: return "memoryBarrierBuffer";
    case Opcode::MemoryBarrierShared: return "memoryBarrierShared";
    case Opcode::MemoryBarrierImage: return "memoryBarrierImage";
    case Opcode::GroupMemoryBarrier: return "groupMemoryBarrier";
    case Opcode::EmitVertex: return "EmitVertex";
    case Opcode::EndPrimitive: return "EndPrimitive";
    case Opcode::EmitStreamVertex: return "EmitStreamVertex";
    case Opcode::EndStreamPrimitive: return "EndStreamPrimitive";
    case Opcode::AtomicAdd: return "atomicAdd";
    case Opcode::AtomicMin: return "atomicMin";
    case Opcode::AtomicMax: return "atomicMax";
    case Opcode::AtomicAnd: return "atomicAnd";
    case Opcode::AtomicOr: return "atomicOr";
    case Opcode::AtomicXor: return "atomicXor";
    case Opcode::AtomicExchange: return "atomicExchange";
    case Opcode::AtomicCompSwap: return "atomicCompSwap";
    default: return {};
  }
}

// Opcodes named after their GLSL built-in (PackUnorm4x8, Modf, UaddCarry,
// ...): the name with a lower-case first letter, when that is a built-in.
}  // namespace

std::string builtin_by_name(Opcode op) {
  std::string n(ir::name(op));
  if (n.empty()) return n;
  n[0] = static_cast<char>(n[0] - 'A' + 'a');
  return is_reserved_word(n) ? n : std::string();
}

namespace {

struct Operator {
  std::string_view text;
  Prec prec;
};

// Infix operators; `vector_function` is the built-in that replaces the
// operator for vector operands ("lessThan" for <), empty when the operator
// works on vectors as is.
struct Infix {
  Operator op;
  std::string_view vector_function;
};

std::optional<Infix> infix(Opcode op) {
  switch (op) {
    case Opcode::Add: return Infix{{"+", Prec::Additive}, {}};
    case Opcode::Sub: return Infix{{"-", Prec::Additive}, {}};
    case Opcode::Mul:
    case Opcode::VectorTimesScalar:
    case Opcode::MatrixTimesScalar:
    case Opcode::VectorTimesMatrix:
    case Opcode::MatrixTimesVector:
    case Opcode::MatrixTimesMatrix: return Infix{{"*", Prec::Multiplicative}, {}};
    case Opcode::Div: return Infix{{"/", Prec::Multiplicative}, {}};
    case Opcode::IMod: return Infix{{"%", Prec::Multiplicative}, {}};
    case Opcode::BitShiftLeft: return Infix{{"<<", Prec::Shift}, {}};
    case Opcode::BitShiftRight: return Infix{{">>", Prec::Shift}, {}};
    case Opcode::BitwiseAnd: return Infix{{"&", Prec::BitAnd}, {}};
    case Opcode::BitwiseXor: return Infix{{"^", Prec::BitXor}, {}};
    case Opcode::BitwiseOr: return Infix{{"|", Prec::BitOr}, {}};
    case Opcode::Equal: return Infix{{"==", Prec::Equality}, {}};
    case Opcode::NotEqual: return Infix{{"!=", Prec::Equality}, {}};
    case Opcode::EqualComponentwise: return Infix{{"==", Prec::Equality}, "equal"};
    case Opcode::NotEqualComponentwise: return Infix{{"!=", Prec::Equality}, "notEqual"};
    case Opcode::LessThan: return Infix{{"<", Prec::Relational}, "lessThan"};
    case Opcode::GreaterThan: return Infix{{">", Prec::Relational}, "greaterThan"};
    case Opcode::LessThanEqual: return Infix{{"<=", Prec::Relational}, "lessThanEqual"};
    case Opcode::GreaterThanEqual: return Infix{{">=", Prec::Relational}, "greaterThanEqual"};
    case Opcode::LogicalAnd: return Infix{{"&&", Prec::LogicalAnd}, {}};
    case Opcode::LogicalOr: return Infix{{"||", Prec::LogicalOr}, {}};
    case Opcode::LogicalXor: return Infix{{"^^", Prec::LogicalXor}, "notEqual"};
    default: return std::nullopt;
  }
}

TypeId pointee_type(const EmitContext& ctx, TypeId p) { return ir::pointee(ctx.m, p); }

Expr struct_field(EmitContext& ctx, const ir::Instruction& inst, std::span<Expr> ops) {
  const ir::Operand base = inst.operands[0];
  TypeId t = ctx.m.type_of(base);
  if (inst.opcode == Opcode::AccessStructField) t = pointee_type(ctx, t);
  const std::uint32_t k = inst.operands[1].value();
  if (base.is_variable()) {
    const VariableForm form = ctx.variable_forms[base.value()];
    if (form == VariableForm::AnonymousBlock || form == VariableForm::BuiltInBlock)
      return Expr{member_name(ctx, t, k), Prec::Primary};
  }
  return postfix(ops[0], "." + member_name(ctx, t, k));
}

Expr bitcast(EmitContext& ctx, const ir::Instruction& inst, const Expr& x) {
  const auto from = ir::component_kind(ctx.m, ctx.m.type_of(inst.operands[0]));
  const auto to = ir::component_kind(ctx.m, ctx.m.reg(inst.result).type);
  using K = ir::ScalarKind;
  if (from == to) return x;
  if (from == K::Float) return call(to == K::Int ? "floatBitsToInt" : "floatBitsToUint", std::span(&x, 1));
  if (to == K::Float) return call(from == K::Int ? "intBitsToFloat" : "uintBitsToFloat", std::span(&x, 1));
  // int <-> uint conversions keep the bit pattern.
  return call(type_text(ctx, ctx.m.reg(inst.result).type), std::span(&x, 1));
}

}  // namespace

Expr binary(const Expr& a, std::string_view op, const Expr& b, Prec prec) {
  Expr e{fmt::format("{} {} {}", operand_text(a, prec), op, right_operand(b, prec)), prec};
  e.branches = op == "&&" || op == "||" || a.branches || b.branches;
  return e;
}

Expr prefix_unary(std::string_view op, const Expr& a) {
  std::string t = operand_text(a, Prec::Unary);
  // "- -x" must not become "--x".
  if (!t.empty() && (t[0] == '-' || t[0] == '+') && (op == "-" || op == "+")) t = "(" + t + ")";
  return Expr{std::string(op) + t, Prec::Unary};
}

Expr call(std::string_view name, std::span<const Expr> args) {
  std::string text(name);
  text += '(';
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i) text += ", ";
    text += operand_text(args[i], Prec::Assignment);
  }
  text += ')';
  return Expr{std::move(text), Prec::Postfix};
}

Expr conditional(const Expr& c, const Expr& a, const Expr& b) {
  Expr e{fmt::format("{} ? {} : {}", right_operand(c, Prec::Conditional), operand_text(a, Prec::Assignment),
                     operand_text(b, Prec::Conditional)),
         Prec::Conditional};
  e.branches = true;
  return e;
}

bool load_reads_mutable_memory(const EmitContext& ctx, TypeId pointer_type) {
  if (!pointer_type.valid() || pointer_type.index() >= ctx.m.type_count()) return true;
  const ir::Type& p = ctx.m.type(pointer_type);
  if (contains_opaque(ctx, p.element)) return false;
  switch (p.storage) {
    case ir::StorageClass::Input:
    case ir::StorageClass::Uniform:
    case ir::StorageClass::UniformConstant:
    case ir::StorageClass::PushConstant: return false;
    default: return true;
  }
}

std::string_view compound_operator(const EmitContext& ctx, Opcode op, TypeId type) {
  switch (op) {
    case Opcode::Mul:
      // On matrices Mul is matrixCompMult, which has no compound form.
      return ir::is_matrix(ctx.m, type) ? std::string_view() : "*";
    case Opcode::Add: return "+";
    case Opcode::Sub: return "-";
    case Opcode::Div: return "/";
    case Opcode::IMod: return "%";
    case Opcode::VectorTimesScalar:
    case Opcode::MatrixTimesScalar:
    case Opcode::VectorTimesMatrix:
    case Opcode::MatrixTimesMatrix: return "*";
    case Opcode::BitShiftLeft: return "<<";
    case Opcode::BitShiftRight: return ">>";
    case Opcode::BitwiseAnd: return "&";
    case Opcode::BitwiseOr: return "|";
    case Opcode::BitwiseXor: return "^";
    default: return {};
  }
}

namespace {

// glslang gives an explicit conversion (`float(i)`) its operand's precision
// but an implicit one (`v / i`) none, which its context then fills in.
// Where the IR's differs from the operand's, the operand is wrapped in a
// constructor of its own type (`float(int(i))`), which glslang leaves
// without precision and the IR does not keep, so the conversion takes its
// context's as in the source.
bool conversion_takes_context_precision(const EmitContext& ctx, const ir::Instruction& inst) {
  if ((inst.opcode != Opcode::ConstructScalarFromScalar && inst.opcode != Opcode::ConstructVectorFromVector) ||
      !inst.result.valid() || inst.operands.size() != 1)
    return false;
  const ir::RegisterInfo& r = ctx.m.reg(inst.result);
  if (ir::component_kind(ctx.m, r.type) == ir::ScalarKind::Bool) return false;
  const ir::Precision from = text_precision(ctx, inst.operands[0]);
  return from != ir::Precision::None && from != r.precision;
}

}  // namespace

std::optional<ir::ConstantId> out_of_range_constant_index(const ir::Module& m, const ir::Instruction& inst) {
  switch (inst.opcode) {
    case Opcode::AccessArrayElement:
    case Opcode::AccessMatrixColumn:
    case Opcode::AccessVectorComponentDynamic:
    case Opcode::ExtractArrayElement:
    case Opcode::ExtractMatrixColumn:
    case Opcode::ExtractVectorComponentDynamic: break;
    default: return std::nullopt;
  }
  if (inst.operands.size() < 2 || inst.operands[1].kind() != ir::Operand::Kind::Constant) return std::nullopt;
  TypeId composite = m.type_of(inst.operands[0]);
  if (ir::info(inst.opcode).family == ir::OpcodeFamily::Access) composite = ir::pointee(m, composite);
  const ir::ConstantId c = inst.operands[1].as_constant();
  if (!ir::constant_index_out_of_range(m, composite, c)) return std::nullopt;
  return c;
}

Expr compose(EmitContext& ctx, const ir::Instruction& inst, std::span<Expr> ops, bool scalar_first) {
  const ir::Module& m = ctx.m;
  const Opcode op = inst.opcode;
  const ir::OpcodeInfo& oi = ir::info(op);
  const TypeId result_type = inst.result.valid() ? m.reg(inst.result).type : TypeId{};
  auto type_of = [&](std::size_t i) { return m.type_of(inst.operands[i]); };
  Expr e;
  switch (oi.family) {
    case ir::OpcodeFamily::Access:
    case ir::OpcodeFamily::Extract:
      switch (op) {
        case Opcode::AccessVectorComponent:
        case Opcode::ExtractVectorComponent: e = postfix(ops[0], "." + swizzle_letters(ops, 1)); break;
        case Opcode::AccessVectorComponentMulti:
        case Opcode::ExtractVectorComponentMulti: e = postfix(ops[0], "." + swizzle_letters(ops, 1)); break;
        case Opcode::AccessStructField:
        case Opcode::ExtractStructField: e = struct_field(ctx, inst, ops); break;
        default: {
          const auto out_of_range = out_of_range_constant_index(m, inst);
          if (!out_of_range) {
            e = index(ops[0], ops[1]);
            break;
          }
          const auto named = std::find_if(ctx.out_of_range_indices.begin(), ctx.out_of_range_indices.end(),
                                          [&](const auto& entry) { return entry.first == *out_of_range; });
          if (named == ctx.out_of_range_indices.end()) {
            ctx.fail("internal: an out-of-range constant index without its local");
            break;
          }
          e = index(ops[0], Expr{named->second, Prec::Primary});
          break;
        }
      }
      break;
    case ir::OpcodeFamily::Construct:
      if (op == Opcode::Bitcast) {
        e = bitcast(ctx, inst, ops[0]);
      } else if (conversion_takes_context_precision(ctx, inst)) {
        const Expr bare = call(type_text(ctx, type_of(0)), ops);
        e = call(type_text(ctx, result_type), std::span<const Expr>(&bare, 1));
      } else {
        e = call(type_text(ctx, result_type), ops);
      }
      break;
    case ir::OpcodeFamily::Memory:
      if (op == Opcode::Load) {
        e = ops[0];
      } else if (op == Opcode::Store) {
        e = Expr{fmt::format("{} = {}", ops[0].text, operand_text(ops[1], Prec::Assignment)), Prec::Assignment};
      } else {
        e = postfix(ops[0], ".length()");
      }
      break;
    case ir::OpcodeFamily::Call:
      e = call(ops[0].text, ops.subspan(1));
      break;
    case ir::OpcodeFamily::Unary:
      switch (op) {
        case Opcode::Negate: e = prefix_unary("-", ops[0]); break;
        case Opcode::LogicalNot:
          e = ir::is_vector(m, type_of(0)) ? call("not", ops) : prefix_unary("!", ops[0]);
          break;
        case Opcode::BitwiseNot: e = prefix_unary("~", ops[0]); break;
        case Opcode::PrefixIncrement: e = prefix_unary("++", ops[0]); break;
        case Opcode::PrefixDecrement: e = prefix_unary("--", ops[0]); break;
        case Opcode::PostfixIncrement: e = postfix(ops[0], "++"); break;
        case Opcode::PostfixDecrement: e = postfix(ops[0], "--"); break;
        default: {
          std::string f(unary_function(op, ctx.es));
          const std::string_view opname = ir::name(op);
          if (opname == "AnyInvocation" || opname == "AllInvocations" || opname == "AllInvocationsEqual") {
            // GLSL 4.60's votes are GL_ARB_shader_group_vote's in 4.50.
            if (ctx.es) ctx.fail(fmt::format("{} does not exist in GLSL ES", opname));
            ctx.extensions.insert("GL_ARB_shader_group_vote");
            f = builtin_by_name(op) + "ARB";
          }
          if (f.empty()) f = builtin_by_name(op);
          if (f.empty()) ctx.fail(fmt::format("opcode {} has no GLSL spelling", ir::name(op)));
          e = call(f, ops);
        }
      }
      break;
    case ir::OpcodeFamily::Binary:
    case ir::OpcodeFamily::BuiltIn:
    case ir::OpcodeFamily::Atomic: {
      if (op == Opcode::Mul && ir::is_matrix(m, type_of(0))) {
        e = call("matrixCompMult", ops);
        break;
      }
      if (auto in = infix(op)) {
        const bool vector = ir::is_vector(m, type_of(0));
        if (vector && (op == Opcode::LogicalAnd || op == Opcode::LogicalOr)) {
          // bvec && bvec does not exist: combine as unsigned bits.
          const std::string n = std::to_string(ir::component_count(m, type_of(0)));
          Expr a = call("uvec" + n, ops.subspan(0, 1)), b = call("uvec" + n, ops.subspan(1, 1));
          Expr bits = binary(a, op == Opcode::LogicalAnd ? "&" : "|", b,
                             op == Opcode::LogicalAnd ? Prec::BitAnd : Prec::BitOr);
          e = call("bvec" + n, std::span(&bits, 1));
        } else if (vector && !in->vector_function.empty()) {
          e = call(in->vector_function, ops);
        } else if (scalar_first && (op == Opcode::VectorTimesScalar || op == Opcode::MatrixTimesScalar)) {
          e = binary(ops[1], in->op.text, ops[0], in->op.prec);
        } else {
          e = binary(ops[0], in->op.text, ops[1], in->op.prec);
        }
        break;
      }
      if (op == Opcode::Select) {
        // mix(x, y, a) is what a GLSL front end makes a Select of (a ?:
        // becomes an If); it takes as many selectors as components.
        if (ir::is_vector(m, type_of(0)) || ir::is_scalar(m, type_of(1))) {
          Expr args[] = {ops[2], ops[1], ops[0]};
          e = call("mix", args);
        } else {
          e = conditional(ops[0], ops[1], ops[2]);
        }
        break;
      }
      if (op == Opcode::Fma && ctx.es) {
        // GLSL ES 3.10 has no fma; a*b+c may itself be fused (GLSL ES §8.3).
        e = binary(binary(ops[0], "*", ops[1], Prec::Multiplicative), "+", ops[2], Prec::Additive);
        break;
      }
      std::string f(binary_function(op));
      if (f.empty()) f = builtin_by_name(op);
      if (f.empty()) ctx.fail(fmt::format("opcode {} has no GLSL spelling", ir::name(op)));
      e = call(f, ops);
      break;
    }
    case ir::OpcodeFamily::Texture:
    case ir::OpcodeFamily::Image: e = compose_texture(ctx, inst, ops); break;
    case ir::OpcodeFamily::Alias: e = ops[0]; break;
    case ir::OpcodeFamily::Control: ctx.fail("a terminator is not an expression"); break;
  }
  // The instruction's own memory access is the statement emitter's to add.
  std::uint32_t depth = 0;
  e.access = MemoryAccess{};
  for (const Expr& o : ops) {
    e.access.merge(o.access);
    depth = std::max(depth, o.depth);
    e.branches = e.branches || o.branches;
  }
  e.depth = op == Opcode::Load || op == Opcode::Alias ? depth : depth + 1;
  return e;
}

}  // namespace sluice::glsl_out
