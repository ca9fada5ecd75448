// The builtin table (see builtins.h). Names are the original λV compiler's
// kebab-case spellings of GLSL.std.450 functions.
#include "frontend/lambdav/builtins.h"

namespace sluice::lambdav {
namespace {

using ir::Opcode;
using BK = BuiltinKind;

constexpr BuiltinInfo kBuiltins[] = {
    {"+", BK::Add, Opcode::Add, 2, kVariadic},
    {"-", BK::Sub, Opcode::Sub, 1, 2},
    {"*", BK::Mul, Opcode::Mul, 2, kVariadic},
    {"/", BK::Div, Opcode::Div, 2, 2},
    {"<", BK::Compare, Opcode::LessThan, 2, 2},
    {"<=", BK::Compare, Opcode::LessThanEqual, 2, 2},
    {">", BK::Compare, Opcode::GreaterThan, 2, 2},
    {">=", BK::Compare, Opcode::GreaterThanEqual, 2, 2},
    {"eq", BK::Equality, Opcode::Equal, 2, 2},
    {"neq", BK::Equality, Opcode::NotEqual, 2, 2},
    {"and", BK::And, Opcode::LogicalAnd, 2, kVariadic},
    {"or", BK::Or, Opcode::LogicalOr, 2, kVariadic},
    {"not", BK::Not, Opcode::LogicalNot, 1, 1},
    {"any-of", BK::Reduce, Opcode::Any, 1, 1},
    {"all-of", BK::Reduce, Opcode::All, 1, 1},
    {"vec2", BK::VectorCtor, Opcode::ConstructVectorFromMultiple, 1, 2, 2, false},
    {"vec3", BK::VectorCtor, Opcode::ConstructVectorFromMultiple, 1, 3, 3, false},
    {"vec4", BK::VectorCtor, Opcode::ConstructVectorFromMultiple, 1, 4, 4, false},
    {"bvec2", BK::VectorCtor, Opcode::ConstructVectorFromMultiple, 1, 2, 2, true},
    {"bvec3", BK::VectorCtor, Opcode::ConstructVectorFromMultiple, 1, 3, 3, true},
    {"bvec4", BK::VectorCtor, Opcode::ConstructVectorFromMultiple, 1, 4, 4, true},
    {"mat2", BK::MatrixCtor, Opcode::ConstructMatrixFromMultiple, 1, 4, 2},
    {"mat3", BK::MatrixCtor, Opcode::ConstructMatrixFromMultiple, 1, 9, 3},
    {"mat4", BK::MatrixCtor, Opcode::ConstructMatrixFromMultiple, 1, 16, 4},
    {"abs", BK::FloatUnary, Opcode::Abs},
    {"sign", BK::FloatUnary, Opcode::Sign},
    {"floor", BK::FloatUnary, Opcode::Floor},
    {"ceil", BK::FloatUnary, Opcode::Ceil},
    {"trunc", BK::FloatUnary, Opcode::Trunc},
    {"round", BK::FloatUnary, Opcode::Round},
    {"round-even", BK::FloatUnary, Opcode::RoundEven},
    {"fract", BK::FloatUnary, Opcode::Fract},
    {"sqrt", BK::FloatUnary, Opcode::Sqrt},
    {"inverse-sqrt", BK::FloatUnary, Opcode::InverseSqrt},
    {"exp", BK::FloatUnary, Opcode::Exp},
    {"exp2", BK::FloatUnary, Opcode::Exp2},
    {"log", BK::FloatUnary, Opcode::Log},
    {"log2", BK::FloatUnary, Opcode::Log2},
    {"sin", BK::FloatUnary, Opcode::Sin},
    {"cos", BK::FloatUnary, Opcode::Cos},
    {"tan", BK::FloatUnary, Opcode::Tan},
    {"asin", BK::FloatUnary, Opcode::Asin},
    {"acos", BK::FloatUnary, Opcode::Acos},
    {"atan", BK::FloatUnary, Opcode::Atan},
    {"sinh", BK::FloatUnary, Opcode::Sinh},
    {"cosh", BK::FloatUnary, Opcode::Cosh},
    {"tanh", BK::FloatUnary, Opcode::Tanh},
    {"asinh", BK::FloatUnary, Opcode::Asinh},
    {"acosh", BK::FloatUnary, Opcode::Acosh},
    {"atanh", BK::FloatUnary, Opcode::Atanh},
    {"radians", BK::FloatUnary, Opcode::Radians},
    {"degrees", BK::FloatUnary, Opcode::Degrees},
    {"normalize", BK::FloatUnary, Opcode::Normalize},
    {"length", BK::Length, Opcode::Length},
    {"min", BK::FloatBinary, Opcode::Min, 2, 2},
    {"max", BK::FloatBinary, Opcode::Max, 2, 2},
    {"pow", BK::FloatBinary, Opcode::Pow, 2, 2},
    {"atan2", BK::FloatBinary, Opcode::Atan2, 2, 2},
    {"step", BK::FloatBinary, Opcode::Step, 2, 2},
    {"mod", BK::FloatBinary, Opcode::Mod, 2, 2},
    {"reflect", BK::Reflect, Opcode::Reflect, 2, 2},
    {"distance", BK::FloatBinaryToNum, Opcode::Distance, 2, 2},
    {"dot", BK::FloatBinaryToNum, Opcode::Dot, 2, 2},
    {"cross", BK::Cross, Opcode::Cross, 2, 2},
    {"clamp", BK::FloatTernary, Opcode::Clamp, 3, 3},
    {"mix", BK::FloatTernary, Opcode::Mix, 3, 3},
    {"smoothstep", BK::FloatTernary, Opcode::Smoothstep, 3, 3},
    {"fma", BK::FloatTernary, Opcode::Fma, 3, 3},
    {"face-forward", BK::FaceForward, Opcode::FaceForward, 3, 3},
    {"refract", BK::Refract, Opcode::Refract, 3, 3},
    {"transpose", BK::MatrixUnary, Opcode::Transpose},
    {"determinant", BK::MatrixUnary, Opcode::Determinant},
    {"inverse", BK::MatrixUnary, Opcode::Inverse},
    {"frag-coord", BK::FragCoord, Opcode::Load, 0, 0},
};

int component_index(char c, bool& rgba) {
  switch (c) {
    case 'x': rgba = false; return 0;
    case 'y': rgba = false; return 1;
    case 'z': rgba = false; return 2;
    case 'w': rgba = false; return 3;
    case 'r': rgba = true; return 0;
    case 'g': rgba = true; return 1;
    case 'b': rgba = true; return 2;
    case 'a': rgba = true; return 3;
    default: return -1;
  }
}

}  // namespace

std::optional<BuiltinId> find_builtin(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kBuiltins); ++i)
    if (kBuiltins[i].name == name) return static_cast<BuiltinId>(i);
  return std::nullopt;
}

const BuiltinInfo& builtin(BuiltinId id) { return kBuiltins[id]; }
std::size_t builtin_count() { return std::size(kBuiltins); }

std::uint32_t Swizzle::pack() const {
  std::uint32_t bits = count;
  for (std::size_t i = 0; i < 4; ++i) bits |= static_cast<std::uint32_t>(components[i] & 3u) << (4 + 2 * i);
  return bits;
}

Swizzle Swizzle::unpack(std::uint32_t bits) {
  Swizzle s;
  s.count = static_cast<std::uint8_t>(bits & 0xfu);
  for (std::size_t i = 0; i < 4; ++i) s.components[i] = static_cast<std::uint8_t>((bits >> (4 + 2 * i)) & 3u);
  return s;
}

std::optional<Swizzle> parse_swizzle(std::string_view name) {
  if (name.size() < 2 || name.size() > 5 || name[0] != '.') return std::nullopt;
  Swizzle s;
  bool first_set = false;
  bool set = false;
  for (std::size_t i = 1; i < name.size(); ++i) {
    bool rgba = false;
    const int c = component_index(name[i], rgba);
    if (c < 0) return std::nullopt;
    if (i == 1) first_set = rgba;
    else if (rgba != first_set) return std::nullopt;  // no mixing of xyzw and rgba
    s.components[s.count++] = static_cast<std::uint8_t>(c);
    set = true;
  }
  if (!set) return std::nullopt;
  return s;
}

}  // namespace sluice::lambdav
