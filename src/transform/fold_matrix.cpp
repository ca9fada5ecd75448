// Whole-value folding rules: geometry (length, distance, dot, cross,
// normalize, reflect, refract, faceforward), matrix algebra (products,
// outer product, transpose, determinant, inverse) and any/all.
//
// GPUs compute these with implementation-defined precision (sums of
// products, in any order, fused or not). They are computed here in double
// from the float32 operands — every product of two floats is exact in
// double — and rounded once to float32 at the end: the correctly rounded
// result of the exact formula except in rare cases of cancellation in a
// sum or of double rounding (docs/ir.md, "Transformations"). Outer product
// and transpose are single products or moves, so they are exact in float32.
#include <array>
#include <cmath>

#include "transform/fold.h"

namespace sluice::transform::fold {

using namespace ir;

namespace {

using Out = std::optional<ConstantId>;

double d(const Value& v, std::size_t j) { return as_float(v.bits[j]); }
double at(const Value& mat, std::uint32_t col, std::uint32_t row) { return d(mat, std::size_t{col} * mat.rows + row); }

double dot_of(const Value& a, const Value& b) {
  double s = 0;
  for (std::size_t j = 0; j < a.bits.size(); ++j) s += d(a, j) * d(b, j);
  return s;
}

// Rounds every double of `values` into a Value of the result type.
template <class Values>
Out result(const Evaluation& e, const Values& values) {
  auto out = shaped(e.module, e.result_type);
  if (!out || out->kind != ScalarKind::Float) return std::nullopt;
  for (double x : values) {
    auto b = rounded(x);
    if (!b) return std::nullopt;
    out->bits.push_back(*b);
  }
  if (out->bits.size() != size(*out)) return std::nullopt;
  return intern(e.module, *out);
}

Out one(const Evaluation& e, double x) { return result(e, std::array<double, 1>{x}); }

Out length(const Evaluation& e, std::span<const Value> a) { return one(e, std::sqrt(dot_of(a[0], a[0]))); }
Out distance(const Evaluation& e, std::span<const Value> a) {
  double s = 0;
  for (std::size_t j = 0; j < a[0].bits.size(); ++j) {
    const double t = d(a[0], j) - d(a[1], j);
    s += t * t;
  }
  return one(e, std::sqrt(s));
}
Out dot(const Evaluation& e, std::span<const Value> a) { return one(e, dot_of(a[0], a[1])); }
Out cross(const Evaluation& e, std::span<const Value> a) {
  const Value &x = a[0], &y = a[1];
  return result(e, std::array<double, 3>{d(x, 1) * d(y, 2) - d(y, 1) * d(x, 2), d(x, 2) * d(y, 0) - d(y, 2) * d(x, 0),
                                         d(x, 0) * d(y, 1) - d(y, 0) * d(x, 1)});
}
Out normalize(const Evaluation& e, std::span<const Value> a) {
  const double len = std::sqrt(dot_of(a[0], a[0]));
  if (len == 0) return std::nullopt;
  std::vector<double> v;
  for (std::size_t j = 0; j < a[0].bits.size(); ++j) v.push_back(d(a[0], j) / len);
  return result(e, v);
}
Out reflect(const Evaluation& e, std::span<const Value> a) {
  // I - 2 * dot(N, I) * N
  const double k = 2 * dot_of(a[1], a[0]);
  std::vector<double> v;
  for (std::size_t j = 0; j < a[0].bits.size(); ++j) v.push_back(d(a[0], j) - k * d(a[1], j));
  return result(e, v);
}
Out refract(const Evaluation& e, std::span<const Value> a) {
  const double eta = d(a[2], 0);
  const double n_dot_i = dot_of(a[1], a[0]);
  const double k = 1.0 - eta * eta * (1.0 - n_dot_i * n_dot_i);
  std::vector<double> v;
  for (std::size_t j = 0; j < a[0].bits.size(); ++j)
    v.push_back(k < 0 ? 0.0 : eta * d(a[0], j) - (eta * n_dot_i + std::sqrt(k)) * d(a[1], j));
  return result(e, v);
}
Out faceforward(const Evaluation& e, std::span<const Value> a) {
  // dot(Nref, I) < 0 ? N : -N
  const bool keep = dot_of(a[2], a[1]) < 0;
  std::vector<double> v;
  for (std::size_t j = 0; j < a[0].bits.size(); ++j) v.push_back(keep ? d(a[0], j) : -d(a[0], j));
  return result(e, v);
}

Out vector_times_matrix(const Evaluation& e, std::span<const Value> a) {
  // v (rows) * M: one dot product per column.
  const Value &v = a[0], &mat = a[1];
  std::vector<double> out;
  for (std::uint32_t c = 0; c < mat.columns; ++c) {
    double s = 0;
    for (std::uint32_t r = 0; r < mat.rows; ++r) s += d(v, r) * at(mat, c, r);
    out.push_back(s);
  }
  return result(e, out);
}
Out matrix_times_vector(const Evaluation& e, std::span<const Value> a) {
  const Value &mat = a[0], &v = a[1];
  std::vector<double> out;
  for (std::uint32_t r = 0; r < mat.rows; ++r) {
    double s = 0;
    for (std::uint32_t c = 0; c < mat.columns; ++c) s += at(mat, c, r) * d(v, c);
    out.push_back(s);
  }
  return result(e, out);
}
Out matrix_times_matrix(const Evaluation& e, std::span<const Value> a) {
  const Value &x = a[0], &y = a[1];
  std::vector<double> out;
  for (std::uint32_t c = 0; c < y.columns; ++c) {
    for (std::uint32_t r = 0; r < x.rows; ++r) {
      double s = 0;
      for (std::uint32_t k = 0; k < x.columns; ++k) s += at(x, k, r) * at(y, c, k);
      out.push_back(s);
    }
  }
  return result(e, out);
}
Out outer_product(const Evaluation& e, std::span<const Value> a) {
  // column j is c * r[j]; each entry is one float32 product.
  std::vector<double> out;
  for (std::size_t j = 0; j < a[1].bits.size(); ++j)
    for (std::size_t i = 0; i < a[0].bits.size(); ++i)
      out.push_back(static_cast<double>(as_float(a[0].bits[i]) * as_float(a[1].bits[j])));
  return result(e, out);
}
Out transpose(const Evaluation& e, std::span<const Value> a) {
  std::vector<double> out;
  for (std::uint32_t r = 0; r < a[0].rows; ++r)
    for (std::uint32_t c = 0; c < a[0].columns; ++c) out.push_back(at(a[0], c, r));
  return result(e, out);
}

// Determinant by cofactor expansion on a small square matrix (n <= 4).
using Square = std::array<std::array<double, 4>, 4>;  // [column][row]
double determinant_of(const Square& m, std::uint32_t n) {
  if (n == 1) return m[0][0];
  if (n == 2) return m[0][0] * m[1][1] - m[1][0] * m[0][1];
  double s = 0;
  for (std::uint32_t c = 0; c < n; ++c) {
    Square minor{};
    for (std::uint32_t cc = 0, mc = 0; cc < n; ++cc) {
      if (cc == c) continue;
      for (std::uint32_t r = 1; r < n; ++r) minor[mc][r - 1] = m[cc][r];
      ++mc;
    }
    s += (c % 2 ? -1.0 : 1.0) * m[c][0] * determinant_of(minor, n - 1);  // depth <= 3
  }
  return s;
}
Square square(const Value& v) {
  Square s{};
  for (std::uint32_t c = 0; c < v.columns; ++c)
    for (std::uint32_t r = 0; r < v.rows; ++r) s[c][r] = at(v, c, r);
  return s;
}
Out determinant(const Evaluation& e, std::span<const Value> a) {
  if (a[0].columns != a[0].rows || a[0].columns > 4) return std::nullopt;
  return one(e, determinant_of(square(a[0]), a[0].columns));
}
Out inverse(const Evaluation& e, std::span<const Value> a) {
  const std::uint32_t n = a[0].columns;
  if (n != a[0].rows || n > 4 || n < 2) return std::nullopt;
  const Square m = square(a[0]);
  const double det = determinant_of(m, n);
  if (det == 0) return std::nullopt;  // singular: undefined
  std::vector<double> out;
  // inverse[c][r] = cofactor(r, c) / det (the adjugate is the transposed cofactor matrix).
  for (std::uint32_t c = 0; c < n; ++c) {
    for (std::uint32_t r = 0; r < n; ++r) {
      Square minor{};
      for (std::uint32_t cc = 0, mc = 0; cc < n; ++cc) {
        if (cc == r) continue;
        for (std::uint32_t rr = 0, mr = 0; rr < n; ++rr) {
          if (rr == c) continue;
          minor[mc][mr++] = m[cc][rr];
        }
        ++mc;
      }
      out.push_back(((r + c) % 2 ? -1.0 : 1.0) * determinant_of(minor, n - 1) / det);
    }
  }
  return result(e, out);
}

Out any_all(const Evaluation& e, std::span<const Value> a) {
  const bool want_all = e.opcode == Opcode::All;
  bool r = want_all;
  for (std::uint32_t b : a[0].bits) r = want_all ? (r && b) : (r || b);
  return e.module.bool_constant(r);
}

struct Entry {
  Opcode op;
  WholeRule rule;
};
constexpr Entry kRules[] = {
    {Opcode::Length, length}, {Opcode::Distance, distance}, {Opcode::Dot, dot}, {Opcode::Cross, cross},
    {Opcode::Normalize, normalize}, {Opcode::Reflect, reflect}, {Opcode::Refract, refract},
    {Opcode::FaceForward, faceforward}, {Opcode::VectorTimesMatrix, vector_times_matrix},
    {Opcode::MatrixTimesVector, matrix_times_vector}, {Opcode::MatrixTimesMatrix, matrix_times_matrix},
    {Opcode::OuterProduct, outer_product}, {Opcode::Transpose, transpose}, {Opcode::Determinant, determinant},
    {Opcode::Inverse, inverse}, {Opcode::Any, any_all}, {Opcode::All, any_all},
};

}  // namespace

WholeRule whole_rule(Opcode op) {
  for (const Entry& e : kRules)
    if (e.op == op) return e.rule;
  return nullptr;
}

}  // namespace sluice::transform::fold
