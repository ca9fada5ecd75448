// The ub-check pass (issue 15, docs/ub-check.md): every instruction whose
// result GLSL 4.60, GLSL.std.450 or the SPIR-V specification leaves
// undefined for some operand values gets a run-time guard.
//
// Algorithm: one transform walk (transformer.h) over every function the
// shader had (the report function it adds is not walked). For each
// instruction the table below knows, with `x` the operand the condition is
// about:
//
//   bad  = <condition on the operands>        (bool, or a bool vector)
//   Call sluice_ub_report(any(bad), check, location)
//   x'   = Select(bad, safe, x)               (componentwise)
//   r    = <the instruction, with x' for x>   (the same result register)
//
// `safe` is a value for which the operation is defined (a divisor 1, an
// index 0, a sqrt argument 0, ...), so the instrumented program never
// executes the undefined operation, and where bad is false x' is x: the
// program computes exactly what it computed before. `location` is the
// instruction's source-location id (ir::Module's location table, which
// the front ends fill) and `check` a UbCheck; the report function
// (ub_check_report.cpp) appends (check, location, invocation) to the
// findings buffer. Operands that are constants known to be in the
// operation's domain (a divisor 2, a shift by 3, an index 1 into an
// array of 4) get no guard. The conditions, and the sentence of the
// specification behind each, are docs/ub-check.md's table.
//
// Cascades: the substitute is a defined value, but not the program's, and
// a condition on values computed from it is no finding of the program
// (`uv4 / u` with `u` unwritten: the guard reads u as 0, and the division
// would then report a division by zero the program does not make). So
// each register carries a taint, a bool that holds where its value comes
// from a substitute: the OR of its operands' taints and of the guard's own
// substitution conditions; a guard's reports are ANDed with the negated
// taint of the operands the condition is about. Memory carries it in shadow bools
// (ub_check_taint.cpp).
//
// uninitialized-read is the one check with state: a shadow flag per
// variable, set by writes and tested by reads (ub_check_uninitialized.cpp,
// which adds its part of each instruction's guard in the same walk).
//
// Linear in the module: a constant number of instructions per guarded one.
#include "transform/ub_check.h"

#include <array>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "ir/typing.h"
#include "transform/transformer.h"
#include "transform/ub_check_guard.h"
#include "transform/ub_check_report.h"

namespace sluice::transform {

using namespace ir;

namespace {

using ub::Guard;

struct CheckInfo {
  std::string_view name;
  std::string_view message;
};

constexpr std::array<CheckInfo, kUbCheckCount> kChecks = {{
    {"", ""},
    {"div-by-zero", "integer division by zero"},
    {"div-overflow", "integer division overflow: the most negative int divided by -1"},
    {"shift-out-of-range", "shift amount is negative or not less than the bit width"},
    {"index-out-of-bounds", "index out of bounds"},
    {"float-to-int-overflow", "float to integer conversion of a value out of the integer's range (or NaN, Inf)"},
    {"domain-sqrt", "sqrt of a negative value"},
    {"domain-inversesqrt", "inversesqrt of a value <= 0"},
    {"domain-log", "log of a value <= 0"},
    {"domain-log2", "log2 of a value <= 0"},
    {"domain-pow", "pow(x, y) with x < 0, or x = 0 and y <= 0"},
    {"domain-asin", "asin of a value outside [-1, 1]"},
    {"domain-acos", "acos of a value outside [-1, 1]"},
    {"domain-atan2", "atan(y, x) with x and y both 0"},
    {"domain-acosh", "acosh of a value < 1"},
    {"domain-atanh", "atanh of a value outside (-1, 1)"},
    {"domain-clamp", "clamp with minVal > maxVal"},
    {"domain-smoothstep", "smoothstep with edge0 >= edge1"},
    {"domain-normalize", "normalize of a zero vector"},
    {"domain-mod", "mod by zero"},
    {"domain-bitfield", "bitfield offset or bits negative, or offset + bits above 32"},
    {"uninitialized-read", "read of a variable this invocation has not written"},
}};

// Every component of the constant `c`, as integers; nullopt unless `c` is
// a plain (not specialization) int or uint scalar or vector constant.
std::optional<std::vector<std::int64_t>> integer_components(const Module& m, Operand c) {
  if (!c.is_constant()) return std::nullopt;
  const Constant& k = m.constant(c.as_constant());
  if (k.spec_id || k.spec_op != SpecOp::None) return std::nullopt;
  const auto kind = component_kind(m, k.type);
  if (kind != ScalarKind::Int && kind != ScalarKind::Uint) return std::nullopt;
  std::vector<ConstantId> ids;
  if (k.is_composite()) ids.assign(k.components.begin(), k.components.end());
  else ids.push_back(c.as_constant());
  std::vector<std::int64_t> out;
  for (ConstantId id : ids) {
    const Constant& s = m.constant(id);
    if (s.spec_id || s.spec_op != SpecOp::None) return std::nullopt;
    out.push_back(kind == ScalarKind::Int ? std::int64_t{s.as_int()} : std::int64_t{s.as_uint()});
  }
  return out;
}

bool all_in(const std::optional<std::vector<std::int64_t>>& values, std::int64_t lo, std::int64_t hi) {
  if (!values) return false;
  for (std::int64_t v : *values)
    if (v < lo || v > hi) return false;
  return true;
}

bool is_signed(const Module& m, Operand x) { return component_kind(m, m.type_of(x)) == ScalarKind::Int; }
bool is_float(const Module& m, Operand x) { return component_kind(m, m.type_of(x)) == ScalarKind::Float; }

void guard_division(Module& m, Guard& g, const Instruction& inst) {
  const Operand a = inst.operands[0], b = inst.operands[1];
  const bool sign = is_signed(m, b);
  const auto divisor = integer_components(m, b);
  if (divisor && all_in(divisor, 1, std::numeric_limits<std::int64_t>::max())) return;
  if (divisor && sign && all_in(divisor, std::numeric_limits<std::int32_t>::min(), -2)) return;
  Operand zero = g.eq(b, 0);
  g.report(zero, UbCheck::DivByZero, {1});
  const auto dividend = integer_components(m, a);
  const bool can_overflow = !dividend || !all_in(dividend, std::numeric_limits<std::int32_t>::min() + 1,
                                                 std::numeric_limits<std::int32_t>::max());
  if (sign && can_overflow) {
    const Operand overflow = g.both(g.eq(a, std::numeric_limits<std::int32_t>::min()), g.eq(b, -1));
    g.report(overflow, UbCheck::DivOverflow, {0, 1});
    zero = g.either(zero, overflow);
  }
  g.define(1, zero, 1);
}

void guard_shift(Module& m, Guard& g, const Instruction& inst) {
  const Operand b = inst.operands[1];
  if (all_in(integer_components(m, b), 0, 31)) return;
  Operand bad = g.ge(b, 32);
  if (is_signed(m, b)) bad = g.either(g.lt(b, 0), bad);
  g.report(bad, UbCheck::ShiftOutOfRange, {1});
  g.define(1, bad, 0);
}

// Dynamic indices: Access* on a pointer, Extract* on a value.
void guard_index(Module& m, Guard& g, const Instruction& inst, bool through_pointer) {
  const Operand base = inst.operands[0], index = inst.operands[1];
  TypeId t = m.type_of(base);
  if (through_pointer) t = pointee(m, t);
  const Type& type = m.type(t);
  const bool sign = is_signed(m, index);
  Operand bad;
  if (type.kind == TypeKind::UnsizedArray) {
    if (!through_pointer) return;
    Operand length = g.op(Opcode::ArrayLength, {base});
    if (!sign) length = g.op(Opcode::ConstructScalarFromScalar, {length}, m.scalar_type(ScalarKind::Uint));
    bad = g.op(Opcode::GreaterThanEqual, {index, length});
  } else {
    const bool sized = type.kind == TypeKind::Vector || type.kind == TypeKind::Matrix ||
                       (type.kind == TypeKind::Array && !type.length.valid());
    if (!sized || type.count == 0) return;
    if (all_in(integer_components(m, index), 0, std::int64_t{type.count} - 1)) return;
    bad = g.ge(index, type.count);
  }
  if (sign) bad = g.either(g.lt(index, 0), bad);
  g.report(bad, UbCheck::IndexOutOfBounds, {1});
  g.define(1, bad, 0);
}

// Float → int/uint conversions (SPIR-V OpConvertFToS/FToU).
void guard_conversion(Module& m, Guard& g, const Instruction& inst, TypeId result) {
  const Operand x = inst.operands[0];
  if (!is_float(m, x)) return;
  const auto to = component_kind(m, result);
  if (to != ScalarKind::Int && to != ScalarKind::Uint) return;
  // In range: -2^31 <= x < 2^31 (int), -1 < x < 2^32 (uint, truncated
  // toward zero); NaN fails both comparisons, so it is out of range too.
  const bool sign = to == ScalarKind::Int;
  const Operand low = sign ? g.ge(x, -2147483648.0) : g.gt(x, -1.0);
  const Operand high = g.lt(x, sign ? 2147483648.0 : 4294967296.0);
  const Operand bad = g.op(Opcode::LogicalNot, {g.both(low, high)});
  g.report(bad, UbCheck::FloatToIntOverflow, {0});
  g.define(0, bad, 0);
}

void guard_bitfield(Module& m, Guard& g, std::size_t offset_at, std::size_t bits_at) {
  // offset < 0 || bits < 0 || offset > 32 || bits > 32 - offset, in int
  // (a uint above INT_MAX reads as negative: out of range either way).
  const auto as_int = [&](Operand v) {
    return is_signed(m, v) ? v : g.op(Opcode::ConstructScalarFromScalar, {v}, m.scalar_type(ScalarKind::Int));
  };
  const auto known_offset = integer_components(m, g.operand(offset_at));
  const auto known_bits = integer_components(m, g.operand(bits_at));
  if (all_in(known_offset, 0, 32) && all_in(known_bits, 0, 32) && known_offset->front() + known_bits->front() <= 32)
    return;
  const Operand offset = as_int(g.operand(offset_at)), bits = as_int(g.operand(bits_at));
  const Operand room = g.op(Opcode::Sub, {Operand(m.int_constant(32)), offset});
  const Operand bad = g.either(g.either(g.lt(offset, 0), g.lt(bits, 0)),
                               g.either(g.gt(offset, 32), g.op(Opcode::GreaterThan, {bits, room})));
  g.report(bad, UbCheck::DomainBitfield, {offset_at, bits_at});
  g.define(offset_at, bad, 0);
  g.define(bits_at, bad, 0);
}

// GLSL.std.450's "undefined if" argument conditions.
void guard_domain(Guard& g, const Instruction& inst) {
  const Operand x = inst.operands[0];
  switch (inst.opcode) {
    case Opcode::Sqrt: {
      const Operand bad = g.lt(x, 0);
      g.report(bad, UbCheck::DomainSqrt, {0});
      return g.define(0, bad, 0);
    }
    case Opcode::InverseSqrt:
    case Opcode::Log:
    case Opcode::Log2: {
      const Operand bad = g.le(x, 0);
      g.report(bad, inst.opcode == Opcode::InverseSqrt ? UbCheck::DomainInverseSqrt
                    : inst.opcode == Opcode::Log       ? UbCheck::DomainLog
                                                       : UbCheck::DomainLog2,
               {0});
      return g.define(0, bad, 1);
    }
    case Opcode::Pow: {
      const Operand y = inst.operands[1];
      const Operand bad = g.either(g.lt(x, 0), g.both(g.eq(x, 0), g.le(y, 0)));
      g.report(bad, UbCheck::DomainPow, {0, 1});
      return g.define(0, bad, 1);
    }
    case Opcode::Asin:
    case Opcode::Acos: {
      const Operand bad = g.either(g.lt(x, -1), g.gt(x, 1));
      g.report(bad, inst.opcode == Opcode::Asin ? UbCheck::DomainAsin : UbCheck::DomainAcos, {0});
      return g.define(0, bad, 0);
    }
    case Opcode::Atan2: {  // atan(y, x): operand 0 is y
      const Operand bad = g.both(g.eq(x, 0), g.eq(inst.operands[1], 0));
      g.report(bad, UbCheck::DomainAtan2, {0, 1});
      return g.define(1, bad, 1);
    }
    case Opcode::Acosh: {
      const Operand bad = g.lt(x, 1);
      g.report(bad, UbCheck::DomainAcosh, {0});
      return g.define(0, bad, 1);
    }
    case Opcode::Atanh: {
      const Operand bad = g.either(g.le(x, -1), g.ge(x, 1));
      g.report(bad, UbCheck::DomainAtanh, {0});
      return g.define(0, bad, 0);
    }
    case Opcode::Clamp: {
      const Operand low = inst.operands[1], high = inst.operands[2];
      const Operand bad = g.op(Opcode::GreaterThan, {low, high});
      g.report(bad, UbCheck::DomainClamp, {1, 2});
      return g.define(2, bad, low);
    }
    case Opcode::Smoothstep: {
      const Operand bad = g.op(Opcode::GreaterThanEqual, {x, inst.operands[1]});
      g.report(bad, UbCheck::DomainSmoothstep, {0, 1});
      g.define(0, bad, 0);
      return g.define(1, bad, 1);
    }
    case Opcode::Normalize: {
      const Operand bad = g.eq(g.op(Opcode::Length, {x}), 0);
      g.report(bad, UbCheck::DomainNormalize, {0});
      return g.define(0, bad, 1);
    }
    case Opcode::Mod: {
      const Operand bad = g.eq(inst.operands[1], 0);
      g.report(bad, UbCheck::DomainMod, {1});
      return g.define(1, bad, 1);
    }
    default: return;
  }
}

// The guard `inst` needs; empty when it needs none.
Result<Transforms> guard(Module& m, const ub::Reporter& reporter, const ub::Shadows& shadows, ub::Taints& taints,
                         const Instruction& inst, std::vector<UbSite>& sites) {
  Guard g(m, reporter, inst, sites);
  taints.before(m, g, inst);
  shadows.guard(m, g, inst);
  switch (inst.opcode) {
    case Opcode::Div:
    case Opcode::IMod:
      if (!is_float(m, inst.operands[1])) guard_division(m, g, inst);
      break;
    case Opcode::BitShiftLeft:
    case Opcode::BitShiftRight: guard_shift(m, g, inst); break;
    case Opcode::AccessArrayElement:
    case Opcode::AccessVectorComponentDynamic:
    case Opcode::AccessMatrixColumn: guard_index(m, g, inst, true); break;
    case Opcode::ExtractArrayElement:
    case Opcode::ExtractVectorComponentDynamic:
    case Opcode::ExtractMatrixColumn: guard_index(m, g, inst, false); break;
    case Opcode::ConstructScalarFromScalar:
    case Opcode::ConstructVectorFromScalar:
    case Opcode::ConstructVectorFromVector: guard_conversion(m, g, inst, m.reg(inst.result).type); break;
    case Opcode::BitfieldExtract: guard_bitfield(m, g, 1, 2); break;
    case Opcode::BitfieldInsert: guard_bitfield(m, g, 2, 3); break;
    case Opcode::Sqrt:
    case Opcode::InverseSqrt:
    case Opcode::Log:
    case Opcode::Log2:
    case Opcode::Pow:
    case Opcode::Asin:
    case Opcode::Acos:
    case Opcode::Atan2:
    case Opcode::Acosh:
    case Opcode::Atanh:
    case Opcode::Smoothstep:
    case Opcode::Normalize:
    case Opcode::Mod: guard_domain(g, inst); break;
    case Opcode::Clamp:
      guard_domain(g, inst);
      break;
    default: break;
  }
  taints.after(m, g, inst);
  if (!g.emitted() && !g.has_after() && !g.failed()) return Transforms{};
  return g.finish();
}

}  // namespace

std::string_view ub_check_name(std::uint32_t id) { return id < kUbCheckCount ? kChecks[id].name : ""; }
std::string_view ub_check_message(std::uint32_t id) { return id < kUbCheckCount ? kChecks[id].message : ""; }
std::optional<UbCheck> ub_check_from_name(std::string_view name) {
  for (std::uint32_t i = 1; i < kUbCheckCount; ++i)
    if (kChecks[i].name == name) return static_cast<UbCheck>(i);
  return std::nullopt;
}

Result<UbCheckMap> ub_check(Module& m, const UbCheckOptions& options) {
  auto where = ub::choose_binding(m, options);
  if (!where) return where.failure();
  UbCheckMap map = std::move(*where);
  // Instrumented on a copy, which replaces the module only when something
  // needed a guard: a shader with nothing to check keeps its interface.
  Module copy = m;
  const std::size_t shader_functions = copy.function_count();
  const std::size_t shadow_functions = shader_functions;
  auto reporter = ub::add_reporter(copy, map);
  if (!reporter) return reporter.failure().prefixed("ub-check: ");
  ub::Taints taints(copy, shadow_functions);
  const ub::Shadows shadows(copy, shadow_functions);
  std::optional<Error> failure;
  auto walked = transform::for_each_function(
      copy, [&](FunctionId f) { return f.index() < shader_functions; },
      [&](FunctionId f, BlockId entry) -> Status {
        return transform_block(copy, f, entry, [&](InstructionSite&, const Instruction& inst) -> Transforms {
          if (failure || is_terminator(inst.opcode)) return {};
          auto guarded = guard(copy, *reporter, shadows, taints, inst, map.sites);
          if (!guarded) {
            failure = guarded.failure();
            return {};
          }
          return std::move(*guarded);
        });
      });
  if (!walked) return walked.failure();
  if (failure) return internal_error("ub-check: " + failure->text());
  if (!map.sites.empty()) m = std::move(copy);
  return map;
}

}  // namespace sluice::transform
