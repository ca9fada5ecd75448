// Component-wise folding rules: one small function per opcode, found
// through a table indexed by opcode (no switch over opcodes).
//
// Precision, as docs/ir.md "Transformations" records:
// - +, -, *, /, sqrt, fma, floor, ceil, trunc, roundEven, fract, abs, sign,
//   min, max, clamp, step, ldexp, mod (x - y*floor(x/y), step by step) are
//   computed in float32 and are exactly what IEEE-754 gives.
// - Built-ins whose GPU precision is implementation-defined (sin, cos, tan,
//   asin, acos, atan, atan2, sinh…atanh, exp, exp2, log, log2, pow,
//   inversesqrt, radians, degrees, mix, smoothstep) are computed in double
//   from the float32 operands and rounded once to float32. That is the
//   correctly rounded result except in the rare case where the double is
//   itself within half a double ulp of a float32 rounding boundary (double
//   rounding); glibc's double functions are accurate to < 1 ulp of double,
//   29 bits finer than float32.
// - Integers wrap around (uint32_t arithmetic).
// Undefined or non-finite results are not folded: division by zero,
// INT_MIN / -1, % of negatives, shifts outside [0, 31], bitfields past bit
// 31, sqrt/log/pow/asin/acos/acosh/atanh outside their domain, round() of an
// exact .5 (its direction is implementation-defined), clamp with min > max,
// smoothstep with edge0 >= edge1, and any NaN or Inf.
#include <bit>
#include <cmath>
#include <limits>

#include "transform/fold.h"

namespace sluice::transform::fold {

using ir::Opcode;
using ir::ScalarKind;

std::optional<std::uint32_t> rounded(double d) {
  const float f = static_cast<float>(d);
  if (!std::isfinite(f)) return std::nullopt;
  return float_bits(f);
}

std::optional<std::uint32_t> finite(float f) {
  if (!std::isfinite(f)) return std::nullopt;
  return float_bits(f);
}

namespace {

using R = std::optional<std::uint32_t>;

float f0(const Scalar* a) { return as_float(a[0].bits); }
float f1(const Scalar* a) { return as_float(a[1].bits); }
float f2(const Scalar* a) { return as_float(a[2].bits); }
double d0(const Scalar* a) { return f0(a); }
double d1(const Scalar* a) { return f1(a); }
std::int32_t i(Scalar s) { return static_cast<std::int32_t>(s.bits); }
bool is_float(const Scalar* a) { return a[0].kind == ScalarKind::Float; }
bool is_signed(const Scalar* a) { return a[0].kind == ScalarKind::Int; }
R boolean(bool b) { return b ? 1u : 0u; }

// Arithmetic that works on every numeric kind.
R add(const Scalar* a) { return is_float(a) ? finite(f0(a) + f1(a)) : R(a[0].bits + a[1].bits); }
R sub(const Scalar* a) { return is_float(a) ? finite(f0(a) - f1(a)) : R(a[0].bits - a[1].bits); }
R mul(const Scalar* a) { return is_float(a) ? finite(f0(a) * f1(a)) : R(a[0].bits * a[1].bits); }
R div(const Scalar* a) {
  if (is_float(a)) return f1(a) == 0.0f ? std::nullopt : finite(f0(a) / f1(a));
  if (a[1].bits == 0) return std::nullopt;
  if (is_signed(a)) {
    if (i(a[0]) == std::numeric_limits<std::int32_t>::min() && i(a[1]) == -1) return std::nullopt;
    return static_cast<std::uint32_t>(i(a[0]) / i(a[1]));
  }
  return a[0].bits / a[1].bits;
}
R imod(const Scalar* a) {
  if (a[1].bits == 0) return std::nullopt;
  if (is_signed(a)) {
    if (i(a[0]) < 0 || i(a[1]) < 0) return std::nullopt;  // undefined in GLSL
    return static_cast<std::uint32_t>(i(a[0]) % i(a[1]));
  }
  return a[0].bits % a[1].bits;
}
R negate(const Scalar* a) { return is_float(a) ? finite(-f0(a)) : R(0u - a[0].bits); }
R abs(const Scalar* a) {
  if (is_float(a)) return a[0].bits & 0x7fffffffu;
  return i(a[0]) < 0 ? 0u - a[0].bits : a[0].bits;  // abs(INT_MIN) wraps to INT_MIN
}
R sign(const Scalar* a) {
  if (is_float(a)) return float_bits(f0(a) > 0 ? 1.0f : f0(a) < 0 ? -1.0f : 0.0f);
  return static_cast<std::uint32_t>(i(a[0]) > 0 ? 1 : i(a[0]) < 0 ? -1 : 0);
}
bool less(Scalar x, Scalar y) {
  switch (x.kind) {
    case ScalarKind::Float: return as_float(x.bits) < as_float(y.bits);
    case ScalarKind::Int: return i(x) < i(y);
    default: return x.bits < y.bits;
  }
}
bool equal(Scalar x, Scalar y) {
  return x.kind == ScalarKind::Float ? as_float(x.bits) == as_float(y.bits) : x.bits == y.bits;
}
// GLSL: min(x, y) is y < x ? y : x, max(x, y) is x < y ? y : x.
R min(const Scalar* a) { return less(a[1], a[0]) ? a[1].bits : a[0].bits; }
R max(const Scalar* a) { return less(a[0], a[1]) ? a[1].bits : a[0].bits; }
R clamp(const Scalar* a) {
  if (less(a[2], a[1])) return std::nullopt;  // min > max is undefined
  const Scalar lo[2] = {a[0], a[1]};
  const Scalar hi[2] = {Scalar{*max(lo), a[0].kind}, a[2]};
  return min(hi);
}
R less_than(const Scalar* a) { return boolean(less(a[0], a[1])); }
R greater_than(const Scalar* a) { return boolean(less(a[1], a[0])); }
R less_equal(const Scalar* a) { return boolean(!less(a[1], a[0])); }
R greater_equal(const Scalar* a) { return boolean(!less(a[0], a[1])); }
R equal_cw(const Scalar* a) { return boolean(equal(a[0], a[1])); }
R not_equal_cw(const Scalar* a) { return boolean(!equal(a[0], a[1])); }

// Booleans and bits.
R logical_not(const Scalar* a) { return boolean(a[0].bits == 0); }
R logical_and(const Scalar* a) { return boolean(a[0].bits && a[1].bits); }
R logical_or(const Scalar* a) { return boolean(a[0].bits || a[1].bits); }
R logical_xor(const Scalar* a) { return boolean((a[0].bits != 0) != (a[1].bits != 0)); }
R bitwise_not(const Scalar* a) { return ~a[0].bits; }
R bitwise_and(const Scalar* a) { return a[0].bits & a[1].bits; }
R bitwise_or(const Scalar* a) { return a[0].bits | a[1].bits; }
R bitwise_xor(const Scalar* a) { return a[0].bits ^ a[1].bits; }
std::optional<std::uint32_t> shift_amount(Scalar s) {
  const std::int64_t n = s.kind == ScalarKind::Int ? std::int64_t{i(s)} : std::int64_t{s.bits};
  if (n < 0 || n > 31) return std::nullopt;
  return static_cast<std::uint32_t>(n);
}
R shift_left(const Scalar* a) {
  auto n = shift_amount(a[1]);
  if (!n) return std::nullopt;
  return a[0].bits << *n;
}
R shift_right(const Scalar* a) {
  auto n = shift_amount(a[1]);
  if (!n) return std::nullopt;
  if (is_signed(a)) return static_cast<std::uint32_t>(i(a[0]) >> *n);  // arithmetic (C++20)
  return a[0].bits >> *n;
}
R bit_count(const Scalar* a) { return static_cast<std::uint32_t>(std::popcount(a[0].bits)); }
R find_lsb(const Scalar* a) {
  return a[0].bits == 0 ? 0xffffffffu : static_cast<std::uint32_t>(std::countr_zero(a[0].bits));
}
R find_msb(const Scalar* a) {
  std::uint32_t v = a[0].bits;
  if (is_signed(a) && i(a[0]) < 0) v = ~v;  // the most significant 0 bit of a negative
  return v == 0 ? 0xffffffffu : static_cast<std::uint32_t>(31 - std::countl_zero(v));
}
R bitfield_reverse(const Scalar* a) {
  std::uint32_t v = a[0].bits, r = 0;
  for (int b = 0; b < 32; ++b, v >>= 1) r = (r << 1) | (v & 1u);
  return r;
}
// offset and count as GLSL reads them; nullopt past bit 31.
std::optional<std::pair<std::uint32_t, std::uint32_t>> bit_range(Scalar offset, Scalar count) {
  const std::int64_t o = offset.kind == ScalarKind::Int ? std::int64_t{i(offset)} : std::int64_t{offset.bits};
  const std::int64_t c = count.kind == ScalarKind::Int ? std::int64_t{i(count)} : std::int64_t{count.bits};
  if (o < 0 || c < 0 || o + c > 32) return std::nullopt;
  return std::pair{static_cast<std::uint32_t>(o), static_cast<std::uint32_t>(c)};
}
R bitfield_extract(const Scalar* a) {
  auto r = bit_range(a[1], a[2]);
  if (!r) return std::nullopt;
  auto [offset, count] = *r;
  if (count == 0) return 0u;
  const std::uint32_t field = count == 32 ? a[0].bits : (a[0].bits >> offset) & ((1u << count) - 1);
  if (!is_signed(a) || count == 32 || !(field >> (count - 1) & 1u)) return field;
  return field | ~((1u << count) - 1);  // sign-extend
}
R bitfield_insert(const Scalar* a) {
  auto r = bit_range(a[2], a[3]);
  if (!r) return std::nullopt;
  auto [offset, count] = *r;
  if (count == 0) return a[0].bits;
  const std::uint32_t mask = (count == 32 ? 0xffffffffu : (1u << count) - 1) << offset;
  return (a[0].bits & ~mask) | ((a[1].bits << offset) & mask);
}

// Float32-exact built-ins.
R floor_(const Scalar* a) { return finite(std::floor(f0(a))); }
R ceil_(const Scalar* a) { return finite(std::ceil(f0(a))); }
R trunc_(const Scalar* a) { return finite(std::trunc(f0(a))); }
R round_even(const Scalar* a) { return finite(std::nearbyint(f0(a))); }
R round_(const Scalar* a) {
  const float x = f0(a);
  if (std::fabs(x - std::trunc(x)) == 0.5f) return std::nullopt;  // direction is implementation-defined
  return finite(std::round(x));
}
R fract(const Scalar* a) {
  const float x = f0(a);
  const float fl = std::floor(x);
  return finite(x - fl);
}
R sqrt_(const Scalar* a) { return f0(a) < 0 ? std::nullopt : finite(std::sqrt(f0(a))); }
R fma_(const Scalar* a) { return finite(std::fma(f0(a), f1(a), f2(a))); }
R mod(const Scalar* a) {
  const float x = f0(a), y = f1(a);
  if (y == 0.0f) return std::nullopt;
  const float q = x / y;
  const float fq = std::floor(q);
  const float p = y * fq;
  return finite(x - p);
}
R step(const Scalar* a) { return float_bits(f1(a) < f0(a) ? 0.0f : 1.0f); }
R ldexp_(const Scalar* a) {
  const std::int32_t e = i(a[1]);
  if (e < -300 || e > 300) return std::nullopt;
  return finite(std::ldexp(f0(a), e));
}
R derivative(const Scalar*) { return float_bits(0.0f); }  // of a constant
R is_nan(const Scalar* a) { return boolean(std::isnan(f0(a))); }
R is_inf(const Scalar* a) { return boolean(std::isinf(f0(a))); }
R select(const Scalar* a) { return a[0].bits ? a[1].bits : a[2].bits; }

// Implementation-defined precision: double, rounded once.
constexpr double kPi = 3.14159265358979323846264338327950288;
R radians(const Scalar* a) { return rounded(d0(a) * (kPi / 180.0)); }
R degrees(const Scalar* a) { return rounded(d0(a) * (180.0 / kPi)); }
R sin_(const Scalar* a) { return rounded(std::sin(d0(a))); }
R cos_(const Scalar* a) { return rounded(std::cos(d0(a))); }
R tan_(const Scalar* a) { return rounded(std::tan(d0(a))); }
R asin_(const Scalar* a) { return std::fabs(d0(a)) > 1 ? std::nullopt : rounded(std::asin(d0(a))); }
R acos_(const Scalar* a) { return std::fabs(d0(a)) > 1 ? std::nullopt : rounded(std::acos(d0(a))); }
R atan_(const Scalar* a) { return rounded(std::atan(d0(a))); }
R sinh_(const Scalar* a) { return rounded(std::sinh(d0(a))); }
R cosh_(const Scalar* a) { return rounded(std::cosh(d0(a))); }
R tanh_(const Scalar* a) { return rounded(std::tanh(d0(a))); }
R asinh_(const Scalar* a) { return rounded(std::asinh(d0(a))); }
R acosh_(const Scalar* a) { return d0(a) < 1 ? std::nullopt : rounded(std::acosh(d0(a))); }
R atanh_(const Scalar* a) { return std::fabs(d0(a)) >= 1 ? std::nullopt : rounded(std::atanh(d0(a))); }
R exp_(const Scalar* a) { return rounded(std::exp(d0(a))); }
R exp2_(const Scalar* a) { return rounded(std::exp2(d0(a))); }
R log_(const Scalar* a) { return d0(a) <= 0 ? std::nullopt : rounded(std::log(d0(a))); }
R log2_(const Scalar* a) { return d0(a) <= 0 ? std::nullopt : rounded(std::log2(d0(a))); }
R inverse_sqrt(const Scalar* a) { return d0(a) <= 0 ? std::nullopt : rounded(1.0 / std::sqrt(d0(a))); }
R atan2_(const Scalar* a) {
  if (d0(a) == 0 && d1(a) == 0) return std::nullopt;  // atan(0, 0) is undefined
  return rounded(std::atan2(d0(a), d1(a)));
}
R pow_(const Scalar* a) {
  const double x = d0(a), y = d1(a);
  if (x < 0 || (x == 0 && y <= 0)) return std::nullopt;
  return rounded(std::pow(x, y));
}
R mix(const Scalar* a) {
  // x*(1-a) + y*a: every product is exact in double, the sum rounds once.
  const double x = d0(a), y = d1(a), t = as_float(a[2].bits);
  return rounded(x * (1.0 - t) + y * t);
}
R smoothstep(const Scalar* a) {
  const double e0 = d0(a), e1 = d1(a), x = as_float(a[2].bits);
  if (e0 >= e1) return std::nullopt;
  double t = (x - e0) / (e1 - e0);
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return rounded(t * t * (3.0 - 2.0 * t));
}

struct Entry {
  Opcode op;
  ScalarRule rule;
};

constexpr Entry kRules[] = {
    {Opcode::Negate, negate}, {Opcode::LogicalNot, logical_not}, {Opcode::BitwiseNot, bitwise_not},
    {Opcode::Radians, radians}, {Opcode::Degrees, degrees}, {Opcode::Sin, sin_}, {Opcode::Cos, cos_},
    {Opcode::Tan, tan_}, {Opcode::Asin, asin_}, {Opcode::Acos, acos_}, {Opcode::Atan, atan_},
    {Opcode::Sinh, sinh_}, {Opcode::Cosh, cosh_}, {Opcode::Tanh, tanh_}, {Opcode::Asinh, asinh_},
    {Opcode::Acosh, acosh_}, {Opcode::Atanh, atanh_}, {Opcode::Exp, exp_}, {Opcode::Log, log_},
    {Opcode::Exp2, exp2_}, {Opcode::Log2, log2_}, {Opcode::Sqrt, sqrt_}, {Opcode::InverseSqrt, inverse_sqrt},
    {Opcode::Abs, abs}, {Opcode::Sign, sign}, {Opcode::Floor, floor_}, {Opcode::Trunc, trunc_},
    {Opcode::Round, round_}, {Opcode::RoundEven, round_even}, {Opcode::Ceil, ceil_}, {Opcode::Fract, fract},
    {Opcode::IsNan, is_nan}, {Opcode::IsInf, is_inf}, {Opcode::BitCount, bit_count},
    {Opcode::FindLSB, find_lsb}, {Opcode::FindMSB, find_msb}, {Opcode::BitfieldReverse, bitfield_reverse},
    {Opcode::DFdx, derivative}, {Opcode::DFdy, derivative}, {Opcode::Fwidth, derivative},
    {Opcode::DFdxFine, derivative}, {Opcode::DFdyFine, derivative}, {Opcode::FwidthFine, derivative},
    {Opcode::DFdxCoarse, derivative}, {Opcode::DFdyCoarse, derivative}, {Opcode::FwidthCoarse, derivative},
    {Opcode::Add, add}, {Opcode::Sub, sub}, {Opcode::Mul, mul}, {Opcode::Div, div}, {Opcode::IMod, imod},
    {Opcode::VectorTimesScalar, mul}, {Opcode::MatrixTimesScalar, mul},
    {Opcode::LogicalAnd, logical_and}, {Opcode::LogicalOr, logical_or}, {Opcode::LogicalXor, logical_xor},
    {Opcode::EqualComponentwise, equal_cw}, {Opcode::NotEqualComponentwise, not_equal_cw},
    {Opcode::LessThan, less_than}, {Opcode::GreaterThan, greater_than}, {Opcode::LessThanEqual, less_equal},
    {Opcode::GreaterThanEqual, greater_equal}, {Opcode::BitShiftLeft, shift_left},
    {Opcode::BitShiftRight, shift_right}, {Opcode::BitwiseOr, bitwise_or}, {Opcode::BitwiseXor, bitwise_xor},
    {Opcode::BitwiseAnd, bitwise_and}, {Opcode::Atan2, atan2_}, {Opcode::Pow, pow_}, {Opcode::Mod, mod},
    {Opcode::Min, min}, {Opcode::Max, max}, {Opcode::Step, step}, {Opcode::Ldexp, ldexp_},
    {Opcode::Clamp, clamp}, {Opcode::Mix, mix}, {Opcode::Select, select}, {Opcode::Smoothstep, smoothstep},
    {Opcode::Fma, fma_}, {Opcode::BitfieldExtract, bitfield_extract}, {Opcode::BitfieldInsert, bitfield_insert},
};

}  // namespace

ScalarRule scalar_rule(Opcode op) {
  // Built once, read-only afterwards.
  static const auto table = [] {
    std::array<ScalarRule, ir::kOpcodeCount> t{};
    for (const Entry& e : kRules) t[static_cast<std::size_t>(e.op)] = e.rule;
    return t;
  }();
  const auto index = static_cast<std::size_t>(op);
  return index < table.size() ? table[index] : nullptr;
}

std::optional<std::uint32_t> convert(Scalar from, ScalarKind to) {
  if (from.kind == to) return from.bits;
  if (to == ScalarKind::Bool) {
    if (from.kind == ScalarKind::Float) return boolean(as_float(from.bits) != 0.0f);
    return boolean(from.bits != 0);
  }
  if (from.kind == ScalarKind::Bool) {
    if (to == ScalarKind::Float) return float_bits(from.bits ? 1.0f : 0.0f);
    return from.bits ? 1u : 0u;
  }
  if (to == ScalarKind::Float) {
    if (from.kind == ScalarKind::Int) return float_bits(static_cast<float>(i(from)));
    return float_bits(static_cast<float>(from.bits));
  }
  if (from.kind == ScalarKind::Float) {
    const float f = as_float(from.bits);
    if (!std::isfinite(f)) return std::nullopt;
    const double t = std::trunc(static_cast<double>(f));
    if (to == ScalarKind::Int) {
      if (t < -2147483648.0 || t > 2147483647.0) return std::nullopt;
      return static_cast<std::uint32_t>(static_cast<std::int32_t>(t));
    }
    if (t < 0 || t > 4294967295.0) return std::nullopt;
    return static_cast<std::uint32_t>(t);
  }
  return from.bits;  // int <-> uint keeps the bits
}

}  // namespace sluice::transform::fold
