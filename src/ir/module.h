// The module: flat, id-indexed tables of types, constants, variables,
// functions and registers, plus shader-wide metadata. Types and constants are
// interned: asking twice for the same one returns the same id. A module owns
// everything it refers to and holds no global state, so independent modules
// can be built and processed on different threads at once.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/block.h"
#include "ir/constant.h"
#include "ir/ids.h"
#include "ir/predefined.h"
#include "ir/type.h"
#include "ir/variable.h"

namespace sluice::ir {

enum class ShaderStage : std::uint8_t { Vertex, Fragment, Compute, Geometry, TessControl, TessEvaluation };
const char* to_string(ShaderStage s);

// The primitives of the geometry and tessellation stages (SPIR-V execution
// modes, SPIR-V spec 3.6): a geometry shader's input (points ... triangles
// with adjacency) and output (points, line_strip, triangle_strip), a
// tessellation evaluation shader's domain (triangles, quads, isolines).
enum class Primitive : std::uint8_t {
  None,
  Points,
  Lines,
  LinesAdjacency,
  Triangles,
  TrianglesAdjacency,
  LineStrip,
  TriangleStrip,
  Quads,
  Isolines
};
const char* to_string(Primitive p);
// Tessellation spacing (equal_spacing, fractional_even/odd_spacing) and the
// winding of the generated triangles (cw, ccw).
enum class TessSpacing : std::uint8_t { None, Equal, FractionalEven, FractionalOdd };
enum class VertexOrder : std::uint8_t { None, Cw, Ccw };
const char* to_string(TessSpacing s);
const char* to_string(VertexOrder o);

struct ShaderInfo {
  ShaderStage stage = ShaderStage::Fragment;
  bool early_fragment_tests = false;
  std::array<std::uint32_t, 3> local_size = {1, 1, 1};  // compute only
  // layout(local_size_x_id = N): the dimension is the specialization
  // constant N, local_size its default (SPIR-V: the WorkgroupSize built-in).
  std::array<std::optional<std::uint32_t>, 3> local_size_spec_id = {};
  bool depth_replacing = false;
  bool transform_feedback = false;  // the shader captures outputs (SPIR-V execution mode Xfb)
  // Geometry: input_primitive, output_primitive, output_vertices
  // (max_vertices), invocations (unset: one). Tessellation control:
  // output_vertices (layout(vertices = N) out). Tessellation evaluation:
  // input_primitive is the domain, with spacing, order and point_mode.
  // Unset counts are nullopt (max_vertices = 0 is a valid geometry shader).
  Primitive input_primitive = Primitive::None;
  Primitive output_primitive = Primitive::None;
  std::optional<std::uint32_t> output_vertices;
  std::optional<std::uint32_t> invocations;
  TessSpacing spacing = TessSpacing::None;
  VertexOrder order = VertexOrder::None;
  bool point_mode = false;
  friend bool operator==(const ShaderInfo&, const ShaderInfo&) = default;
};

struct Function {
  Name name;
  std::vector<FunctionParam> params;
  TypeId return_type;
  Precision return_precision = Precision::None;
  SourceLocId location;
  BlockId entry;
  std::vector<Block> blocks;  // the block table; entry and everything reachable from it

  Block& block(BlockId id) { return blocks[id.index()]; }
  const Block& block(BlockId id) const { return blocks[id.index()]; }
  BlockId add_block() {
    blocks.emplace_back();
    return BlockId(static_cast<std::uint32_t>(blocks.size() - 1));
  }
};

struct RegisterInfo {
  TypeId type;
  Precision precision = Precision::None;
};

class Module {
 public:
  // A new module holds the predefined types and constants (predefined.h).
  explicit Module(ShaderStage stage = ShaderStage::Fragment);

  ShaderInfo& shader() { return shader_; }
  const ShaderInfo& shader() const { return shader_; }

  // --- Types ---
  TypeId intern(const Type& t);
  // The id `t` is interned under, if it is (nothing is added).
  std::optional<TypeId> find_type(const Type& t) const;
  const Type& type(TypeId id) const { return types_[id.index()]; }
  std::size_t type_count() const { return types_.size(); }
  TypeId vector_type(ScalarKind s, std::uint32_t n);       // n == 1 gives the scalar
  TypeId scalar_type(ScalarKind s);
  TypeId matrix_type(std::uint32_t columns, std::uint32_t rows);
  // double, dvecN (n == 1 gives the scalar), dmatCxR.
  TypeId double_type(std::uint32_t n = 1);
  TypeId double_matrix_type(std::uint32_t columns, std::uint32_t rows);
  TypeId pointer_type(TypeId pointee, StorageClass storage) {
    return intern(Type::make_pointer(pointee, storage));
  }
  TypeId array_type(TypeId element, std::uint32_t n) { return intern(Type::make_array(element, n)); }

  // --- Constants ---
  ConstantId intern(const Constant& c);
  const Constant& constant(ConstantId id) const { return constants_[id.index()]; }
  std::size_t constant_count() const { return constants_.size(); }
  ConstantId float_constant(float v);
  ConstantId double_constant(double v);
  ConstantId int_constant(std::int32_t v);
  ConstantId uint_constant(std::uint32_t v);
  ConstantId bool_constant(bool v);
  ConstantId composite_constant(TypeId type, std::span<const ConstantId> components);

  // --- Variables ---
  VariableId add_variable(Variable v);
  Variable& variable(VariableId id) { return variables_[id.index()]; }
  const Variable& variable(VariableId id) const { return variables_[id.index()]; }
  std::size_t variable_count() const { return variables_.size(); }
  std::vector<VariableId>& globals() { return globals_; }
  const std::vector<VariableId>& globals() const { return globals_; }

  // --- Functions ---
  FunctionId add_function(Function f);
  Function& function(FunctionId id) { return functions_[id.index()]; }
  const Function& function(FunctionId id) const { return functions_[id.index()]; }
  std::size_t function_count() const { return functions_.size(); }
  // The entry point: the function named "main"; invalid if there is none.
  FunctionId entry_point() const;

  // --- Registers ---
  RegisterId new_register(TypeId type, Precision precision = Precision::None);
  const RegisterInfo& reg(RegisterId id) const { return registers_[id.index()]; }
  RegisterInfo& reg(RegisterId id) { return registers_[id.index()]; }
  std::size_t register_count() const { return registers_.size(); }

  // --- Source locations ---
  std::uint32_t add_source_file(std::string path);
  const std::vector<std::string>& source_files() const { return source_files_; }
  SourceLocId add_location(SourceLocation loc);
  const SourceLocation& location(SourceLocId id) const { return locations_[id.index()]; }

  // Type of any value operand: a register's type, a constant's type, a
  // variable's pointer type. Invalid for functions and literals.
  TypeId type_of(Operand op) const;

  // Reserve table space ahead of building a large function.
  void reserve_registers(std::size_t n) { registers_.reserve(n); }

 private:
  ShaderInfo shader_;
  std::vector<Type> types_;
  std::unordered_multimap<std::size_t, TypeId> type_index_;
  std::vector<Constant> constants_;
  std::unordered_multimap<std::size_t, ConstantId> constant_index_;
  std::vector<Variable> variables_;
  std::vector<VariableId> globals_;
  std::vector<Function> functions_;
  std::vector<RegisterInfo> registers_;
  std::vector<std::string> source_files_;
  std::vector<SourceLocation> locations_;
};

}  // namespace sluice::ir
