// The reference interpreter's arithmetic (ir_interpreter.h), written here
// from the GLSL 4.60 definitions (§5.9 expressions, §8 built-in functions)
// and independently of transform/fold: a differential test whose
// interpreter computed with fold::evaluate would agree with a wrong fold.
// Scalars and vectors of float (IEEE-754 binary32, each operation rounded
// once), int and uint (two's complement, wrapping) and bool; an operation
// it does not model, or whose result GLSL leaves undefined (integer
// division by zero, INT_MIN / -1), gives nullopt and the interpreter
// reports it.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ir/module.h"
#include "ir/typing.h"

namespace sluice::testing {

class Arithmetic {
 public:
  explicit Arithmetic(ir::Module& m) : m_(m) {}

  // The value of `op` (result type `type`) on constant operands; literal
  // operands (component indices) are passed as they are.
  std::optional<ir::ConstantId> evaluate(ir::Opcode op, ir::TypeId type, std::span<const ir::Operand> ops) {
    using ir::Opcode;
    switch (op) {
      case Opcode::ExtractVectorComponent: {
        const ir::Constant& v = m_.constant(ops[0].as_constant());
        if (!ops[1].is_literal() || ops[1].value() >= v.components.size()) return std::nullopt;
        return v.components[ops[1].value()];
      }
      case Opcode::ConstructVectorFromScalar: {
        const std::uint32_t n = m_.type(type).count;
        const auto scalar = convert(ops[0].as_constant(), m_.type(type).element);
        if (!scalar) return std::nullopt;
        std::vector<ir::ConstantId> parts(n, *scalar);
        return m_.composite_constant(type, parts);
      }
      case Opcode::ConstructScalarFromScalar: return convert(ops[0].as_constant(), type);
      case Opcode::Select: {
        // cond ? a : b, componentwise when cond is a bool vector.
        const ir::Constant& c = m_.constant(ops[0].as_constant());
        if (!c.is_composite()) return c.as_bool() ? ops[1].as_constant() : ops[2].as_constant();
        std::vector<ir::ConstantId> parts;
        for (std::size_t i = 0; i < c.components.size(); ++i)
          parts.push_back(part(m_.constant(c.components[i]).as_bool() ? ops[1] : ops[2], i));
        return m_.composite_constant(type, parts);
      }
      default: break;
    }
    // Componentwise operations: every operand a scalar or a vector of the
    // result's (or, for comparisons, the operands') width.
    const std::size_t width = m_.type(type).kind == ir::TypeKind::Vector ? m_.type(type).count : 1;
    if (op == Opcode::Equal || op == Opcode::NotEqual) {  // whole values
      const bool equal = ops[0].as_constant() == ops[1].as_constant() || same_value(ops[0], ops[1]);
      return m_.bool_constant(op == Opcode::Equal ? equal : !equal);
    }
    std::vector<ir::ConstantId> parts;
    for (std::size_t i = 0; i < width; ++i) {
      std::vector<ir::ConstantId> args;
      for (const ir::Operand& o : ops) args.push_back(part(o, i));
      const ir::TypeId component = width == 1 ? type : m_.type(type).element;
      auto r = scalar(op, component, args);
      if (!r) return std::nullopt;
      parts.push_back(*r);
    }
    return width == 1 ? parts[0] : m_.composite_constant(type, parts);
  }

 private:
  // Component i of a vector operand; a scalar operand is its own component.
  ir::ConstantId part(const ir::Operand& o, std::size_t i) const {
    const ir::Constant& c = m_.constant(o.as_constant());
    return c.is_composite() ? c.components.at(i) : o.as_constant();
  }
  bool same_value(const ir::Operand& a, const ir::Operand& b) const {
    const ir::Constant& x = m_.constant(a.as_constant());
    const ir::Constant& y = m_.constant(b.as_constant());
    if (x.is_composite() != y.is_composite() || x.components.size() != y.components.size()) return false;
    if (!x.is_composite()) {
      if (m_.type(x.type).scalar == ir::ScalarKind::Float) return x.as_float() == y.as_float();
      return x.bits == y.bits;
    }
    for (std::size_t i = 0; i < x.components.size(); ++i)
      if (!same_value(ir::Operand(x.components[i]), ir::Operand(y.components[i]))) return false;
    return true;
  }
  ir::ScalarKind kind(ir::ConstantId c) const { return m_.type(m_.constant(c).type).scalar; }

  // GLSL constructor conversions between scalar types (§5.4.1).
  std::optional<ir::ConstantId> convert(ir::ConstantId c, ir::TypeId to) {
    const ir::Constant& k = m_.constant(c);
    const ir::ScalarKind from = kind(c), target = m_.type(to).scalar;
    switch (target) {
      case ir::ScalarKind::Float:
        switch (from) {
          case ir::ScalarKind::Float: return c;
          case ir::ScalarKind::Int: return m_.float_constant(static_cast<float>(k.as_int()));
          case ir::ScalarKind::Uint: return m_.float_constant(static_cast<float>(k.as_uint()));
          case ir::ScalarKind::Bool: return m_.float_constant(k.as_bool() ? 1.0f : 0.0f);
        }
        break;
      case ir::ScalarKind::Int:
      case ir::ScalarKind::Uint: {
        std::uint32_t bits = 0;
        if (from == ir::ScalarKind::Float) {
          const float f = k.as_float();
          // Out of range is undefined in GLSL.
          if (!(f > -2147483649.0f && f < 4294967296.0f)) return std::nullopt;
          if (target == ir::ScalarKind::Int && !(f < 2147483648.0f)) return std::nullopt;
          if (target == ir::ScalarKind::Uint && !(f > -1.0f)) return std::nullopt;
          bits = target == ir::ScalarKind::Int ? static_cast<std::uint32_t>(static_cast<std::int32_t>(f))
                                               : static_cast<std::uint32_t>(f);
        } else if (from == ir::ScalarKind::Bool) {
          bits = k.as_bool() ? 1 : 0;
        } else {
          bits = k.bits;  // int <-> uint keeps the bits
        }
        return target == ir::ScalarKind::Int ? m_.int_constant(static_cast<std::int32_t>(bits))
                                             : m_.uint_constant(bits);
      }
      case ir::ScalarKind::Bool:
        return m_.bool_constant(from == ir::ScalarKind::Float ? k.as_float() != 0.0f : k.bits != 0);
    }
    return std::nullopt;
  }

  std::optional<ir::ConstantId> scalar(ir::Opcode op, ir::TypeId type, const std::vector<ir::ConstantId>& a) {
    using ir::Opcode;
    const ir::ScalarKind k = kind(a[0]);
    auto f = [&](std::size_t i) { return m_.constant(a[i]).as_float(); };
    auto u = [&](std::size_t i) { return m_.constant(a[i]).as_uint(); };
    auto s = [&](std::size_t i) { return m_.constant(a[i]).as_int(); };
    auto b = [&](std::size_t i) { return m_.constant(a[i]).as_bool(); };
    auto result_float = [&](float x) { return m_.float_constant(x); };
    // Integer results: computed on uint32 (wrapping), typed as the result.
    auto result_int = [&](std::uint32_t bits) -> ir::ConstantId {
      return m_.type(type).scalar == ir::ScalarKind::Int ? m_.int_constant(static_cast<std::int32_t>(bits))
                                                         : m_.uint_constant(bits);
    };
    auto compare = [&](auto less, auto equal) -> std::optional<ir::ConstantId> {
      switch (op) {
        case Opcode::LessThan: return m_.bool_constant(less(0, 1));
        case Opcode::GreaterThan: return m_.bool_constant(less(1, 0));
        case Opcode::LessThanEqual: return m_.bool_constant(less(0, 1) || equal(0, 1));
        case Opcode::GreaterThanEqual: return m_.bool_constant(less(1, 0) || equal(0, 1));
        case Opcode::EqualComponentwise: return m_.bool_constant(equal(0, 1));
        case Opcode::NotEqualComponentwise: return m_.bool_constant(!equal(0, 1));
        default: return std::nullopt;
      }
    };
    if (k == ir::ScalarKind::Bool) {
      switch (op) {
        case Opcode::LogicalNot: return m_.bool_constant(!b(0));
        case Opcode::LogicalAnd: return m_.bool_constant(b(0) && b(1));
        case Opcode::LogicalOr: return m_.bool_constant(b(0) || b(1));
        case Opcode::LogicalXor:
        case Opcode::NotEqualComponentwise: return m_.bool_constant(b(0) != b(1));
        case Opcode::EqualComponentwise: return m_.bool_constant(b(0) == b(1));
        default: return std::nullopt;
      }
    }
    if (k == ir::ScalarKind::Float) {
      switch (op) {
        case Opcode::Negate: return result_float(-f(0));
        case Opcode::Add: return result_float(f(0) + f(1));
        case Opcode::Sub: return result_float(f(0) - f(1));
        case Opcode::Mul: return result_float(f(0) * f(1));
        case Opcode::Div: return result_float(f(0) / f(1));
        case Opcode::Min: return result_float(f(1) < f(0) ? f(1) : f(0));  // §8.3: y < x ? y : x
        case Opcode::Max: return result_float(f(0) < f(1) ? f(1) : f(0));  // x < y ? y : x
        case Opcode::Abs: return result_float(std::fabs(f(0)));
        case Opcode::Floor: return result_float(std::floor(f(0)));
        case Opcode::Ceil: return result_float(std::ceil(f(0)));
        case Opcode::Trunc: return result_float(std::trunc(f(0)));
        case Opcode::Fract: return result_float(f(0) - std::floor(f(0)));
        // Transcendentals have no exact GLSL result: evaluated in double and
        // rounded once, the correctly rounded float in practice.
        case Opcode::Sin: return result_float(static_cast<float>(std::sin(static_cast<double>(f(0)))));
        case Opcode::Cos: return result_float(static_cast<float>(std::cos(static_cast<double>(f(0)))));
        case Opcode::Sqrt: return result_float(std::sqrt(f(0)));
        default: return compare([&](std::size_t x, std::size_t y) { return f(x) < f(y); },
                                [&](std::size_t x, std::size_t y) { return f(x) == f(y); });
      }
    }
    const bool is_signed = k == ir::ScalarKind::Int;
    switch (op) {
      case Opcode::Negate: return result_int(0u - u(0));
      case Opcode::Add: return result_int(u(0) + u(1));
      case Opcode::Sub: return result_int(u(0) - u(1));
      case Opcode::Mul: return result_int(u(0) * u(1));
      case Opcode::Div:
        if (u(1) == 0 || (is_signed && s(0) == INT32_MIN && s(1) == -1)) return std::nullopt;
        return result_int(is_signed ? static_cast<std::uint32_t>(s(0) / s(1)) : u(0) / u(1));
      case Opcode::Min:
        return result_int(is_signed ? static_cast<std::uint32_t>(s(1) < s(0) ? s(1) : s(0)) : (u(1) < u(0) ? u(1) : u(0)));
      case Opcode::Max:
        return result_int(is_signed ? static_cast<std::uint32_t>(s(0) < s(1) ? s(1) : s(0)) : (u(0) < u(1) ? u(1) : u(0)));
      case Opcode::BitwiseAnd: return result_int(u(0) & u(1));
      case Opcode::BitwiseOr: return result_int(u(0) | u(1));
      case Opcode::BitwiseXor: return result_int(u(0) ^ u(1));
      case Opcode::BitwiseNot: return result_int(~u(0));
      default:
        if (is_signed)
          return compare([&](std::size_t x, std::size_t y) { return s(x) < s(y); },
                         [&](std::size_t x, std::size_t y) { return s(x) == s(y); });
        return compare([&](std::size_t x, std::size_t y) { return u(x) < u(y); },
                       [&](std::size_t x, std::size_t y) { return u(x) == u(y); });
    }
  }

  ir::Module& m_;
};

}  // namespace sluice::testing
