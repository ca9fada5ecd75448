// Evaluation of instructions on constants, shared by the fold pass and its
// tests. Numbers are handled as 32-bit patterns with their scalar kind, so
// a float is never widened by accident: float32 arithmetic is done in float
// (the build compiles these files with -ffp-contract=off, so a*b+c is never
// fused), integer arithmetic on uint32_t (wrap-around), and only the
// operations whose GPU precision is implementation-defined go through
// double (see fold_scalar.cpp).
//
// Every rule says "not foldable" (nullopt) rather than guess: for results
// that would be NaN, Inf or undefined, and for operands that are NaN, Inf
// or specialization constants.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <span>

#include <boost/container/small_vector.hpp>

#include "ir/module.h"

namespace sluice::transform::fold {

struct Scalar {
  std::uint32_t bits = 0;
  ir::ScalarKind kind = ir::ScalarKind::Float;
};

// f(args) for one component; args follow the opcode's operand order.
using ScalarRule = std::optional<std::uint32_t> (*)(const Scalar* args);
// The component-wise rule of `op`, or null when `op` is not component-wise.
ScalarRule scalar_rule(ir::Opcode op);
// A conversion as GLSL's constructors do it (float -> int truncates; out of
// range is undefined, so nullopt).
std::optional<std::uint32_t> convert(Scalar from, ir::ScalarKind to);

// A scalar, vector or matrix constant, flattened: components column by
// column. `columns` is 0 for scalars and vectors.
struct Value {
  ir::TypeId type;
  ir::ScalarKind kind = ir::ScalarKind::Float;
  std::uint32_t columns = 0;
  std::uint32_t rows = 1;  // component count for vectors, column height for matrices
  boost::container::small_vector<std::uint32_t, 16> bits;
  Scalar at(std::size_t i) const { return Scalar{bits[i], kind}; }
};

// nullopt for arrays, structs, specialization constants and anything that
// is not a plain numeric or bool constant.
std::optional<Value> flatten(const ir::Module& m, ir::ConstantId c);
// A Value of `type` (scalar, vector or matrix) with no components yet.
std::optional<Value> shaped(const ir::Module& m, ir::TypeId type);
inline std::size_t size(const Value& v) { return v.columns ? std::size_t{v.columns} * v.rows : v.rows; }
// No float component is NaN or Inf.
bool all_finite(const Value& v);
// Interns `v` (components first) in the module's constant table.
ir::ConstantId intern(ir::Module& m, const Value& v);
// True if `c` or any of its components is a specialization constant.
bool depends_on_spec_constant(const ir::Module& m, ir::ConstantId c);

// Everything an evaluation needs: operands are constants or literals.
struct Evaluation {
  ir::Module& module;
  ir::Opcode opcode;
  std::uint16_t aux;
  ir::TypeId result_type;
  std::span<const ir::Operand> operands;
};

// The constant `op(operands)` evaluates to, or nullopt if it is not foldable.
std::optional<ir::ConstantId> evaluate(const Evaluation& e);

// Doubles (fold_double.cpp): the rules above hold 32-bit components and
// refuse doubles (flatten, shaped); these evaluate them in double.
bool involves_double(const Evaluation& e);
std::optional<ir::ConstantId> evaluate_double(const Evaluation& e);

// Rules that look at whole values (linear algebra, geometry, any/all,
// whole-value equality); fold_matrix.cpp. Null when `op` has none.
using WholeRule = std::optional<ir::ConstantId> (*)(const Evaluation& e, std::span<const Value> args);
WholeRule whole_rule(ir::Opcode op);

// Helpers shared by the rule files.
inline float as_float(std::uint32_t bits) { return std::bit_cast<float>(bits); }
inline std::uint32_t float_bits(float f) { return std::bit_cast<std::uint32_t>(f); }
// The float32 nearest to `d`, or nullopt when that is NaN or Inf.
std::optional<std::uint32_t> rounded(double d);
// `f` as bits, or nullopt when it is NaN or Inf.
std::optional<std::uint32_t> finite(float f);

}  // namespace sluice::transform::fold
