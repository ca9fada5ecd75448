// Reserved words and unique naming. The word list is GLSL 4.60's keyword and
// reserved-word tables, GLSL ES 3.20's, the Vulkan GLSL types
// (GL_KHR_vulkan_glsl) and the built-in functions of both languages:
// a variable named like a built-in function hides it in GLSL.
#include "output/glsl/names.h"

#include <array>

#include <fmt/format.h>

namespace sluice::glsl_out {
namespace {

constexpr std::string_view kReserved[] = {
    // Keywords.
    "attribute", "const", "uniform", "varying", "buffer", "shared", "coherent", "volatile", "restrict", "readonly",
    "writeonly", "atomic_uint", "layout", "centroid", "flat", "smooth", "noperspective", "patch", "sample",
    "invariant", "precise", "break", "continue", "do", "for", "while", "switch", "case", "default", "if", "else",
    "subroutine", "in", "out", "inout", "int", "void", "bool", "true", "false", "float", "double", "discard",
    "return", "lowp", "mediump", "highp", "precision", "struct", "uint", "demote", "terminateInvocation",
    // Vector, matrix and opaque types.
    "vec2", "vec3", "vec4", "ivec2", "ivec3", "ivec4", "uvec2", "uvec3", "uvec4", "bvec2", "bvec3", "bvec4",
    "dvec2", "dvec3", "dvec4", "mat2", "mat3", "mat4", "mat2x2", "mat2x3", "mat2x4", "mat3x2", "mat3x3", "mat3x4",
    "mat4x2", "mat4x3", "mat4x4", "dmat2", "dmat3", "dmat4", "dmat2x2", "dmat2x3", "dmat2x4", "dmat3x2", "dmat3x3",
    "dmat3x4", "dmat4x2", "dmat4x3", "dmat4x4", "sampler", "samplerShadow", "subpassInput", "isubpassInput",
    "usubpassInput", "subpassInputMS", "isubpassInputMS", "usubpassInputMS",
    // Reserved for future use.
    "common", "partition", "active", "asm", "class", "union", "enum", "typedef", "template", "this", "resource",
    "goto", "inline", "noinline", "public", "static", "extern", "external", "interface", "long", "short", "half",
    "fixed", "unsigned", "superp", "input", "output", "hvec2", "hvec3", "hvec4", "fvec2", "fvec3", "fvec4",
    "filter", "sizeof", "cast", "namespace", "using", "sampler3DRect", "image1DShadow", "image2DShadow",
    "image1DArrayShadow", "image2DArrayShadow", "iimage1DShadow", "uimage1DShadow",
    // Built-in functions.
    "radians", "degrees", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
    "atanh", "pow", "exp", "log", "exp2", "log2", "sqrt", "inversesqrt", "abs", "sign", "floor", "trunc", "round",
    "roundEven", "ceil", "fract", "mod", "modf", "min", "max", "clamp", "mix", "step", "smoothstep", "isnan",
    "isinf", "floatBitsToInt", "floatBitsToUint", "intBitsToFloat", "uintBitsToFloat", "fma", "frexp", "ldexp",
    "packUnorm2x16", "packSnorm2x16", "packUnorm4x8", "packSnorm4x8", "unpackUnorm2x16", "unpackSnorm2x16",
    "unpackUnorm4x8", "unpackSnorm4x8", "packHalf2x16", "unpackHalf2x16", "packDouble2x32", "unpackDouble2x32",
    "length", "distance", "dot", "cross", "normalize", "ftransform", "faceforward", "reflect", "refract",
    "matrixCompMult", "outerProduct", "transpose", "determinant", "inverse", "lessThan", "lessThanEqual",
    "greaterThan", "greaterThanEqual", "equal", "notEqual", "any", "all", "not", "uaddCarry", "usubBorrow",
    "umulExtended", "imulExtended", "bitfieldExtract", "bitfieldInsert", "bitfieldReverse", "bitCount", "findLSB",
    "findMSB", "textureSize", "textureQueryLod", "textureQueryLevels", "textureSamples", "texture", "textureProj",
    "textureLod", "textureOffset", "texelFetch", "texelFetchOffset", "textureProjOffset", "textureLodOffset",
    "textureProjLod", "textureProjLodOffset", "textureGrad", "textureGradOffset", "textureProjGrad",
    "textureProjGradOffset", "textureGather", "textureGatherOffset", "textureGatherOffsets", "texture1D",
    "texture2D", "texture3D", "textureCube", "shadow1D", "shadow2D", "texture2DProj", "texture2DLod",
    "textureCubeLod", "atomicCounterIncrement", "atomicCounterDecrement", "atomicCounter", "atomicAdd",
    "atomicMin", "atomicMax", "atomicAnd", "atomicOr", "atomicXor", "atomicExchange", "atomicCompSwap",
    "imageSize", "imageSamples", "imageLoad", "imageStore", "imageAtomicAdd", "imageAtomicMin", "imageAtomicMax",
    "imageAtomicAnd", "imageAtomicOr", "imageAtomicXor", "imageAtomicExchange", "imageAtomicCompSwap", "dFdx",
    "dFdy", "dFdxFine", "dFdyFine", "dFdxCoarse", "dFdyCoarse", "fwidth", "fwidthFine", "fwidthCoarse",
    "interpolateAtCentroid", "interpolateAtSample", "interpolateAtOffset", "noise1", "noise2", "noise3", "noise4",
    "EmitStreamVertex", "EndStreamPrimitive", "EmitVertex", "EndPrimitive", "barrier", "memoryBarrier",
    "memoryBarrierAtomicCounter", "memoryBarrierBuffer", "memoryBarrierShared", "memoryBarrierImage",
    "groupMemoryBarrier", "subpassLoad", "anyInvocation", "allInvocations", "allInvocationsEqual", "main",
};

// Opaque type names follow a pattern: [iu](sampler|texture|image)<dim>[MS][Array][Shadow].
bool is_opaque_type_name(std::string_view w) {
  if (w.starts_with("i") || w.starts_with("u")) w.remove_prefix(1);
  for (std::string_view stem : {"sampler", "texture", "image"}) {
    if (!w.starts_with(stem)) continue;
    std::string_view rest = w.substr(stem.size());
    for (std::string_view dim : {"1D", "2D", "3D", "Cube", "2DRect", "Buffer", "External"}) {
      if (!rest.starts_with(dim)) continue;
      std::string_view tail = rest.substr(dim.size());
      for (std::string_view suffix : {"MS", "Array", "Shadow"})
        if (tail.starts_with(suffix)) tail.remove_prefix(suffix.size());
      for (std::string_view suffix : {"Array", "Shadow"})
        if (tail.starts_with(suffix)) tail.remove_prefix(suffix.size());
      if (tail.empty()) return true;
    }
  }
  return false;
}

const std::unordered_set<std::string_view>& reserved_set() {
  static const std::unordered_set<std::string_view> set(std::begin(kReserved), std::end(kReserved));
  return set;
}

bool is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// GLSL ES limits identifiers to 1024 characters; long source names are cut
// well below that so that suffixes still fit.
constexpr std::size_t kMaxIdentifierLength = 200;

}  // namespace

bool is_reserved_word(std::string_view word) { return reserved_set().contains(word) || is_opaque_type_name(word); }

bool is_valid_identifier(std::string_view name) {
  if (name.empty() || name.size() > kMaxIdentifierLength) return false;
  if (name[0] >= '0' && name[0] <= '9') return false;
  for (char c : name)
    if (!is_ident_char(c)) return false;
  if (name.starts_with("gl_") || name.find("__") != std::string_view::npos) return false;
  return !is_reserved_word(name);
}

std::string sanitize_identifier(std::string_view name, std::string_view fallback) {
  std::string out;
  for (char c : name.substr(0, kMaxIdentifierLength)) {
    const char k = is_ident_char(c) ? c : '_';
    if (k == '_' && !out.empty() && out.back() == '_') continue;  // no "__"
    out += k;
  }
  if (out.empty() || out == "_") return std::string(fallback);
  if ((out[0] >= '0' && out[0] <= '9') || out.starts_with("gl_")) out.insert(out.begin(), '_');
  if (out.starts_with("__")) out.erase(out.begin());
  if (is_reserved_word(out)) out += out.back() == '_' ? "x" : "_";
  return out;
}

bool NameTable::taken(std::string_view name) const {
  for (const NameTable* t = this; t; t = t->parent_)
    if (t->names_.contains(std::string(name))) return true;
  return false;
}

bool NameTable::take_exact(const std::string& name) {
  if (taken(name)) return false;
  names_.insert(name);
  return true;
}

std::string NameTable::take(std::string_view wanted, std::string_view fallback) {
  std::string base = sanitize_identifier(wanted, fallback);
  if (!taken(base)) {
    names_.insert(base);
    return base;
  }
  // `base_N` never contains "__": sanitize_identifier strips a trailing '_' run to one.
  const std::string stem = base.back() == '_' ? base : base + "_";
  std::uint64_t& n = next_suffix_[base];
  for (;;) {
    std::string candidate = fmt::format("{}{}", stem, ++n);
    if (!taken(candidate)) {
      names_.insert(candidate);
      return candidate;
    }
  }
}

}  // namespace sluice::glsl_out
