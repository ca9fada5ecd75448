// Types of the IR. A Type is a plain value; the module interns it, so two
// equal Types always have the same TypeId (hash-consing, as in Slang's IR).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/ids.h"
#include "ir/precision.h"

namespace sluice::ir {

enum class ScalarKind : std::uint8_t { Float, Int, Uint, Bool };

enum class TypeKind : std::uint8_t {
  Void,
  Scalar,
  Vector,        // element: scalar type, count: 2..4
  Matrix,        // element: column vector type, count: number of columns
  Array,         // element, count
  UnsizedArray,  // element (the last member of a storage block)
  Struct,        // members, struct name; also interface blocks
  Image,         // image descriptor
  Sampler,
  SampledImage,  // element: the image type
  Pointer,       // element: pointee, storage class
};

enum class StorageClass : std::uint8_t {
  Function,
  Private,
  Input,
  Output,
  Uniform,
  StorageBuffer,
  PushConstant,
  UniformConstant,
  Workgroup,
};

// Memory no instruction of the shader may write: uniform and push-constant
// blocks, inputs and opaque handles (SPIR-V 2.16.2 and Vulkan's rules on
// stores; GLSL 4.60 §4.3.3-4.3.7). The validator refuses writes there; the
// memory passes and the SPIR-V output treat a load from it as a value.
inline bool is_read_only(StorageClass s) {
  return s == StorageClass::Uniform || s == StorageClass::PushConstant || s == StorageClass::UniformConstant ||
         s == StorageClass::Input;
}

enum class ImageDim : std::uint8_t { Dim1D, Dim2D, Dim3D, Cube, Rect, Buffer, SubpassData };

// Layout rules the SPIR-V output applies to a struct's members.
enum class BlockLayout : std::uint8_t { None, Std140, Std430 };

enum class MatrixLayout : std::uint8_t { Default, ColumnMajor, RowMajor };

struct ImageDescriptor {
  ScalarKind sampled_type = ScalarKind::Float;
  ImageDim dim = ImageDim::Dim2D;
  bool depth = false;
  bool arrayed = false;
  bool multisampled = false;
  bool storage = false;  // image2D etc. (read/write), not texture2D
  // Storage image format as spelled in GLSL's layout (e.g. "rgba8"), empty
  // for sampled images or "unknown".
  std::string format;

  friend bool operator==(const ImageDescriptor&, const ImageDescriptor&) = default;
};

struct StructMember {
  std::string name;
  TypeId type;
  std::optional<std::uint32_t> offset;  // explicit layout(offset = N)
  MatrixLayout matrix_layout = MatrixLayout::Default;
  // Built-in for members of built-in blocks (gl_PerVertex); empty otherwise.
  std::string built_in;
  std::optional<std::uint32_t> xfb_offset{};  // layout(xfb_offset = N) of an output block member
  // layout(location = N) of an input/output block member. Either every
  // member of a block has one and the block's variable has none, or no
  // member has one (Vulkan VUID-StandaloneSpirv-Location-04918/04919).
  std::optional<std::uint32_t> location{};
  // The member's declared precision (GLSL's qualifier or default); the SPIR-V
  // output decorates lowp/mediump members RelaxedPrecision, as glslang does.
  Precision precision = Precision::None;

  friend bool operator==(const StructMember&, const StructMember&) = default;
};

struct Type {
  TypeKind kind = TypeKind::Void;
  ScalarKind scalar = ScalarKind::Float;  // Scalar only
  // Scalar only: the bits of a Float, 32 (float) or 64 (double, GLSL 4.00,
  // SPIR-V OpTypeFloat 64 with the Float64 capability). Ints and bools
  // are 32 bits.
  std::uint32_t width = 32;
  TypeId element;                         // Vector, Matrix, Array, UnsizedArray, SampledImage, Pointer
  std::uint32_t count = 0;                // Vector, Matrix, Array
  // Array only: when valid, the length is this specialization constant or
  // specialization-constant expression (Constant::spec_id / spec_op) and
  // `count` is its default value.
  ConstantId length;
  StorageClass storage = StorageClass::Function;  // Pointer only
  // Struct only. Structs are nominal: the name takes part in equality.
  std::string name;
  std::vector<StructMember> members;
  bool is_block = false;  // an interface block (uniform / buffer / in / out)
  BlockLayout layout = BlockLayout::None;
  ImageDescriptor image;  // Image only

  friend bool operator==(const Type&, const Type&) = default;

  static Type make_void() { return Type{}; }
  static Type make_scalar(ScalarKind s) {
    Type t;
    t.kind = TypeKind::Scalar;
    t.scalar = s;
    return t;
  }
  static Type make_double() {
    Type t = make_scalar(ScalarKind::Float);
    t.width = 64;
    return t;
  }
  static Type make_vector(TypeId scalar, std::uint32_t n) { return composite(TypeKind::Vector, scalar, n); }
  static Type make_matrix(TypeId column, std::uint32_t columns) {
    return composite(TypeKind::Matrix, column, columns);
  }
  static Type make_array(TypeId element, std::uint32_t n) { return composite(TypeKind::Array, element, n); }
  static Type make_spec_array(TypeId element, std::uint32_t default_count, ConstantId length) {
    Type t = composite(TypeKind::Array, element, default_count);
    t.length = length;
    return t;
  }
  static Type make_unsized_array(TypeId element) { return composite(TypeKind::UnsizedArray, element, 0); }
  static Type make_pointer(TypeId pointee, StorageClass storage) {
    Type t = composite(TypeKind::Pointer, pointee, 0);
    t.storage = storage;
    return t;
  }
  static Type make_image(ImageDescriptor d) {
    Type t;
    t.kind = TypeKind::Image;
    t.image = std::move(d);
    return t;
  }
  static Type make_sampler() {
    Type t;
    t.kind = TypeKind::Sampler;
    return t;
  }
  static Type make_sampled_image(TypeId image) { return composite(TypeKind::SampledImage, image, 0); }
  static Type make_struct(std::string name, std::vector<StructMember> members, bool is_block = false,
                          BlockLayout layout = BlockLayout::None) {
    Type t;
    t.kind = TypeKind::Struct;
    t.name = std::move(name);
    t.members = std::move(members);
    t.is_block = is_block;
    t.layout = layout;
    return t;
  }

 private:
  static Type composite(TypeKind k, TypeId element, std::uint32_t n) {
    Type t;
    t.kind = k;
    t.element = element;
    t.count = n;
    return t;
  }
};

std::size_t hash_value(const Type& t);

const char* to_string(ScalarKind s);
const char* to_string(StorageClass s);
const char* to_string(ImageDim d);
const char* to_string(BlockLayout l);
std::optional<StorageClass> storage_class_from_string(std::string_view s);
std::optional<ImageDim> image_dim_from_string(std::string_view s);

}  // namespace sluice::ir
