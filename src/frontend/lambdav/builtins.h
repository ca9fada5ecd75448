// λV's predefined functions: the table of builtins (name, kind, IR opcode,
// argument counts) and the swizzle identifiers `.x`, `.zyx`, `.rgba`. The
// table is constant data; how each kind is typed and lowered lives in
// lower_builtins.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "ir/opcode.h"

namespace sluice::lambdav {

enum class BuiltinKind : std::uint8_t {
  Add,              // + : two or more operands
  Sub,              // - : negation or difference
  Mul,              // * : component-wise, scalar broadcast, linear algebra
  Div,              // /
  Compare,          // < <= > >= : component-wise, Vec(n, b) on vectors
  Equality,         // eq neq : component-wise on vectors, whole value otherwise
  And,              // and : short-circuit on Bool
  Or,               // or
  Not,              // not
  Reduce,           // any-of all-of : Vec(n, b) -> Bool
  VectorCtor,       // vec2..4 (size, float) and bvec2..4 (size, bool)
  MatrixCtor,       // mat2..4
  FloatUnary,       // Num or Vec(n, f) -> the same type
  Length,           // Num or Vec(n, f) -> Num
  FloatBinary,      // one float type, scalars broadcast: min max pow atan2 step mod
  Reflect,          // one float type, no broadcast
  FloatBinaryToNum, // distance dot
  Cross,            // Vec(3, f) x Vec(3, f)
  FloatTernary,     // one float type, scalars broadcast: clamp mix smoothstep fma
  FaceForward,      // one float type, no broadcast
  Refract,          // Vec(n, f), Vec(n, f), Num
  MatrixUnary,      // transpose determinant inverse
  FragCoord,        // (frag-coord) -> Vec(4, f)
};

inline constexpr std::uint8_t kVariadic = 255;

struct BuiltinInfo {
  std::string_view name;
  BuiltinKind kind;
  ir::Opcode opcode = ir::Opcode::Unreachable;  // the IR opcode where one opcode does the work
  std::uint8_t min_args = 1;
  std::uint8_t max_args = 1;
  std::uint8_t size = 0;  // constructors: the vector size or matrix order
  bool boolean = false;   // bvec constructors
};

using BuiltinId = std::uint16_t;

// The builtin spelled `name`, if any.
std::optional<BuiltinId> find_builtin(std::string_view name);
const BuiltinInfo& builtin(BuiltinId id);
std::size_t builtin_count();

// A swizzle identifier: '.' and 1-4 letters, all from xyzw or all from rgba.
struct Swizzle {
  std::uint8_t count = 0;
  std::array<std::uint8_t, 4> components{};
  std::uint32_t pack() const;
  static Swizzle unpack(std::uint32_t bits);
};
std::optional<Swizzle> parse_swizzle(std::string_view name);

}  // namespace sluice::lambdav
