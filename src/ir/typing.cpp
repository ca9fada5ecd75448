#include "ir/typing.h"

#include <algorithm>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "ir/texture.h"

namespace sluice::ir {
namespace {

using predefined::kBool;
using predefined::kFloat;
using predefined::kInt;
using predefined::kVoid;

Error fail(Opcode op, std::string msg) { return Error{fmt::format("{}: {}", name(op), msg)}; }

bool is_kind(const Module& m, TypeId t, ScalarKind k) {
  auto c = component_kind(m, t);
  return c && *c == k && !is_matrix(m, t);
}
bool is_float_like(const Module& m, TypeId t) { return is_kind(m, t, ScalarKind::Float); }
bool is_int_like(const Module& m, TypeId t) {
  return is_kind(m, t, ScalarKind::Int) || is_kind(m, t, ScalarKind::Uint);
}
bool is_bool_like(const Module& m, TypeId t) { return is_kind(m, t, ScalarKind::Bool); }
bool is_numeric_like(const Module& m, TypeId t) { return is_float_like(m, t) || is_int_like(m, t); }

// The types typing derives (a vector of another kind, a swizzle's vector, a
// pointer into a chain, a product's matrix), found in the module without
// adding to it. A type the module lacks gets an id past the module's types
// and is kept in `missing`, where infer_result_type interns it.
class TypeMaker {
 public:
  explicit TypeMaker(const Module& m) : m_(m) {}

  TypeId make(const Type& t) {
    if (const auto id = m_.find_type(t)) return *id;
    for (std::size_t k = 0; k < missing.size(); ++k)
      if (missing[k] == t) return TypeId(static_cast<std::uint32_t>(m_.type_count() + k));
    missing.push_back(t);
    return TypeId(static_cast<std::uint32_t>(m_.type_count() + missing.size() - 1));
  }
  TypeId scalar(ScalarKind s) const {
    switch (s) {
      case ScalarKind::Float: return kFloat;
      case ScalarKind::Int: return kInt;
      case ScalarKind::Uint: return predefined::kUint;
      case ScalarKind::Bool: return kBool;
    }
    return {};
  }
  TypeId vector(ScalarKind s, std::uint32_t n) { return n == 1 ? scalar(s) : make(Type::make_vector(scalar(s), n)); }
  TypeId matrix(TypeId column, std::uint32_t columns) { return make(Type::make_matrix(column, columns)); }
  TypeId pointer(TypeId pointee, StorageClass storage) { return make(Type::make_pointer(pointee, storage)); }

  std::vector<Type> missing;

 private:
  const Module& m_;
};

TypeId with_kind(const Module& m, TypeMaker& made, TypeId t, ScalarKind k) {
  return made.vector(k, component_count(m, t));
}

// Checks that every operand is a value (not a function or literal) and that
// all have one type; returns it.
Result<TypeId> same_type(const Module& m, Opcode op, std::span<const Operand> ops) {
  TypeId t;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    TypeId ti = m.type_of(ops[i]);
    if (!ti.valid()) return fail(op, fmt::format("operand {} is not a value", i));
    if (!t.valid()) t = ti;
    if (ti != t)
      return fail(op, fmt::format("operand types differ: {} and {}", describe_type(m, t), describe_type(m, ti)));
  }
  if (!t.valid()) return fail(op, "needs operands");
  return t;
}

Result<TypeId> pointer_operand(const Module& m, Opcode op, Operand o) {
  TypeId t = m.type_of(o);
  if (!t.valid() || !is_pointer(m, t)) return fail(op, "operand 0 must be a pointer");
  return t;
}

Result<std::uint32_t> literal(Opcode op, Operand o, std::size_t index) {
  if (!o.is_literal()) return fail(op, fmt::format("operand {} must be a literal", index));
  return o.value();
}

Result<TypeId> index_operand(const Module& m, Opcode op, Operand o) {
  TypeId t = m.type_of(o);
  if (!t.valid() || !is_scalar(m, t) || !is_int_like(m, t)) return fail(op, "index must be an int or uint scalar");
  return t;
}

// The type reached by one step of Access*/Extract* from `aggregate`.
Result<TypeId> element_of(const Module& m, TypeMaker& made, Opcode op, TypeId aggregate,
                          std::span<const Operand> ops) {
  const Type& a = m.type(aggregate);
  switch (op) {
    case Opcode::AccessVectorComponent:
    case Opcode::ExtractVectorComponent: {
      if (a.kind != TypeKind::Vector) return fail(op, fmt::format("{} is not a vector", describe_type(m, aggregate)));
      auto l = literal(op, ops[1], 1);
      if (!l) return l.failure();
      if (*l >= a.count) return fail(op, fmt::format("component {} out of range", *l));
      return a.element;
    }
    case Opcode::AccessVectorComponentMulti:
    case Opcode::ExtractVectorComponentMulti: {
      if (a.kind != TypeKind::Vector) return fail(op, fmt::format("{} is not a vector", describe_type(m, aggregate)));
      if (ops.size() < 3 || ops.size() > 5) return fail(op, "needs 2 to 4 components");
      for (std::size_t i = 1; i < ops.size(); ++i) {
        auto l = literal(op, ops[i], i);
        if (!l) return l.failure();
        if (*l >= a.count) return fail(op, fmt::format("component {} out of range", *l));
      }
      return made.make(Type::make_vector(a.element, static_cast<std::uint32_t>(ops.size() - 1)));
    }
    case Opcode::AccessVectorComponentDynamic:
    case Opcode::ExtractVectorComponentDynamic: {
      if (a.kind != TypeKind::Vector) return fail(op, fmt::format("{} is not a vector", describe_type(m, aggregate)));
      if (auto r = index_operand(m, op, ops[1]); !r) return r;
      return a.element;
    }
    case Opcode::AccessMatrixColumn:
    case Opcode::ExtractMatrixColumn: {
      if (a.kind != TypeKind::Matrix) return fail(op, fmt::format("{} is not a matrix", describe_type(m, aggregate)));
      if (auto r = index_operand(m, op, ops[1]); !r) return r;
      return a.element;
    }
    case Opcode::AccessStructField:
    case Opcode::ExtractStructField: {
      if (a.kind != TypeKind::Struct) return fail(op, fmt::format("{} is not a struct", describe_type(m, aggregate)));
      auto l = literal(op, ops[1], 1);
      if (!l) return l.failure();
      if (*l >= a.members.size()) return fail(op, fmt::format("field {} out of range", *l));
      return a.members[*l].type;
    }
    case Opcode::AccessArrayElement:
    case Opcode::ExtractArrayElement: {
      if (a.kind != TypeKind::Array && !(a.kind == TypeKind::UnsizedArray && op == Opcode::AccessArrayElement))
        return fail(op, fmt::format("{} is not an array", describe_type(m, aggregate)));
      if (auto r = index_operand(m, op, ops[1]); !r) return r;
      return a.element;
    }
    default:
      return fail(op, "not an access opcode");
  }
}

Result<TypeId> check_constructor(const Module& m, Opcode op, std::span<const Operand> ops, TypeId result) {
  if (!result.valid()) return fail(op, "constructor needs an explicit result type");
  const Type& r = m.type(result);
  auto operand_type = [&](std::size_t i) { return m.type_of(ops[i]); };
  for (std::size_t i = 0; i < ops.size(); ++i)
    if (!operand_type(i).valid()) return fail(op, fmt::format("operand {} is not a value", i));
  switch (op) {
    case Opcode::ConstructScalarFromScalar:
      if (r.kind != TypeKind::Scalar || !is_scalar(m, operand_type(0))) return fail(op, "needs scalar to scalar");
      return result;
    case Opcode::ConstructVectorFromScalar:
      if (r.kind != TypeKind::Vector || operand_type(0) != r.element)
        return fail(op, "needs a scalar of the vector's component type");
      return result;
    case Opcode::ConstructVectorFromVector:
      if (r.kind != TypeKind::Vector || !is_vector(m, operand_type(0)) ||
          component_count(m, operand_type(0)) != r.count)
        return fail(op, "needs a vector of the same size");
      return result;
    case Opcode::ConstructMatrixFromScalar:
      if (r.kind != TypeKind::Matrix || operand_type(0) != component_type(m, result))
        return fail(op, "needs a scalar of the matrix's component type");
      return result;
    case Opcode::ConstructMatrixFromMatrix:
      if (r.kind != TypeKind::Matrix || !is_matrix(m, operand_type(0))) return fail(op, "needs a matrix");
      return result;
    case Opcode::ConstructVectorFromMultiple: {
      if (r.kind != TypeKind::Vector) return fail(op, "result must be a vector");
      std::uint32_t n = 0;
      for (std::size_t i = 0; i < ops.size(); ++i) {
        TypeId t = operand_type(i);
        if (!is_scalar(m, t) && !is_vector(m, t)) return fail(op, "components must be scalars or vectors");
        if (component_type(m, t) != component_type(m, r.element))
          return fail(op, fmt::format("component {} has type {}, expected {} components", i, describe_type(m, t),
                                      describe_type(m, r.element)));
        n += component_count(m, t);
      }
      if (n != r.count)
        return fail(op, fmt::format("{} components given for {}", n, describe_type(m, result)));
      return result;
    }
    case Opcode::ConstructMatrixFromMultiple: {
      if (r.kind != TypeKind::Matrix) return fail(op, "result must be a matrix");
      const std::uint32_t rows = m.type(r.element).count;
      std::uint32_t n = 0;
      for (std::size_t i = 0; i < ops.size(); ++i) {
        TypeId t = operand_type(i);
        if (!is_float_like(m, t) || component_type(m, t) != component_type(m, result))
          return fail(op, "components must be scalars or vectors of the matrix's component type");
        n += component_count(m, t);
      }
      if (n != rows * r.count) return fail(op, fmt::format("{} components given for {}", n, describe_type(m, result)));
      return result;
    }
    case Opcode::ConstructStruct: {
      if (r.kind != TypeKind::Struct) return fail(op, "result must be a struct");
      if (ops.size() != r.members.size()) return fail(op, "member count mismatch");
      for (std::size_t i = 0; i < ops.size(); ++i)
        if (operand_type(i) != r.members[i].type) return fail(op, fmt::format("member {} type mismatch", i));
      return result;
    }
    case Opcode::ConstructArray: {
      if (r.kind != TypeKind::Array) return fail(op, "result must be an array");
      if (ops.size() != r.count) return fail(op, "element count mismatch");
      for (std::size_t i = 0; i < ops.size(); ++i)
        if (operand_type(i) != r.element) return fail(op, fmt::format("element {} type mismatch", i));
      return result;
    }
    case Opcode::ConstructSampledImage:
      if (r.kind != TypeKind::SampledImage || operand_type(0) != r.element ||
          m.type(operand_type(1)).kind != TypeKind::Sampler)
        return fail(op, "needs an image of the result's image type and a sampler");
      return result;
    case Opcode::Bitcast: {
      TypeId t = operand_type(0);
      if (component_count(m, t) != component_count(m, result) || component_count(m, t) == 0 ||
          is_bool_like(m, t) || is_bool_like(m, result) || m.type(component_type(m, t)).width != 32 ||
          m.type(component_type(m, result)).width != 32)
        return fail(op, "needs 32-bit numeric types of the same size");
      return result;
    }
    default:
      return fail(op, "not a constructor");
  }
}

}  // namespace

namespace {

// The components of a point in the image's space: 1 for 1D and buffers, 3
// for 3D and cubes (a direction), 2 otherwise; no layer, no q.
std::uint32_t spatial_dimensions(const Type& image) {
  const ImageDim dim = image.image.dim;
  return dim == ImageDim::Dim1D || dim == ImageDim::Buffer ? 1 : dim == ImageDim::Dim3D || dim == ImageDim::Cube ? 3 : 2;
}

}  // namespace

std::uint32_t coordinate_components(const Type& image, Opcode op, std::uint16_t aux) {
  const ImageDim dim = image.image.dim;
  std::uint32_t need = spatial_dimensions(image);
  // Storage-image access addresses a cube (arrayed or not) by (u, v, face)
  // or (u, v, 6 * layer + face): three components (GLSL 4.60 §8.12,
  // imageLoad of imageCubeArray takes an ivec3).
  const bool storage_cube = dim == ImageDim::Cube && info(op).family == OpcodeFamily::Image;
  if (image.image.arrayed && op != Opcode::TextureQueryLod && !storage_cube) ++need;
  if (op == Opcode::Texture && (aux & kTextureProj)) ++need;
  return need;
}

namespace {

// The operands after a Texture's coordinate, in texture.h's order: dref,
// lod (an int for a fetch: its level or sample), bias a float scalar each;
// dx, dy and offset with one component per dimension of the image (not the
// layer or the projective q): floats for the derivatives, ints for the
// offset (SPIR-V 1.6 §3.14 Image Operands: "int scalar or vector"); a
// gather's component an int scalar.
Result<bool> check_texture_operands(const Module& m, const Type& image, std::uint16_t aux,
                                    std::span<const Operand> ops) {
  const std::uint32_t dims = spatial_dimensions(image);
  std::size_t next = 2;
  auto scalar_of = [&](const char* what, bool integral) -> Result<bool> {
    const TypeId t = m.type_of(ops[next++]);
    const auto kind = component_kind(m, t);
    const bool ok = is_scalar(m, t) && kind &&
                    (integral ? (*kind == ScalarKind::Int || *kind == ScalarKind::Uint) : *kind == ScalarKind::Float);
    if (!ok) return fail(Opcode::Texture, fmt::format("the {} is {}", what, integral ? "an int" : "a float"));
    return true;
  };
  auto per_dimension = [&](const char* what, bool integral) -> Result<bool> {
    const TypeId t = m.type_of(ops[next++]);
    const auto kind = component_kind(m, t);
    const bool ok = (is_scalar(m, t) || is_vector(m, t)) && component_count(m, t) == dims && kind &&
                    (integral ? (*kind == ScalarKind::Int || *kind == ScalarKind::Uint) : *kind == ScalarKind::Float);
    if (!ok)
      return fail(Opcode::Texture, fmt::format("the {} has {} {} component{} for this image", what, dims,
                                               integral ? "int" : "float", dims == 1 ? "" : "s"));
    return true;
  };
  Result<bool> r = true;
  if (aux & kTextureCompare) r = scalar_of("depth reference", false);
  if (r && (aux & (kTextureLod | kTextureFetch)) && next < ops.size())
    r = scalar_of((aux & kTextureFetch) ? "level or sample of a fetch" : "level of detail", (aux & kTextureFetch) != 0);
  if (r && (aux & kTextureBias)) r = scalar_of("bias", false);
  if (r && (aux & kTextureGrad)) r = per_dimension("x derivative", false);
  if (r && (aux & kTextureGrad)) r = per_dimension("y derivative", false);
  if (r && (aux & kTextureOffset)) r = per_dimension("offset", true);
  if (r && (aux & kTextureGather) && !(aux & kTextureCompare)) r = scalar_of("gather component", true);
  return r;
}

Result<TypeId> check_texture(const Module& m, TypeMaker& made, Opcode op, std::uint16_t aux,
                             std::span<const Operand> ops) {
  auto image_of = [&](TypeId t) -> const Type* {
    const Type& ty = m.type(t);
    if (ty.kind == TypeKind::SampledImage) return &m.type(ty.element);
    if (ty.kind == TypeKind::Image) return &ty;
    return nullptr;
  };
  for (std::size_t i = 0; i < ops.size(); ++i)
    if (!m.type_of(ops[i]).valid()) return fail(op, fmt::format("operand {} is not a value", i));
  const Type* image = image_of(m.type_of(ops[0]));
  if (!image) return fail(op, "operand 0 must be an image or sampled image");
  const ScalarKind sampled = image->image.sampled_type;
  // The IR's coordinate has exactly the components the image needs, as
  // every GLSL texture and image function takes them (GLSL 4.60 §8.9,
  // §8.12); the front ends cut longer SPIR-V coordinates and GLSL's
  // textureProj(sampler2D, vec4) to them (its q moved next to (s, t)).
  if (op != Opcode::TextureSize && op != Opcode::TextureQueryLevels && op != Opcode::TextureSamples && ops.size() > 1) {
    const std::uint32_t need = coordinate_components(*image, op, aux);
    const TypeId coordinate = m.type_of(ops[1]);
    const bool numeric = is_scalar(m, coordinate) || is_vector(m, coordinate);
    if (!numeric || component_count(m, coordinate) < need)
      return fail(op, fmt::format("the coordinate needs at least {} components for this image", need));
    if (component_count(m, coordinate) != need)
      return fail(op, fmt::format("the coordinate has exactly {} components for this image", need));
    // Sampling takes float coordinates; texel fetch and storage-image
    // access signed integer ones (GLSL's texelFetch/imageLoad take ivec;
    // the SPIR-V reader makes unsigned ones signed).
    const bool integral = (op == Opcode::Texture && (aux & kTextureFetch)) || info(op).family == OpcodeFamily::Image;
    if (component_kind(m, coordinate) != (integral ? ScalarKind::Int : ScalarKind::Float))
      return fail(op, integral ? "the coordinate of a texel fetch or image access is an int or ivec"
                               : "a sampling coordinate is a float or vec");
  }
  switch (op) {
    case Opcode::Texture: {
      // Multisampled images are read only by texelFetch (SPIR-V: OpImageFetch
      // with Sample; no sampling instruction takes MS = 1).
      if (image->image.multisampled && !(aux & kTextureFetch))
        return fail(op, "samples a multisampled image; only fetching reads one");
      if (ops.size() != texture_operand_count(aux))
        return fail(op, fmt::format("{} takes {} operands", texture_opcode_name(aux), texture_operand_count(aux)));
      if (!(aux & kTextureFetch) && m.type(m.type_of(ops[0])).kind != TypeKind::SampledImage)
        return fail(op, "sampling needs a sampled image");
      if (auto checked = check_texture_operands(m, *image, aux, ops); !checked) return checked.failure();
      if ((aux & kTextureCompare) && !(aux & kTextureGather)) return kFloat;
      return made.vector(sampled, 4);
    }
    case Opcode::TextureSize: {
      std::uint32_t n = image->image.dim == ImageDim::Dim1D || image->image.dim == ImageDim::Buffer ? 1
                        : image->image.dim == ImageDim::Dim3D ? 3 : 2;
      if (image->image.arrayed) ++n;
      return made.vector(ScalarKind::Int, n);
    }
    case Opcode::TextureQueryLod: return made.vector(ScalarKind::Float, 2);
    case Opcode::TextureQueryLevels:
    case Opcode::TextureSamples: return kInt;
    case Opcode::ImageLoad: return made.vector(sampled, 4);
    case Opcode::ImageAtomicAdd:
    case Opcode::ImageAtomicMin:
    case Opcode::ImageAtomicMax:
    case Opcode::ImageAtomicAnd:
    case Opcode::ImageAtomicOr:
    case Opcode::ImageAtomicXor:
    case Opcode::ImageAtomicExchange:
    case Opcode::ImageAtomicCompSwap: {
      if (!image->image.storage || (sampled != ScalarKind::Int && sampled != ScalarKind::Uint))
        return fail(op, "needs an int or uint storage image");
      const std::size_t values = op == Opcode::ImageAtomicCompSwap ? 2 : 1;
      if (ops.size() != 2 + (image->image.multisampled ? 1 : 0) + values)
        return fail(op, "takes the image, coordinate, the sample if multisampled, and the value(s)");
      const TypeId scalar = made.scalar(sampled);
      for (std::size_t i = ops.size() - values; i < ops.size(); ++i)
        if (m.type_of(ops[i]) != scalar) return fail(op, "values must have the image's sampled type");
      return scalar;
    }
    default: return fail(op, "not a texture opcode");
  }
}

Result<TypeId> check_custom(const Module& m, TypeMaker& made, Opcode op, std::uint16_t aux,
                            std::span<const Operand> ops) {
  auto t = [&](std::size_t i) { return m.type_of(ops[i]); };
  for (std::size_t i = 0; i < ops.size(); ++i)
    if (!ops[i].is_literal() && !ops[i].is_function() && !t(i).valid())
      return fail(op, fmt::format("operand {} is not a value", i));
  const OpcodeFamily family = info(op).family;
  if (family == OpcodeFamily::Access) {
    auto p = pointer_operand(m, op, ops[0]);
    if (!p) return p;
    const Type& ptr = m.type(*p);
    auto e = element_of(m, made, op, ptr.element, ops);
    if (!e) return e;
    return made.pointer(*e, ptr.storage);
  }
  if (family == OpcodeFamily::Extract) {
    if (is_pointer(m, t(0))) return fail(op, "operand 0 must be a value, not a pointer");
    return element_of(m, made, op, t(0), ops);
  }
  if (family == OpcodeFamily::Texture || family == OpcodeFamily::Image) return check_texture(m, made, op, aux, ops);
  switch (op) {
    case Opcode::ArrayLength: {
      auto p = pointer_operand(m, op, ops[0]);
      if (!p) return p;
      if (m.type(pointee(m, *p)).kind != TypeKind::UnsizedArray) return fail(op, "needs a pointer to an unsized array");
      return kInt;
    }
    case Opcode::Call: {
      if (!ops[0].is_function() || ops[0].value() >= m.function_count()) return fail(op, "operand 0 must be a function");
      const Function& f = m.function(ops[0].as_function());
      if (ops.size() - 1 != f.params.size())
        return fail(op, fmt::format("'{}' takes {} arguments, {} given", f.name.text, f.params.size(), ops.size() - 1));
      for (std::size_t i = 0; i < f.params.size(); ++i) {
        TypeId param = pointee(m, m.variable(f.params[i].variable).type);
        TypeId arg = t(i + 1);
        if (f.params[i].direction == ParamDirection::In) {
          if (arg != param)
            return fail(op, fmt::format("argument {} has type {}, expected {}", i, describe_type(m, arg),
                                        describe_type(m, param)));
        } else if (!is_pointer(m, arg) || pointee(m, arg) != param) {
          return fail(op, fmt::format("argument {} must be a pointer to {}", i, describe_type(m, param)));
        }
      }
      return f.return_type;
    }
    case Opcode::Transpose: {
      if (!is_matrix(m, t(0))) return fail(op, "needs a matrix");
      const Type& a = m.type(t(0));
      const TypeId scalar = component_type(m, t(0));
      return made.matrix(a.count == 1 ? scalar : made.make(Type::make_vector(scalar, a.count)), m.type(a.element).count);
    }
    case Opcode::Determinant:
    case Opcode::Inverse: {
      if (!is_matrix(m, t(0)) || m.type(t(0)).count != m.type(m.type(t(0)).element).count)
        return fail(op, "needs a square matrix");
      return op == Opcode::Determinant ? component_type(m, t(0)) : t(0);
    }
    case Opcode::VectorTimesScalar:
      if (!is_vector(m, t(0)) || !is_float_like(m, t(0)) || t(1) != component_type(m, t(0)))
        return fail(op, "needs a float vector and a float of its component type");
      return t(0);
    case Opcode::MatrixTimesScalar:
      if (!is_matrix(m, t(0)) || t(1) != component_type(m, t(0)))
        return fail(op, "needs a matrix and a float of its component type");
      return t(0);
    case Opcode::VectorTimesMatrix: {
      if (!is_matrix(m, t(1)) || m.type(t(1)).element != t(0))
        return fail(op, fmt::format("cannot multiply {} by {}", describe_type(m, t(0)), describe_type(m, t(1))));
      const std::uint32_t n = m.type(t(1)).count;
      return n == 1 ? component_type(m, t(0)) : made.make(Type::make_vector(component_type(m, t(0)), n));
    }
    case Opcode::MatrixTimesVector: {
      if (!is_matrix(m, t(0)) || !is_float_like(m, t(1)) || component_count(m, t(1)) != m.type(t(0)).count ||
          !is_vector(m, t(1)) || component_type(m, t(0)) != component_type(m, t(1)))
        return fail(op, fmt::format("cannot multiply {} by {}", describe_type(m, t(0)), describe_type(m, t(1))));
      return m.type(t(0)).element;
    }
    case Opcode::MatrixTimesMatrix: {
      if (!is_matrix(m, t(0)) || !is_matrix(m, t(1)) ||
          m.type(m.type(t(1)).element).count != m.type(t(0)).count || component_type(m, t(0)) != component_type(m, t(1)))
        return fail(op, fmt::format("cannot multiply {} by {}", describe_type(m, t(0)), describe_type(m, t(1))));
      return made.matrix(m.type(t(0)).element, m.type(t(1)).count);
    }
    case Opcode::OuterProduct:
      if (!is_vector(m, t(0)) || !is_vector(m, t(1)) || !is_float_like(m, t(0)) ||
          component_type(m, t(0)) != component_type(m, t(1)))
        return fail(op, "needs two float vectors of one component type");
      return made.matrix(t(0), component_count(m, t(1)));
    case Opcode::Cross:
      if (t(0) != t(1) || !is_vector(m, t(0)) || !is_float_like(m, t(0)) || m.type(t(0)).count != 3)
        return fail(op, "needs two vec3 (or dvec3)");
      return t(0);
    case Opcode::Ldexp:
      if (!is_float_like(m, t(0)) || !is_int_like(m, t(1)) || component_count(m, t(0)) != component_count(m, t(1)))
        return fail(op, "needs a float and an int of the same size");
      return t(0);
    case Opcode::Select: {
      if (t(1) != t(2)) return fail(op, "both choices must have one type");
      if (t(0) != kBool && t(0) != with_kind(m, made, t(1), ScalarKind::Bool))
        return fail(op, "condition must be bool or a bool vector of the choices' size");
      return t(1);
    }
    case Opcode::Refract:
      if (!is_float_like(m, t(0)) || t(0) != t(1) || t(2) != component_type(m, t(0)))
        return fail(op, "needs two float vectors of one type and a float");
      return t(0);
    case Opcode::BitfieldExtract:
      if (!is_int_like(m, t(0)) || !is_scalar(m, t(1)) || !is_int_like(m, t(1)) || !is_scalar(m, t(2)) ||
          !is_int_like(m, t(2)))
        return fail(op, "needs an integer value, offset and count");
      return t(0);
    case Opcode::BitfieldInsert:
      if (!is_int_like(m, t(0)) || t(0) != t(1) || !is_int_like(m, t(2)) || !is_int_like(m, t(3)))
        return fail(op, "needs base and insert of one integer type, offset and count");
      return t(0);
    case Opcode::PackSnorm4x8:
    case Opcode::PackUnorm4x8:
      if (t(0) != predefined::kVec4) return fail(op, "needs a vec4");
      return predefined::kUint;
    case Opcode::PackSnorm2x16:
    case Opcode::PackUnorm2x16:
    case Opcode::PackHalf2x16:
      if (t(0) != predefined::kVec2) return fail(op, "needs a vec2");
      return predefined::kUint;
    case Opcode::UnpackSnorm4x8:
    case Opcode::UnpackUnorm4x8:
      if (t(0) != predefined::kUint) return fail(op, "needs a uint");
      return predefined::kVec4;
    case Opcode::UnpackSnorm2x16:
    case Opcode::UnpackUnorm2x16:
    case Opcode::UnpackHalf2x16:
      if (t(0) != predefined::kUint) return fail(op, "needs a uint");
      return predefined::kVec2;
    case Opcode::Modf:
      if (!is_float_like(m, t(0)) || !is_pointer(m, t(1)) || pointee(m, t(1)) != t(0))
        return fail(op, "needs a float value and a pointer to its type");
      return t(0);
    case Opcode::Frexp:
      if (!is_float_like(m, t(0)) || !is_pointer(m, t(1)) || pointee(m, t(1)) != with_kind(m, made, t(0), ScalarKind::Int))
        return fail(op, "needs a float value and a pointer to an int of its size");
      return t(0);
    case Opcode::UaddCarry:
    case Opcode::UsubBorrow:
      if (!is_kind(m, t(0), ScalarKind::Uint) || t(1) != t(0) || !is_pointer(m, t(2)) || pointee(m, t(2)) != t(0))
        return fail(op, "needs two uint values of one type and a pointer to that type");
      return t(0);
    case Opcode::UmulExtended:
    case Opcode::ImulExtended: {
      const ScalarKind k = op == Opcode::UmulExtended ? ScalarKind::Uint : ScalarKind::Int;
      if (!is_kind(m, t(0), k) || t(1) != t(0) || !is_pointer(m, t(2)) || pointee(m, t(2)) != t(0) ||
          !is_pointer(m, t(3)) || pointee(m, t(3)) != t(0))
        return fail(op, "needs two integer values of one type and two pointers to that type");
      return kVoid;
    }
    default:
      return fail(op, "has no typing rule");
  }
}

// The one derivation of result types: checks the operands and gives the
// result's type, making the types it derives with `made`.
Result<TypeId> derive_result_type(const Module& m, TypeMaker& made, Opcode op, std::uint16_t aux,
                                  std::span<const Operand> operands, TypeId explicit_type) {
  const OpcodeInfo& oi = info(op);
  const std::size_t n = operands.size();
  if (op != Opcode::Texture) {
    if (n < oi.min_operands || (!oi.variadic_tail && n > oi.max_operands))
      return fail(op, fmt::format("takes {} operands, {} given",
                                  oi.min_operands == oi.max_operands ? fmt::format("{}", oi.min_operands)
                                                                     : fmt::format("{} to {}", oi.min_operands,
                                                                                   oi.max_operands),
                                  n));
  }
  for (std::size_t i = 0; i < n; ++i) {
    const Operand o = operands[i];
    bool in_range = true;
    switch (o.kind()) {
      case Operand::Kind::Register: in_range = o.value() < m.register_count(); break;
      case Operand::Kind::Constant: in_range = o.value() < m.constant_count(); break;
      case Operand::Kind::Variable: in_range = o.value() < m.variable_count(); break;
      case Operand::Kind::Function: in_range = o.value() < m.function_count(); break;
      case Operand::Kind::Literal: break;
    }
    if (!in_range) return fail(op, fmt::format("operand {} refers to an id that does not exist", i));
  }
  auto all = [&](auto pred, const char* what) -> Result<TypeId> {
    auto t = same_type(m, op, operands);
    if (!t) return t;
    if (!pred(*t)) return fail(op, fmt::format("needs {} operands, not {}", what, describe_type(m, *t)));
    return t;
  };
  switch (oi.type_rule) {
    case TypeRule::Void:
      if (info(op).family != OpcodeFamily::Control) {
        if (op == Opcode::Store) {
          TypeId p = m.type_of(operands[0]);
          if (!p.valid() || !is_pointer(m, p)) return fail(op, "operand 0 must be a pointer");
          if (pointee(m, p) != m.type_of(operands[1]))
            return fail(op, fmt::format("stores {} through {}", describe_type(m, m.type_of(operands[1])),
                                        describe_type(m, p)));
        }
        if (op == Opcode::ImageStore) {
          if (auto r = check_texture(m, made, Opcode::ImageLoad, aux, operands.first(2)); !r) return r;
        }
      }
      return kVoid;
    case TypeRule::Explicit: return check_constructor(m, op, operands, explicit_type);
    case TypeRule::Custom: return check_custom(m, made, op, aux, operands);
    case TypeRule::Pointee: {
      auto p = pointer_operand(m, op, operands[0]);
      if (!p) return p;
      TypeId v = pointee(m, *p);
      if (info(op).family == OpcodeFamily::Atomic) {
        if (!is_scalar(m, v) || !is_int_like(m, v)) return fail(op, "needs a pointer to an int or uint");
        for (std::size_t i = 1; i < n; ++i)
          if (m.type_of(operands[i]) != v) return fail(op, "value operands must have the pointee's type");
      }
      if (is_increment(op) && !is_numeric_like(m, v) && !is_matrix(m, v))
        return fail(op, "needs a pointer to a numeric value");
      return v;
    }
    case TypeRule::SameAsFirst: {
      TypeId t0 = m.type_of(operands[0]);
      if (!t0.valid()) return fail(op, "operand 0 is not a value");
      return t0;
    }
    case TypeRule::ArithSame:
      return all([&](TypeId t) { return is_numeric_like(m, t) || is_matrix(m, t); }, "numeric");
    case TypeRule::NumericSame: return all([&](TypeId t) { return is_numeric_like(m, t); }, "numeric");
    case TypeRule::SignedSame:
      return all([&](TypeId t) { return is_float_like(m, t) || is_kind(m, t, ScalarKind::Int); },
                 "float or int");
    case TypeRule::FloatSame: return all([&](TypeId t) { return is_float_like(m, t); }, "float");
    case TypeRule::IntSame: return all([&](TypeId t) { return is_int_like(m, t); }, "integer");
    case TypeRule::BoolSame: return all([&](TypeId t) { return is_bool_like(m, t); }, "bool");
    case TypeRule::Shift: {
      TypeId a = m.type_of(operands[0]), b = m.type_of(operands[1]);
      if (!a.valid() || !b.valid() || !is_int_like(m, a) || !is_int_like(m, b) ||
          (component_count(m, a) != component_count(m, b) && !is_scalar(m, b)))
        return fail(op, "needs integer operands of the same size");
      return a;
    }
    case TypeRule::CompareShape: {
      const bool equality = op == Opcode::EqualComponentwise || op == Opcode::NotEqualComponentwise;
      auto t = all([&](TypeId ty) { return is_numeric_like(m, ty) || (equality && is_bool_like(m, ty)); },
                   equality ? "numeric or bool" : "numeric");
      if (!t) return t;
      return with_kind(m, made, *t, ScalarKind::Bool);
    }
    case TypeRule::CompareWhole: {
      auto t = all([&](TypeId ty) { return !is_pointer(m, ty); }, "non-pointer");
      if (!t) return t;
      return kBool;
    }
    case TypeRule::FloatToScalar: {
      auto t = all([&](TypeId ty) { return is_float_like(m, ty); }, "float");
      if (!t) return t;
      return component_type(m, *t);
    }
    case TypeRule::FloatToBoolShape: {
      auto t = all([&](TypeId ty) { return is_float_like(m, ty); }, "float");
      if (!t) return t;
      return with_kind(m, made, *t, ScalarKind::Bool);
    }
    case TypeRule::IntToIntShape: {
      auto t = all([&](TypeId ty) { return is_int_like(m, ty); }, "integer");
      if (!t) return t;
      return with_kind(m, made, *t, ScalarKind::Int);
    }
    case TypeRule::BoolVectorToBool: {
      auto t = all([&](TypeId ty) { return is_bool_like(m, ty) && is_vector(m, ty); }, "bool vector");
      if (!t) return t;
      return kBool;
    }
  }
  return fail(op, "unknown type rule");
}

}  // namespace

Result<CheckedType> check_result_type(const Module& m, Opcode op, std::uint16_t aux, std::span<const Operand> operands,
                                      TypeId explicit_type) {
  TypeMaker made(m);
  auto t = derive_result_type(m, made, op, aux, operands, explicit_type);
  if (!t) return t.failure();
  return CheckedType{*t, std::move(made.missing)};
}

Result<TypeId> infer_result_type(Module& m, Opcode op, std::uint16_t aux, std::span<const Operand> operands,
                                 TypeId explicit_type) {
  auto checked = check_result_type(m, op, aux, operands, explicit_type);
  if (!checked) return checked.failure();
  if (checked->missing.empty()) return checked->type;
  // Intern the missing types in order: each refers only to the module's
  // types and to missing types before it (a pointer to a new vector, a
  // matrix of new columns).
  const std::uint32_t first = static_cast<std::uint32_t>(m.type_count());
  std::vector<TypeId> interned;
  for (Type t : checked->missing) {
    if (t.element.valid() && t.element.index() >= first) t.element = interned[t.element.index() - first];
    interned.push_back(m.intern(t));
  }
  return checked->type.index() >= first ? interned[checked->type.index() - first] : checked->type;
}

Precision result_precision(const Module& m, TypeId result_type, std::span<const Operand> operands,
                           std::optional<Precision> given) {
  if (component_kind(m, result_type) == ScalarKind::Bool) return Precision::None;
  if (given) return *given;
  Precision p = Precision::None;
  for (Operand o : operands) {
    if (o.is_register() && o.value() < m.register_count()) p = std::max(p, m.reg(o.as_register()).precision);
    if (o.is_variable() && o.value() < m.variable_count()) p = std::max(p, m.variable(o.as_variable()).precision);
  }
  return p;
}

bool is_scalar(const Module& m, TypeId t) { return t.valid() && m.type(t).kind == TypeKind::Scalar; }
bool is_vector(const Module& m, TypeId t) { return t.valid() && m.type(t).kind == TypeKind::Vector; }
bool is_matrix(const Module& m, TypeId t) { return t.valid() && m.type(t).kind == TypeKind::Matrix; }
bool is_pointer(const Module& m, TypeId t) { return t.valid() && m.type(t).kind == TypeKind::Pointer; }

std::optional<ScalarKind> component_kind(const Module& m, TypeId t) {
  if (!t.valid()) return std::nullopt;
  const Type& ty = m.type(t);
  switch (ty.kind) {
    case TypeKind::Scalar: return ty.scalar;
    case TypeKind::Vector:
    case TypeKind::Matrix: return component_kind(m, ty.element);
    default: return std::nullopt;
  }
}

TypeId component_type(const Module& m, TypeId t) {
  if (!t.valid() || t.index() >= m.type_count()) return {};
  const Type* ty = &m.type(t);
  if (ty->kind == TypeKind::Matrix) {
    t = ty->element;
    ty = &m.type(t);
  }
  return ty->kind == TypeKind::Vector ? ty->element : ty->kind == TypeKind::Scalar ? t : TypeId{};
}

bool is_double_like(const Module& m, TypeId t) {
  const TypeId c = component_type(m, t);
  return c.valid() && m.type(c).width == 64;
}

std::uint32_t component_count(const Module& m, TypeId t) {
  if (!t.valid()) return 0;
  const Type& ty = m.type(t);
  if (ty.kind == TypeKind::Scalar) return 1;
  if (ty.kind == TypeKind::Vector) return ty.count;
  return 0;
}

TypeId pointee(const Module& m, TypeId pointer) {
  if (!is_pointer(m, pointer)) return {};
  return m.type(pointer).element;
}

std::string describe_type(const Module& m, TypeId id, std::span<const Type> missing) {
  if (!id.valid() || id.index() >= m.type_count() + missing.size()) return "<invalid type>";
  const Type& t = id.index() < m.type_count() ? m.type(id) : missing[id.index() - m.type_count()];
  auto element = [&](TypeId e) -> const Type& { return e.index() < m.type_count() ? m.type(e) : missing[e.index() - m.type_count()]; };
  auto prefix = [](ScalarKind k) {
    switch (k) {
      case ScalarKind::Float: return "";
      case ScalarKind::Int: return "i";
      case ScalarKind::Uint: return "u";
      case ScalarKind::Bool: return "b";
    }
    return "";
  };
  switch (t.kind) {
    case TypeKind::Void: return "void";
    case TypeKind::Scalar: return t.width == 64 ? "double" : to_string(t.scalar);
    case TypeKind::Vector:
      return fmt::format("{}vec{}", element(t.element).width == 64 ? "d" : prefix(element(t.element).scalar), t.count);
    case TypeKind::Matrix: {
      const std::uint32_t rows = element(t.element).count;
      return rows == t.count ? fmt::format("mat{}", t.count) : fmt::format("mat{}x{}", t.count, rows);
    }
    case TypeKind::Array: return fmt::format("{}[{}]", describe_type(m, t.element, missing), t.count);
    case TypeKind::UnsizedArray: return fmt::format("{}[]", describe_type(m, t.element, missing));
    case TypeKind::Struct: return fmt::format("struct {}", t.name);
    case TypeKind::Image:
      return fmt::format("{}{}{}", prefix(t.image.sampled_type), t.image.storage ? "image" : "texture",
                         to_string(t.image.dim));
    case TypeKind::Sampler: return "sampler";
    case TypeKind::SampledImage: return fmt::format("sampled {}", describe_type(m, t.element, missing));
    case TypeKind::Pointer:
      return fmt::format("ptr<{}, {}>", to_string(t.storage), describe_type(m, t.element, missing));
  }
  return "?";
}

bool is_opaque(const Type& t) {
  return t.kind == TypeKind::Image || t.kind == TypeKind::Sampler || t.kind == TypeKind::SampledImage;
}

bool contains_opaque(const Module& m, TypeId root) {
  std::vector<TypeId> work{root};
  std::unordered_set<std::uint32_t> seen;
  while (!work.empty()) {
    const TypeId id = work.back();
    work.pop_back();
    if (!id.valid() || id.index() >= m.type_count() || !seen.insert(id.index()).second) continue;
    const Type& t = m.type(id);
    if (is_opaque(t)) return true;
    if (t.kind == TypeKind::Array || t.kind == TypeKind::UnsizedArray) work.push_back(t.element);
    if (t.kind == TypeKind::Struct)
      for (const auto& member : t.members) work.push_back(member.type);
  }
  return false;
}

}  // namespace sluice::ir
