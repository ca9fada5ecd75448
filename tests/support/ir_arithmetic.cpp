// The interpreter's arithmetic (ir_arithmetic.h): componentwise operations
// on flattened words, then the composite operations (constructors,
// extraction, matrices, geometry) written out from their GLSL definitions.
#include "ir_arithmetic.h"

#include <bit>
#include <cmath>
#include <numbers>

#include "ir/typing.h"

namespace sluice::testing {
namespace {

using ir::Opcode;
using ir::ScalarKind;

float f32(std::uint32_t w) { return std::bit_cast<float>(w); }
std::int32_t s32(std::uint32_t w) { return static_cast<std::int32_t>(w); }
std::uint32_t word(float f) { return std::bit_cast<std::uint32_t>(f); }
std::uint32_t word(std::int32_t i) { return static_cast<std::uint32_t>(i); }
std::uint32_t word(bool b) { return b ? 1u : 0u; }
// A transcendental function evaluated in double and rounded once.
std::uint32_t rounded(double d) { return word(static_cast<float>(d)); }

Error undefined(const char* what) { return Error{std::string("undefined: ") + what}; }
Error unmodelled(Opcode op) { return Error{std::string(ir::name(op)) + " is not modelled"}; }

// GLSL's conversion of one scalar between kinds (§5.4.1).
Result<std::uint32_t> convert(std::uint32_t w, ScalarKind from, ScalarKind to) {
  if (from == to) return w;
  switch (to) {
    case ScalarKind::Float:
      if (from == ScalarKind::Int) return word(static_cast<float>(s32(w)));
      if (from == ScalarKind::Uint) return word(static_cast<float>(w));
      return word(w != 0 ? 1.0f : 0.0f);
    case ScalarKind::Int:
    case ScalarKind::Uint:
      if (from == ScalarKind::Float) {
        const float f = f32(w);
        if (to == ScalarKind::Int && !(f > -2147483649.0f && f < 2147483648.0f))
          return undefined("float to int out of range");
        if (to == ScalarKind::Uint && !(f > -1.0f && f < 4294967296.0f)) return undefined("float to uint out of range");
        return to == ScalarKind::Int ? word(static_cast<std::int32_t>(f)) : static_cast<std::uint32_t>(f);
      }
      if (from == ScalarKind::Bool) return word(w != 0);
      return w;  // int <-> uint keeps the bits
    case ScalarKind::Bool: return word(from == ScalarKind::Float ? f32(w) != 0.0f : w != 0);
  }
  return w;
}

// One component of a componentwise operation; `k` is the operands' kind.
Result<std::uint32_t> component(Opcode op, ScalarKind k, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  if (k == ScalarKind::Bool) {
    switch (op) {
      case Opcode::LogicalNot: return word(a == 0);
      case Opcode::LogicalAnd: return word(a != 0 && b != 0);
      case Opcode::LogicalOr: return word(a != 0 || b != 0);
      case Opcode::LogicalXor:
      case Opcode::NotEqualComponentwise: return word((a != 0) != (b != 0));
      case Opcode::EqualComponentwise: return word((a != 0) == (b != 0));
      default: return unmodelled(op);
    }
  }
  if (k == ScalarKind::Float) {
    const float x = f32(a), y = f32(b), z = f32(c);
    switch (op) {
      case Opcode::Negate: return word(-x);
      case Opcode::Add: return word(x + y);
      case Opcode::Sub: return word(x - y);
      case Opcode::Mul:
      case Opcode::VectorTimesScalar:
      case Opcode::MatrixTimesScalar: return word(x * y);
      case Opcode::Div: return word(x / y);
      case Opcode::Mod: return word(x - y * std::floor(x / y));
      case Opcode::Min: return word(y < x ? y : x);  // §8.3: y < x ? y : x
      case Opcode::Max: return word(x < y ? y : x);  // x < y ? y : x
      case Opcode::Clamp: return word(std::min(std::max(x, y), z));
      case Opcode::Mix: return word(x * (1.0f - z) + y * z);
      case Opcode::Step: return word(y < x ? 0.0f : 1.0f);
      case Opcode::Smoothstep: {
        const float t = std::min(std::max((z - x) / (y - x), 0.0f), 1.0f);
        return word(t * t * (3.0f - 2.0f * t));
      }
      case Opcode::Fma: return word(x * y + z);
      case Opcode::Abs: return word(std::fabs(x));
      case Opcode::Sign: return word(x > 0 ? 1.0f : x < 0 ? -1.0f : 0.0f);
      case Opcode::Floor: return word(std::floor(x));
      case Opcode::Ceil: return word(std::ceil(x));
      case Opcode::Trunc: return word(std::trunc(x));
      case Opcode::Round: return word(std::round(x));
      case Opcode::RoundEven: return word(std::nearbyint(x));
      case Opcode::Fract: return word(x - std::floor(x));
      case Opcode::Sqrt: return word(std::sqrt(x));
      case Opcode::InverseSqrt: return word(1.0f / std::sqrt(x));
      case Opcode::Radians: return word(x * static_cast<float>(std::numbers::pi / 180.0));
      case Opcode::Degrees: return word(x * static_cast<float>(180.0 / std::numbers::pi));
      case Opcode::Sin: return rounded(std::sin(double{x}));
      case Opcode::Cos: return rounded(std::cos(double{x}));
      case Opcode::Tan: return rounded(std::tan(double{x}));
      case Opcode::Asin: return rounded(std::asin(double{x}));
      case Opcode::Acos: return rounded(std::acos(double{x}));
      case Opcode::Atan: return rounded(std::atan(double{x}));
      case Opcode::Sinh: return rounded(std::sinh(double{x}));
      case Opcode::Cosh: return rounded(std::cosh(double{x}));
      case Opcode::Tanh: return rounded(std::tanh(double{x}));
      case Opcode::Asinh: return rounded(std::asinh(double{x}));
      case Opcode::Acosh: return rounded(std::acosh(double{x}));
      case Opcode::Atanh: return rounded(std::atanh(double{x}));
      case Opcode::Exp: return rounded(std::exp(double{x}));
      case Opcode::Exp2: return rounded(std::exp2(double{x}));
      case Opcode::Log: return rounded(std::log(double{x}));
      case Opcode::Log2: return rounded(std::log2(double{x}));
      case Opcode::Pow: return rounded(std::pow(double{x}, double{y}));
      case Opcode::Atan2: return rounded(std::atan2(double{x}, double{y}));
      case Opcode::IsNan: return word(std::isnan(x));
      case Opcode::IsInf: return word(std::isinf(x));
      case Opcode::LessThan: return word(x < y);
      case Opcode::GreaterThan: return word(x > y);
      case Opcode::LessThanEqual: return word(x <= y);
      case Opcode::GreaterThanEqual: return word(x >= y);
      case Opcode::EqualComponentwise: return word(x == y);
      case Opcode::NotEqualComponentwise: return word(x != y);
      default: return unmodelled(op);
    }
  }
  const bool is_signed = k == ScalarKind::Int;
  auto less = [&](std::uint32_t p, std::uint32_t q) { return is_signed ? s32(p) < s32(q) : p < q; };
  switch (op) {
    case Opcode::Negate: return 0u - a;
    case Opcode::Add: return a + b;
    case Opcode::Sub: return a - b;
    case Opcode::Mul:
    case Opcode::VectorTimesScalar: return a * b;
    case Opcode::Div:
      if (b == 0) return undefined("integer division by zero");
      if (is_signed && s32(a) == INT32_MIN && s32(b) == -1) return undefined("INT_MIN / -1");
      return is_signed ? word(s32(a) / s32(b)) : a / b;
    case Opcode::IMod:
      if (b == 0) return undefined("integer % by zero");
      if (is_signed && s32(a) == INT32_MIN && s32(b) == -1) return undefined("INT_MIN % -1");
      return is_signed ? word(s32(a) % s32(b)) : a % b;
    case Opcode::Min: return less(b, a) ? b : a;
    case Opcode::Max: return less(a, b) ? b : a;
    case Opcode::Clamp: {
      const std::uint32_t lo = less(a, b) ? b : a;
      return less(c, lo) ? c : lo;
    }
    case Opcode::Abs: return is_signed && s32(a) < 0 ? 0u - a : a;
    case Opcode::Sign:
      if (!is_signed) return unmodelled(op);
      return word(s32(a) > 0 ? 1 : s32(a) < 0 ? -1 : 0);
    case Opcode::BitwiseAnd: return a & b;
    case Opcode::BitwiseOr: return a | b;
    case Opcode::BitwiseXor: return a ^ b;
    case Opcode::BitwiseNot: return ~a;
    case Opcode::BitShiftLeft:
      if (b >= 32) return undefined("shift by 32 or more");
      return a << b;
    case Opcode::BitShiftRight:
      if (b >= 32) return undefined("shift by 32 or more");
      return is_signed ? word(s32(a) >> b) : a >> b;
    case Opcode::LessThan: return word(less(a, b));
    case Opcode::GreaterThan: return word(less(b, a));
    case Opcode::LessThanEqual: return word(!less(b, a));
    case Opcode::GreaterThanEqual: return word(!less(a, b));
    case Opcode::EqualComponentwise: return word(a == b);
    case Opcode::NotEqualComponentwise: return word(a != b);
    default: return unmodelled(op);
  }
}

class Evaluation {
 public:
  Evaluation(const ir::Module& m, Opcode op, ir::TypeId result, std::span<const Value> args)
      : m_(m), op_(op), result_(result), args_(args) {}
  Result<Words> run();

 private:
  ScalarKind kind(ir::TypeId t) const { return ir::component_kind(m_, t).value_or(ScalarKind::Float); }
  std::uint32_t rows(ir::TypeId t) const {
    const ir::Type& ty = m_.type(t);
    if (ty.kind == ir::TypeKind::Matrix) return m_.type(ty.element).count;
    return ty.kind == ir::TypeKind::Vector ? ty.count : 1;
  }
  std::uint32_t cols(ir::TypeId t) const {
    const ir::Type& ty = m_.type(t);
    return ty.kind == ir::TypeKind::Matrix ? ty.count : 1;
  }
  static float dot(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b) {
    float s = 0;
    for (std::size_t i = 0; i < a.size(); ++i) s += f32(a[i]) * f32(b[i]);
    return s;
  }
  // args_[i] converted word by word to the kind of the result's components.
  Result<Words> converted(std::size_t i) const {
    Words out;
    const ScalarKind from = kind(args_[i].type), to = kind(result_);
    for (std::uint32_t w : args_[i].words) {
      auto c = convert(w, from, to);
      if (!c) return c.failure();
      out.push_back(*c);
    }
    return out;
  }
  Result<Words> componentwise();
  Result<Words> extract();
  Result<Words> matrix_or_geometry();
  std::optional<Words> inverse(const Words& a, std::uint32_t n, double& det) const;

  const ir::Module& m_;
  Opcode op_;
  ir::TypeId result_;
  std::span<const Value> args_;
};

Result<Words> Evaluation::componentwise() {
  // Every operand is a scalar or has the width of the widest; a scalar is
  // used for every component (min(v, 0.5), mix(a, b, t), step(e, v)).
  std::size_t width = 1;
  for (const Value& a : args_) width = std::max(width, a.words.size());
  const ScalarKind k = kind(args_[0].type);
  Words out;
  for (std::size_t i = 0; i < width; ++i) {
    std::uint32_t w[3] = {0, 0, 0};
    for (std::size_t j = 0; j < args_.size() && j < 3; ++j)
      w[j] = args_[j].words.size() == 1 ? args_[j].words[0] : args_[j].words.at(i);
    auto r = component(op_, k, w[0], w[1], w[2]);
    if (!r) return r.failure();
    out.push_back(*r);
  }
  return out;
}

Result<Words> Evaluation::extract() {
  Words out;
  const Value& base = args_[0];
  if (op_ == Opcode::ExtractVectorComponentMulti) {
    for (std::size_t i = 1; i < args_.size(); ++i) {
      if (args_[i].words[0] >= base.words.size()) return undefined("swizzle out of range");
      out.push_back(base.words[args_[i].words[0]]);
    }
    return out;
  }
  auto part = part_of(m_, base.type, args_[1].words[0]);
  if (!part) return undefined("index out of range");
  auto size = flat_size(m_, part->type);
  if (!size) return unmodelled(op_);
  return Words(base.words.begin() + part->offset, base.words.begin() + part->offset + *size);
}

std::optional<Words> Evaluation::inverse(const Words& m, std::uint32_t n, double& det) const {
  // Gauss-Jordan elimination with partial pivoting on [A | I] (A column-major).
  std::vector<double> a(n * 2 * n, 0.0);
  auto at = [&](std::uint32_t r, std::uint32_t c) -> double& { return a[r * 2 * n + c]; };
  for (std::uint32_t c = 0; c < n; ++c)
    for (std::uint32_t r = 0; r < n; ++r) at(r, c) = f32(m[c * n + r]);
  for (std::uint32_t i = 0; i < n; ++i) at(i, n + i) = 1.0;
  det = 1.0;
  for (std::uint32_t c = 0; c < n; ++c) {
    std::uint32_t p = c;
    for (std::uint32_t r = c + 1; r < n; ++r)
      if (std::fabs(at(r, c)) > std::fabs(at(p, c))) p = r;
    if (at(p, c) == 0.0) {
      det = 0.0;
      return std::nullopt;
    }
    if (p != c) {
      for (std::uint32_t k = 0; k < 2 * n; ++k) std::swap(at(p, k), at(c, k));
      det = -det;
    }
    det *= at(c, c);
    const double pivot = at(c, c);
    for (std::uint32_t k = 0; k < 2 * n; ++k) at(c, k) /= pivot;
    for (std::uint32_t r = 0; r < n; ++r) {
      if (r == c) continue;
      const double factor = at(r, c);
      for (std::uint32_t k = 0; k < 2 * n; ++k) at(r, k) -= factor * at(c, k);
    }
  }
  Words inv(n * n);
  for (std::uint32_t c = 0; c < n; ++c)
    for (std::uint32_t r = 0; r < n; ++r) inv[c * n + r] = word(static_cast<float>(at(r, n + c)));
  return inv;
}

Result<Words> Evaluation::matrix_or_geometry() {
  auto arg = [&](std::size_t i) -> const Words& { return args_[i].words; };
  switch (op_) {
    case Opcode::MatrixTimesVector: {
      const std::uint32_t n = rows(args_[0].type), c = cols(args_[0].type);
      std::vector<float> r(n, 0.0f);
      for (std::uint32_t k = 0; k < c; ++k)
        for (std::uint32_t i = 0; i < n; ++i) r[i] += f32(arg(0)[k * n + i]) * f32(arg(1)[k]);
      Words out;
      for (float x : r) out.push_back(word(x));
      return out;
    }
    case Opcode::VectorTimesMatrix: {
      const std::uint32_t n = rows(args_[1].type), c = cols(args_[1].type);
      Words out;
      for (std::uint32_t k = 0; k < c; ++k) out.push_back(word(dot(arg(0), std::span(arg(1)).subspan(k * n, n))));
      return out;
    }
    case Opcode::MatrixTimesMatrix: {
      const std::uint32_t n = rows(args_[0].type), inner = cols(args_[0].type), c = cols(args_[1].type);
      std::vector<float> r(n * c, 0.0f);
      for (std::uint32_t j = 0; j < c; ++j)
        for (std::uint32_t i = 0; i < n; ++i)
          for (std::uint32_t k = 0; k < inner; ++k) r[j * n + i] += f32(arg(0)[k * n + i]) * f32(arg(1)[j * inner + k]);
      Words out;
      for (float x : r) out.push_back(word(x));
      return out;
    }
    case Opcode::OuterProduct: {
      Words out;
      for (std::uint32_t b : arg(1))
        for (std::uint32_t a : arg(0)) out.push_back(word(f32(a) * f32(b)));
      return out;
    }
    case Opcode::Transpose: {
      const std::uint32_t n = rows(args_[0].type), c = cols(args_[0].type);
      Words out(n * c);
      for (std::uint32_t j = 0; j < c; ++j)
        for (std::uint32_t i = 0; i < n; ++i) out[i * c + j] = arg(0)[j * n + i];
      return out;
    }
    case Opcode::Determinant:
    case Opcode::Inverse: {
      double det = 0;
      auto inv = inverse(arg(0), rows(args_[0].type), det);
      if (op_ == Opcode::Determinant) return Words{word(static_cast<float>(det))};
      if (!inv) return undefined("inverse of a singular matrix");
      return *inv;
    }
    case Opcode::Dot: return Words{word(dot(arg(0), arg(1)))};
    case Opcode::Length: return Words{word(std::sqrt(dot(arg(0), arg(0))))};
    case Opcode::Distance: {
      Words d;
      for (std::size_t i = 0; i < arg(0).size(); ++i) d.push_back(word(f32(arg(0)[i]) - f32(arg(1)[i])));
      return Words{word(std::sqrt(dot(d, d)))};
    }
    case Opcode::Normalize: {
      const float len = std::sqrt(dot(arg(0), arg(0)));
      Words out;
      for (std::uint32_t x : arg(0)) out.push_back(word(f32(x) / len));
      return out;
    }
    case Opcode::Cross: {
      auto a = [&](int i) { return f32(arg(0)[i]); };
      auto b = [&](int i) { return f32(arg(1)[i]); };
      return Words{word(a(1) * b(2) - a(2) * b(1)), word(a(2) * b(0) - a(0) * b(2)), word(a(0) * b(1) - a(1) * b(0))};
    }
    case Opcode::Reflect: {
      const float d = dot(arg(1), arg(0));
      Words out;
      for (std::size_t i = 0; i < arg(0).size(); ++i) out.push_back(word(f32(arg(0)[i]) - 2.0f * d * f32(arg(1)[i])));
      return out;
    }
    case Opcode::FaceForward: {
      const bool keep = dot(arg(2), arg(1)) < 0;
      Words out;
      for (std::uint32_t x : arg(0)) out.push_back(word(keep ? f32(x) : -f32(x)));
      return out;
    }
    case Opcode::Refract: {
      const float eta = f32(arg(2)[0]), d = dot(arg(1), arg(0));
      const float k = 1.0f - eta * eta * (1.0f - d * d);
      Words out;
      for (std::size_t i = 0; i < arg(0).size(); ++i)
        out.push_back(word(k < 0 ? 0.0f : eta * f32(arg(0)[i]) - (eta * d + std::sqrt(k)) * f32(arg(1)[i])));
      return out;
    }
    case Opcode::Any:
    case Opcode::All: {
      bool any = false, all = true;
      for (std::uint32_t w : arg(0)) {
        any = any || w != 0;
        all = all && w != 0;
      }
      return Words{word(op_ == Opcode::Any ? any : all)};
    }
    default: return unmodelled(op_);
  }
}

Result<Words> Evaluation::run() {
  for (const Value& a : args_)
    if (a.words.empty()) return unmodelled(op_);
  switch (op_) {
    case Opcode::ExtractVectorComponent:
    case Opcode::ExtractVectorComponentMulti:
    case Opcode::ExtractVectorComponentDynamic:
    case Opcode::ExtractMatrixColumn:
    case Opcode::ExtractStructField:
    case Opcode::ExtractArrayElement: return extract();
    case Opcode::ConstructScalarFromScalar: {
      auto c = convert(args_[0].words[0], kind(args_[0].type), kind(result_));
      if (!c) return c.failure();
      return Words{*c};
    }
    case Opcode::ConstructVectorFromScalar: {
      auto c = convert(args_[0].words[0], kind(args_[0].type), kind(result_));
      if (!c) return c.failure();
      return Words(rows(result_), *c);
    }
    case Opcode::ConstructVectorFromVector: {  // conversion, same size
      auto c = converted(0);
      if (!c) return c;
      c->resize(rows(result_));
      return c;
    }
    case Opcode::ConstructVectorFromMultiple:
    case Opcode::ConstructMatrixFromMultiple: {
      Words out;
      for (std::size_t i = 0; i < args_.size(); ++i) {
        auto c = converted(i);
        if (!c) return c;
        out.insert(out.end(), c->begin(), c->end());
      }
      if (out.size() != rows(result_) * cols(result_)) return unmodelled(op_);
      return out;
    }
    case Opcode::ConstructStruct:
    case Opcode::ConstructArray: {
      Words out;
      for (const Value& a : args_) out.insert(out.end(), a.words.begin(), a.words.end());
      return out;
    }
    case Opcode::ConstructMatrixFromScalar: {
      const std::uint32_t n = rows(result_), c = cols(result_);
      Words out(n * c, word(0.0f));
      auto d = convert(args_[0].words[0], kind(args_[0].type), ScalarKind::Float);
      if (!d) return d.failure();
      for (std::uint32_t i = 0; i < std::min(n, c); ++i) out[i * n + i] = *d;
      return out;
    }
    case Opcode::ConstructMatrixFromMatrix: {
      const std::uint32_t n = rows(result_), c = cols(result_), an = rows(args_[0].type), ac = cols(args_[0].type);
      Words out(n * c);
      for (std::uint32_t j = 0; j < c; ++j)
        for (std::uint32_t i = 0; i < n; ++i)
          out[j * n + i] = j < ac && i < an ? args_[0].words[j * an + i] : word(i == j ? 1.0f : 0.0f);
      return out;
    }
    case Opcode::Bitcast: return args_[0].words;
    case Opcode::Select: {
      // cond ? a : b, componentwise when cond is a bool vector.
      const Words& c = args_[0].words;
      Words out(args_[1].words.size());
      for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = (c.size() == 1 ? c[0] : c.at(i)) ? args_[1].words[i] : args_[2].words.at(i);
      return out;
    }
    case Opcode::Equal:
    case Opcode::NotEqual: {  // whole values, each component compared by its kind
      const Opcode each = op_ == Opcode::Equal ? Opcode::EqualComponentwise : Opcode::NotEqualComponentwise;
      Evaluation parts(m_, each, result_, args_);
      auto r = args_[0].words.size() == args_[1].words.size() && ir::component_kind(m_, args_[0].type)
                   ? parts.componentwise()
                   : Result<Words>(Error{});
      if (!r) {  // structs and arrays: word by word (floats as bits)
        bool same = args_[0].words == args_[1].words;
        return Words{word(op_ == Opcode::Equal ? same : !same)};
      }
      bool all = true, any = false;
      for (std::uint32_t w : *r) {
        all = all && w != 0;
        any = any || w != 0;
      }
      return Words{word(op_ == Opcode::Equal ? all : any)};
    }
    case Opcode::MatrixTimesScalar:
    case Opcode::VectorTimesScalar: return componentwise();
    default: break;
  }
  auto r = matrix_or_geometry();
  if (r || r.failure().message != unmodelled(op_).message) return r;
  return componentwise();
}

}  // namespace

Result<Words> evaluate_operation(const ir::Module& m, ir::Opcode op, ir::TypeId result, std::span<const Value> args) {
  return Evaluation(m, op, result, args).run();
}

}  // namespace sluice::testing
