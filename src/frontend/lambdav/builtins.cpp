// The builtin table (see builtins.h). Names are the original λV compiler's
// kebab-case spellings of GLSL.std.450 functions.
#include "frontend/lambdav/builtins.h"

namespace sluice::lambdav {
namespace {

using ir::Opcode;
using K = BuiltinKind;

constexpr BuiltinInfo kBuiltins[] = {
    {"+", K::Add, Opcode::Add, 2, kVariadic},
    {"-", K::Sub, Opcode::Sub, 1, 2},
    {"*", K::Mul, Opcode::Mul, 2, kVariadic},
    {"/", K::Div, Opcode::Div, 2, 2},
    {"<", K::Compare, Opcode::LessThan, 2, 2},
    {"<=", K::Compare, Opcode::LessThanEqual, 2, 2},
    {">", K::Compare, Opcode::GreaterThan, 2, 2},
    {">=", K::Compare, Opcode::GreaterThanEqual, 2, 2},
    {"eq", K::Equality, Opcode::Equal, 2, 2},
    {"neq", K::Equality, Opcode::NotEqual, 2, 2},
    {"and", K::And, Opcode::LogicalAnd, 2, kVariadic},
    {"or", K::Or, Opcode::LogicalOr, 2, kVariadic},
    {"not", K::Not, Opcode::LogicalNot, 1, 1},
    {"any-of", K::Reduce, Opcode::Any, 1, 1},
    {"all-of", K::Reduce, Opcode::All, 1, 1},
    {"vec2", K::VectorCtor, Opcode::ConstructVectorFromMultiple, 1, 2, 2, false},
    {"vec3", K::VectorCtor, Opcode::ConstructVectorFromMultiple, 1, 3, 3, false},
    {"vec4", K::VectorCtor, Opcode::ConstructVectorFromMultiple, 1, 4, 4, false},
    {"bvec2", K::VectorCtor, Opcode::ConstructVectorFromMultiple, 1, 2, 2, true},
    {"bvec3", K::VectorCtor, Opcode::ConstructVectorFromMultiple, 1, 3, 3, true},
    {"bvec4", K::VectorCtor, Opcode::ConstructVectorFromMultiple, 1, 4, 4, true},
    {"mat2", K::MatrixCtor, Opcode::ConstructMatrixFromMultiple, 1, 4, 2},
    {"mat3", K::MatrixCtor, Opcode::ConstructMatrixFromMultiple, 1, 9, 3},
    {"mat4", K::MatrixCtor, Opcode::ConstructMatrixFromMultiple, 1, 16, 4},
    {"abs", K::FloatUnary, Opcode::Abs},
    {"sign", K::FloatUnary, Opcode::Sign},
    {"floor", K::FloatUnary, Opcode::Floor},
    {"ceil", K::FloatUnary, Opcode::Ceil},
    {"trunc", K::FloatUnary, Opcode::Trunc},
    {"round", K::FloatUnary, Opcode::Round},
    {"round-even", K::FloatUnary, Opcode::RoundEven},
    {"fract", K::FloatUnary, Opcode::Fract},
    {"sqrt", K::FloatUnary, Opcode::Sqrt},
    {"inverse-sqrt", K::FloatUnary, Opcode::InverseSqrt},
    {"exp", K::FloatUnary, Opcode::Exp},
    {"exp2", K::FloatUnary, Opcode::Exp2},
    {"log", K::FloatUnary, Opcode::Log},
    {"log2", K::FloatUnary, Opcode::Log2},
    {"sin", K::FloatUnary, Opcode::Sin},
    {"cos", K::FloatUnary, Opcode::Cos},
    {"tan", K::FloatUnary, Opcode::Tan},
    {"asin", K::FloatUnary, Opcode::Asin},
    {"acos", K::FloatUnary, Opcode::Acos},
    {"atan", K::FloatUnary, Opcode::Atan},
    {"sinh", K::FloatUnary, Opcode::Sinh},
    {"cosh", K::FloatUnary, Opcode::Cosh},
    {"tanh", K::FloatUnary, Opcode::Tanh},
    {"asinh", K::FloatUnary, Opcode::Asinh},
    {"acosh", K::FloatUnary, Opcode::Acosh},
    {"atanh", K::FloatUnary, Opcode::Atanh},
    {"radians", K::FloatUnary, Opcode::Radians},
    {"degrees", K::FloatUnary, Opcode::Degrees},
    {"normalize", K::FloatUnary, Opcode::Normalize},
    {"length", K::Length, Opcode::Length},
    {"min", K::FloatBinary, Opcode::Min, 2, 2},
    {"max", K::FloatBinary, Opcode::Max, 2, 2},
    {"pow", K::FloatBinary, Opcode::Pow, 2, 2},
    {"atan2", K::FloatBinary, Opcode::Atan2, 2, 2},
    {"step", K::FloatBinary, Opcode::Step, 2, 2},
    {"mod", K::FloatBinary, Opcode::Mod, 2, 2},
    {"reflect", K::Reflect, Opcode::Reflect, 2, 2},
    {"distance", K::FloatBinaryToNum, Opcode::Distance, 2, 2},
    {"dot", K::FloatBinaryToNum, Opcode::Dot, 2, 2},
    {"cross", K::Cross, Opcode::Cross, 2, 2},
    {"clamp", K::FloatTernary, Opcode::Clamp, 3, 3},
    {"mix", K::FloatTernary, Opcode::Mix, 3, 3},
    {"smoothstep", K::FloatTernary, Opcode::Smoothstep, 3, 3},
    {"fma", K::FloatTernary, Opcode::Fma, 3, 3},
    {"face-forward", K::FaceForward, Opcode::FaceForward, 3, 3},
    {"refract", K::Refract, Opcode::Refract, 3, 3},
    {"transpose", K::MatrixUnary, Opcode::Transpose},
    {"determinant", K::MatrixUnary, Opcode::Determinant},
    {"inverse", K::MatrixUnary, Opcode::Inverse},
    {"frag-coord", K::FragCoord, Opcode::Load, 0, 0},
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
