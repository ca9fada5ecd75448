// The reference IR evaluator (see ir_eval.h). Values are flat arrays of
// floats (booleans as 0/1, matrices column by column); each opcode is the
// GLSL definition of the operation, written out here independently of the
// front end.
#include "ir_eval.h"

#include <cfenv>
#include <cmath>
#include <functional>
#include <optional>
#include <unordered_map>

#include "ir/dump.h"
#include "ir/typing.h"

namespace sluice::testing {
namespace {

using ir::Opcode;

struct Val {
  ir::TypeId type;
  std::vector<float> v;
};

enum class Exit { Return, Break, Continue, Merge, LoopIf, Unreachable };
struct Signal {
  Exit kind;
  std::optional<Val> value;
};

class Evaluator {
 public:
  Evaluator(const ir::Module& m, const EvalInputs& in) : m_(m), in_(in) {}

  std::map<std::uint32_t, std::vector<float>> run() {
    const ir::FunctionId main = m_.entry_point();
    if (!main.valid()) throw EvalError("no main");
    for (ir::VariableId g : m_.globals())
      if (m_.variable(g).initializer.valid()) declare(g);
    call(main, {});
    std::map<std::uint32_t, std::vector<float>> out;
    for (ir::VariableId g : m_.globals()) {
      const ir::Variable& var = m_.variable(g);
      if (m_.type(var.type).storage != ir::StorageClass::Output || !var.decorations.location) continue;
      auto it = vars_.find(g.index());
      if (it != vars_.end()) out[*var.decorations.location] = it->second.v;
    }
    return out;
  }

 private:
  // --- Shapes ---
  std::uint32_t rows(ir::TypeId t) const {
    const ir::Type& ty = m_.type(t);
    if (ty.kind == ir::TypeKind::Matrix) return m_.type(ty.element).count;
    return ty.kind == ir::TypeKind::Vector ? ty.count : 1;
  }
  std::uint32_t cols(ir::TypeId t) const {
    const ir::Type& ty = m_.type(t);
    return ty.kind == ir::TypeKind::Matrix ? ty.count : 1;
  }

  void flatten(ir::ConstantId id, std::vector<float>& out) const {
    const ir::Constant& c = m_.constant(id);
    if (c.is_composite()) {
      for (auto part : c.components) flatten(part, out);
      return;
    }
    const ir::Type& t = m_.type(c.type);
    if (t.scalar == ir::ScalarKind::Float) out.push_back(c.as_float());
    else if (t.scalar == ir::ScalarKind::Bool) out.push_back(c.as_bool() ? 1.0f : 0.0f);
    else out.push_back(static_cast<float>(c.as_int()));
  }

  Val value(ir::Operand op) const {
    if (op.is_constant()) {
      Val v{m_.constant(op.as_constant()).type, {}};
      flatten(op.as_constant(), v.v);
      return v;
    }
    if (op.is_register()) {
      auto it = regs_.find(op.value());
      if (it == regs_.end()) throw EvalError("r" + std::to_string(op.value()) + " read before it is defined");
      return it->second;
    }
    throw EvalError("operand is not a value");
  }

  // --- Calls and control flow ---
  std::optional<Val> call(ir::FunctionId fid, const std::vector<Val>& args) {
    const ir::Function& f = m_.function(fid);
    for (std::size_t i = 0; i < f.params.size(); ++i) vars_[f.params[i].variable.index()] = args.at(i);
    Signal s = chain(f, f.entry);
    if (s.kind != Exit::Return) throw EvalError("function did not return");
    return s.value;
  }

  Signal chain(const ir::Function& f, ir::BlockId id) {
    for (;;) {
      const ir::Block& b = f.block(id);
      for (ir::VariableId v : b.declarations) declare(v);
      if (b.instructions.empty()) throw EvalError("empty block");
      for (std::size_t i = 0; i + 1 < b.instructions.size(); ++i) exec(b.instructions[i]);
      const ir::Instruction& t = b.instructions.back();
      auto operand = [&]() -> std::optional<Val> {
        if (t.operands.empty()) return std::nullopt;
        return value(t.operands[0]);
      };
      switch (t.opcode) {
        case Opcode::Return: return {Exit::Return, operand()};
        case Opcode::Break: return {Exit::Break, operand()};
        case Opcode::Merge: return {Exit::Merge, operand()};
        case Opcode::Continue: return {Exit::Continue, {}};
        case Opcode::Unreachable: return {Exit::Unreachable, {}};
        case Opcode::LoopIf: return {Exit::LoopIf, operand()};
        case Opcode::If: {
          const bool c = value(t.operands[0]).v[0] != 0.0f;
          const ir::BlockId sub = c ? b.if_true() : b.if_false();
          Signal s = sub.valid() ? chain(f, sub) : Signal{Exit::Merge, {}};
          if (s.kind != Exit::Merge) return s;
          enter_merge(f, b.merge, s.value);
          id = b.merge;
          continue;
        }
        case Opcode::Loop: {
          std::optional<Val> result;
          for (;;) {
            Signal c = chain(f, b.loop_condition());
            if (c.kind != Exit::LoopIf) throw EvalError("loop condition did not end in LoopIf");
            if (c.value->v[0] == 0.0f) break;
            Signal s = chain(f, b.loop_body());
            if (s.kind == Exit::Break) {
              result = s.value;
              break;
            }
            if (s.kind == Exit::Return) return s;
            if (s.kind != Exit::Continue) throw EvalError("loop body ended without Break or Continue");
            if (b.loop_continue().valid()) chain(f, b.loop_continue());
          }
          enter_merge(f, b.merge, result);
          id = b.merge;
          continue;
        }
        case Opcode::NextBlock: id = b.merge; continue;
        default: throw EvalError("unsupported terminator " + std::string(ir::name(t.opcode)));
      }
    }
  }

  void enter_merge(const ir::Function& f, ir::BlockId merge, const std::optional<Val>& v) {
    const ir::RegisterId input = f.block(merge).merge_input;
    if (!input.valid()) return;
    if (!v) throw EvalError("merge block with an input entered without a value");
    regs_[input.index()] = *v;
  }

  // --- Instructions ---
  static float b2f(bool b) { return b ? 1.0f : 0.0f; }

  Val map1(const Val& a, ir::TypeId rt, const std::function<float(float)>& f) {
    Val r{rt, {}};
    for (float x : a.v) r.v.push_back(f(x));
    return r;
  }
  Val map2(const Val& a, const Val& b, ir::TypeId rt, const std::function<float(float, float)>& f) {
    Val r{rt, {}};
    for (std::size_t i = 0; i < a.v.size(); ++i) r.v.push_back(f(a.v[i], b.v.at(i)));
    return r;
  }
  Val map3(const Val& a, const Val& b, const Val& c, ir::TypeId rt,
           const std::function<float(float, float, float)>& f) {
    Val r{rt, {}};
    for (std::size_t i = 0; i < a.v.size(); ++i) r.v.push_back(f(a.v[i], b.v.at(i), c.v.at(i)));
    return r;
  }
  static float dot(const Val& a, const Val& b) {
    float s = 0;
    for (std::size_t i = 0; i < a.v.size(); ++i) s += a.v[i] * b.v[i];
    return s;
  }
  static Val scalar(float x) { return Val{ir::predefined::kFloat, {x}}; }

  static std::vector<double> inverse_of(const std::vector<float>& m, std::uint32_t n, double& det) {
    // Gauss-Jordan elimination with partial pivoting on [A | I] (column-major A).
    std::vector<double> a(n * 2 * n, 0.0);
    auto at = [&](std::uint32_t r, std::uint32_t c) -> double& { return a[r * 2 * n + c]; };
    for (std::uint32_t c = 0; c < n; ++c)
      for (std::uint32_t r = 0; r < n; ++r) at(r, c) = m[c * n + r];
    for (std::uint32_t i = 0; i < n; ++i) at(i, n + i) = 1.0;
    det = 1.0;
    for (std::uint32_t c = 0; c < n; ++c) {
      std::uint32_t p = c;
      for (std::uint32_t r = c + 1; r < n; ++r)
        if (std::fabs(at(r, c)) > std::fabs(at(p, c))) p = r;
      if (at(p, c) == 0.0) {
        det = 0.0;
        return std::vector<double>(n * n, 0.0);
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
    std::vector<double> inv(n * n);
    for (std::uint32_t c = 0; c < n; ++c)
      for (std::uint32_t r = 0; r < n; ++r) inv[c * n + r] = at(r, n + c);
    return inv;
  }

  Val compute(const ir::Instruction& inst) {
    const ir::TypeId rt = inst.result.valid() ? m_.reg(inst.result).type : ir::TypeId{};
    auto arg = [&](std::size_t i) { return value(inst.operands.at(i)); };
    switch (inst.opcode) {
      case Opcode::Negate: return map1(arg(0), rt, [](float x) { return -x; });
      case Opcode::Add: return map2(arg(0), arg(1), rt, std::plus<float>());
      case Opcode::Sub: return map2(arg(0), arg(1), rt, std::minus<float>());
      case Opcode::Mul: return map2(arg(0), arg(1), rt, std::multiplies<float>());
      case Opcode::Div: return map2(arg(0), arg(1), rt, std::divides<float>());
      case Opcode::VectorTimesScalar:
      case Opcode::MatrixTimesScalar: {
        const float s = arg(1).v[0];
        return map1(arg(0), rt, [s](float x) { return x * s; });
      }
      case Opcode::MatrixTimesVector: {
        const Val mat = arg(0), vec = arg(1);
        const std::uint32_t n = rows(mat.type), c = cols(mat.type);
        Val r{rt, std::vector<float>(n, 0.0f)};
        for (std::uint32_t k = 0; k < c; ++k)
          for (std::uint32_t i = 0; i < n; ++i) r.v[i] += mat.v[k * n + i] * vec.v[k];
        return r;
      }
      case Opcode::VectorTimesMatrix: {
        const Val vec = arg(0), mat = arg(1);
        const std::uint32_t n = rows(mat.type), c = cols(mat.type);
        Val r{rt, std::vector<float>(c, 0.0f)};
        for (std::uint32_t k = 0; k < c; ++k)
          for (std::uint32_t i = 0; i < n; ++i) r.v[k] += vec.v[i] * mat.v[k * n + i];
        return r;
      }
      case Opcode::MatrixTimesMatrix: {
        const Val a = arg(0), b = arg(1);
        const std::uint32_t n = rows(a.type), inner = cols(a.type), c = cols(b.type);
        Val r{rt, std::vector<float>(n * c, 0.0f)};
        for (std::uint32_t j = 0; j < c; ++j)
          for (std::uint32_t i = 0; i < n; ++i)
            for (std::uint32_t k = 0; k < inner; ++k) r.v[j * n + i] += a.v[k * n + i] * b.v[j * inner + k];
        return r;
      }
      case Opcode::LessThan: return map2(arg(0), arg(1), rt, [](float a, float b) { return b2f(a < b); });
      case Opcode::LessThanEqual: return map2(arg(0), arg(1), rt, [](float a, float b) { return b2f(a <= b); });
      case Opcode::GreaterThan: return map2(arg(0), arg(1), rt, [](float a, float b) { return b2f(a > b); });
      case Opcode::GreaterThanEqual: return map2(arg(0), arg(1), rt, [](float a, float b) { return b2f(a >= b); });
      case Opcode::EqualComponentwise: return map2(arg(0), arg(1), rt, [](float a, float b) { return b2f(a == b); });
      case Opcode::NotEqualComponentwise:
        return map2(arg(0), arg(1), rt, [](float a, float b) { return b2f(a != b); });
      case Opcode::Equal: return Val{rt, {b2f(arg(0).v == arg(1).v)}};
      case Opcode::NotEqual: return Val{rt, {b2f(arg(0).v != arg(1).v)}};
      case Opcode::LogicalAnd: return map2(arg(0), arg(1), rt, [](float a, float b) { return b2f(a != 0 && b != 0); });
      case Opcode::LogicalOr: return map2(arg(0), arg(1), rt, [](float a, float b) { return b2f(a != 0 || b != 0); });
      case Opcode::LogicalNot: return map1(arg(0), rt, [](float a) { return b2f(a == 0); });
      case Opcode::Any: {
        float r = 0;
        for (float x : arg(0).v) r = r != 0 || x != 0 ? 1.0f : 0.0f;
        return Val{rt, {r}};
      }
      case Opcode::All: {
        float r = 1;
        for (float x : arg(0).v) r = r != 0 && x != 0 ? 1.0f : 0.0f;
        return Val{rt, {r}};
      }
      case Opcode::ConstructVectorFromScalar: return Val{rt, std::vector<float>(rows(rt), arg(0).v[0])};
      case Opcode::ConstructVectorFromMultiple:
      case Opcode::ConstructMatrixFromMultiple: {
        Val r{rt, {}};
        for (std::size_t i = 0; i < inst.operands.size(); ++i)
          for (float x : arg(i).v) r.v.push_back(x);
        return r;
      }
      case Opcode::ConstructMatrixFromScalar: {
        const std::uint32_t n = rows(rt), c = cols(rt);
        Val r{rt, std::vector<float>(n * c, 0.0f)};
        for (std::uint32_t i = 0; i < std::min(n, c); ++i) r.v[i * n + i] = arg(0).v[0];
        return r;
      }
      case Opcode::ConstructMatrixFromMatrix: {
        const Val a = arg(0);
        const std::uint32_t n = rows(rt), c = cols(rt), an = rows(a.type), ac = cols(a.type);
        Val r{rt, std::vector<float>(n * c, 0.0f)};
        for (std::uint32_t j = 0; j < c; ++j)
          for (std::uint32_t i = 0; i < n; ++i) r.v[j * n + i] = j < ac && i < an ? a.v[j * an + i] : b2f(i == j);
        return r;
      }
      case Opcode::ExtractVectorComponent: return Val{rt, {arg(0).v.at(inst.operands[1].value())}};
      case Opcode::ExtractVectorComponentMulti: {
        const Val a = arg(0);
        Val r{rt, {}};
        for (std::size_t i = 1; i < inst.operands.size(); ++i) r.v.push_back(a.v.at(inst.operands[i].value()));
        return r;
      }
      case Opcode::Abs: return map1(arg(0), rt, [](float x) { return std::fabs(x); });
      case Opcode::Sign: return map1(arg(0), rt, [](float x) { return x > 0 ? 1.0f : x < 0 ? -1.0f : 0.0f; });
      case Opcode::Floor: return map1(arg(0), rt, [](float x) { return std::floor(x); });
      case Opcode::Ceil: return map1(arg(0), rt, [](float x) { return std::ceil(x); });
      case Opcode::Trunc: return map1(arg(0), rt, [](float x) { return std::trunc(x); });
      case Opcode::Round: return map1(arg(0), rt, [](float x) { return std::round(x); });
      case Opcode::RoundEven: return map1(arg(0), rt, [](float x) { return std::nearbyint(x); });
      case Opcode::Fract: return map1(arg(0), rt, [](float x) { return x - std::floor(x); });
      case Opcode::Sqrt: return map1(arg(0), rt, [](float x) { return std::sqrt(x); });
      case Opcode::InverseSqrt: return map1(arg(0), rt, [](float x) { return 1.0f / std::sqrt(x); });
      case Opcode::Exp: return map1(arg(0), rt, [](float x) { return std::exp(x); });
      case Opcode::Exp2: return map1(arg(0), rt, [](float x) { return std::exp2(x); });
      case Opcode::Log: return map1(arg(0), rt, [](float x) { return std::log(x); });
      case Opcode::Log2: return map1(arg(0), rt, [](float x) { return std::log2(x); });
      case Opcode::Sin: return map1(arg(0), rt, [](float x) { return std::sin(x); });
      case Opcode::Cos: return map1(arg(0), rt, [](float x) { return std::cos(x); });
      case Opcode::Tan: return map1(arg(0), rt, [](float x) { return std::tan(x); });
      case Opcode::Asin: return map1(arg(0), rt, [](float x) { return std::asin(x); });
      case Opcode::Acos: return map1(arg(0), rt, [](float x) { return std::acos(x); });
      case Opcode::Atan: return map1(arg(0), rt, [](float x) { return std::atan(x); });
      case Opcode::Sinh: return map1(arg(0), rt, [](float x) { return std::sinh(x); });
      case Opcode::Cosh: return map1(arg(0), rt, [](float x) { return std::cosh(x); });
      case Opcode::Tanh: return map1(arg(0), rt, [](float x) { return std::tanh(x); });
      case Opcode::Asinh: return map1(arg(0), rt, [](float x) { return std::asinh(x); });
      case Opcode::Acosh: return map1(arg(0), rt, [](float x) { return std::acosh(x); });
      case Opcode::Atanh: return map1(arg(0), rt, [](float x) { return std::atanh(x); });
      case Opcode::Radians: return map1(arg(0), rt, [](float x) { return x * static_cast<float>(M_PI / 180.0); });
      case Opcode::Degrees: return map1(arg(0), rt, [](float x) { return x * static_cast<float>(180.0 / M_PI); });
      case Opcode::Length: {
        const Val a = arg(0);
        return scalar(std::sqrt(dot(a, a)));
      }
      case Opcode::Normalize: {
        const Val a = arg(0);
        const float len = std::sqrt(dot(a, a));
        return map1(a, rt, [len](float x) { return x / len; });
      }
      case Opcode::Distance: {
        const Val d = map2(arg(0), arg(1), arg(0).type, std::minus<float>());
        return scalar(std::sqrt(dot(d, d)));
      }
      case Opcode::Dot: return scalar(dot(arg(0), arg(1)));
      case Opcode::Cross: {
        const Val a = arg(0), b = arg(1);
        return Val{rt, {a.v[1] * b.v[2] - a.v[2] * b.v[1], a.v[2] * b.v[0] - a.v[0] * b.v[2],
                        a.v[0] * b.v[1] - a.v[1] * b.v[0]}};
      }
      case Opcode::Reflect: {
        const Val i = arg(0), n = arg(1);
        const float d = dot(n, i);
        return map2(i, n, rt, [d](float x, float y) { return x - 2.0f * d * y; });
      }
      case Opcode::FaceForward: {
        const Val n = arg(0), i = arg(1), ref = arg(2);
        const bool keep = dot(ref, i) < 0;
        return map1(n, rt, [keep](float x) { return keep ? x : -x; });
      }
      case Opcode::Refract: {
        const Val i = arg(0), n = arg(1);
        const float eta = arg(2).v[0];
        const float d = dot(n, i);
        const float k = 1.0f - eta * eta * (1.0f - d * d);
        if (k < 0) return Val{rt, std::vector<float>(i.v.size(), 0.0f)};
        return map2(i, n, rt, [&](float x, float y) { return eta * x - (eta * d + std::sqrt(k)) * y; });
      }
      case Opcode::Min: return map2(arg(0), arg(1), rt, [](float a, float b) { return b < a ? b : a; });
      case Opcode::Max: return map2(arg(0), arg(1), rt, [](float a, float b) { return a < b ? b : a; });
      case Opcode::Pow: return map2(arg(0), arg(1), rt, [](float a, float b) { return std::pow(a, b); });
      case Opcode::Atan2: return map2(arg(0), arg(1), rt, [](float y, float x) { return std::atan2(y, x); });
      case Opcode::Step: return map2(arg(0), arg(1), rt, [](float e, float x) { return x < e ? 0.0f : 1.0f; });
      case Opcode::Mod: return map2(arg(0), arg(1), rt, [](float x, float y) { return x - y * std::floor(x / y); });
      case Opcode::Clamp:
        return map3(arg(0), arg(1), arg(2), rt, [](float x, float lo, float hi) { return std::min(std::max(x, lo), hi); });
      case Opcode::Mix:
        return map3(arg(0), arg(1), arg(2), rt, [](float x, float y, float a) { return x * (1 - a) + y * a; });
      case Opcode::Smoothstep:
        return map3(arg(0), arg(1), arg(2), rt, [](float e0, float e1, float x) {
          const float t = std::min(std::max((x - e0) / (e1 - e0), 0.0f), 1.0f);
          return t * t * (3 - 2 * t);
        });
      case Opcode::Fma: return map3(arg(0), arg(1), arg(2), rt, [](float a, float b, float c) { return a * b + c; });
      case Opcode::Transpose: {
        const Val a = arg(0);
        const std::uint32_t n = rows(a.type), c = cols(a.type);
        Val r{rt, std::vector<float>(n * c)};
        for (std::uint32_t j = 0; j < c; ++j)
          for (std::uint32_t i = 0; i < n; ++i) r.v[i * c + j] = a.v[j * n + i];
        return r;
      }
      case Opcode::Determinant: {
        double det = 0;
        inverse_of(arg(0).v, rows(arg(0).type), det);
        return scalar(static_cast<float>(det));
      }
      case Opcode::Inverse: {
        double det = 0;
        const auto inv = inverse_of(arg(0).v, rows(arg(0).type), det);
        Val r{rt, {}};
        for (double x : inv) r.v.push_back(static_cast<float>(x));
        return r;
      }
      default: throw EvalError("unsupported opcode " + ir::dump_instruction(m_, inst));
    }
  }

  void exec(const ir::Instruction& inst) {
    if (++executed_ > in_.max_instructions) throw EvalError("instruction budget exhausted (endless loop?)");
    switch (inst.opcode) {
      // Pointers: a variable, or components of a vector variable (what the
      // GLSL front end makes of `gl_FragCoord.xy` or `v.x = ...`).
      case Opcode::AccessVectorComponent:
      case Opcode::AccessVectorComponentMulti: {
        Pointer p = pointer(inst.operands[0]);
        if (!p.components.empty()) throw EvalError("access into a swizzle");
        for (std::size_t i = 1; i < inst.operands.size(); ++i) {
          if (!inst.operands[i].is_literal()) throw EvalError("non-literal vector component");
          p.components.push_back(inst.operands[i].value());
        }
        pointers_[inst.result.index()] = p;
        return;
      }
      case Opcode::Load: {
        const Pointer p = pointer(inst.operands[0]);
        const Val whole = load(p.var);
        if (p.components.empty()) {
          regs_[inst.result.index()] = whole;
          return;
        }
        Val r{m_.reg(inst.result).type, {}};
        for (std::uint32_t c : p.components) r.v.push_back(whole.v.at(c));
        regs_[inst.result.index()] = r;
        return;
      }
      case Opcode::Store: {
        const Pointer p = pointer(inst.operands[0]);
        const Val v = value(inst.operands[1]);
        if (p.components.empty()) {
          vars_[p.var.index()] = v;
          return;
        }
        Val whole = load(p.var);
        for (std::size_t i = 0; i < p.components.size(); ++i) whole.v.at(p.components[i]) = v.v.at(i);
        vars_[p.var.index()] = whole;
        return;
      }
      case Opcode::Call: {
        std::vector<Val> args;
        for (std::size_t i = 1; i < inst.operands.size(); ++i) args.push_back(value(inst.operands[i]));
        auto r = call(inst.operands[0].as_function(), args);
        if (inst.result.valid()) regs_[inst.result.index()] = *r;
        return;
      }
      default: regs_[inst.result.index()] = compute(inst); return;
    }
  }

  struct Pointer {
    ir::VariableId var;
    std::vector<std::uint32_t> components;  // empty: the whole variable
  };
  Pointer pointer(ir::Operand o) const {
    if (o.is_variable()) return Pointer{o.as_variable(), {}};
    auto it = o.is_register() ? pointers_.find(o.value()) : pointers_.end();
    if (it == pointers_.end()) throw EvalError("operand is not a pointer");
    return it->second;
  }
  // A declaration gives the variable its initializer, if it has one.
  void declare(ir::VariableId v) {
    const ir::ConstantId init = m_.variable(v).initializer;
    if (!init.valid()) {
      vars_.erase(v.index());
      return;
    }
    Val value{m_.constant(init).type, {}};
    flatten(init, value.v);
    vars_[v.index()] = value;
  }
  Val load(ir::VariableId var) const {
    if (m_.variable(var).decorations.built_in == "FragCoord")
      return Val{ir::predefined::kVec4, {in_.frag_coord.begin(), in_.frag_coord.end()}};
    auto it = vars_.find(var.index());
    if (it == vars_.end()) throw EvalError("load of an unset variable");
    return it->second;
  }

  const ir::Module& m_;
  const EvalInputs& in_;
  std::unordered_map<std::uint32_t, Val> regs_;
  std::unordered_map<std::uint32_t, Val> vars_;
  std::unordered_map<std::uint32_t, Pointer> pointers_;
  std::uint64_t executed_ = 0;
};

}  // namespace

std::map<std::uint32_t, std::vector<float>> evaluate(const ir::Module& m, const EvalInputs& inputs) {
  return Evaluator(m, inputs).run();
}

}  // namespace sluice::testing
