#include "ir/module.h"

#include <bit>
#include <cassert>

namespace sluice::ir {

const char* to_string(ShaderStage s) {
  switch (s) {
    case ShaderStage::Vertex: return "Vertex";
    case ShaderStage::Fragment: return "Fragment";
    case ShaderStage::Compute: return "Compute";
    case ShaderStage::Geometry: return "Geometry";
    case ShaderStage::TessControl: return "TessControl";
    case ShaderStage::TessEvaluation: return "TessEvaluation";
  }
  return "?";
}

const char* to_string(Primitive p) {
  switch (p) {
    case Primitive::None: return "none";
    case Primitive::Points: return "points";
    case Primitive::Lines: return "lines";
    case Primitive::LinesAdjacency: return "lines_adjacency";
    case Primitive::Triangles: return "triangles";
    case Primitive::TrianglesAdjacency: return "triangles_adjacency";
    case Primitive::LineStrip: return "line_strip";
    case Primitive::TriangleStrip: return "triangle_strip";
    case Primitive::Quads: return "quads";
    case Primitive::Isolines: return "isolines";
  }
  return "?";
}

const char* to_string(TessSpacing s) {
  switch (s) {
    case TessSpacing::None: return "none";
    case TessSpacing::Equal: return "equal_spacing";
    case TessSpacing::FractionalEven: return "fractional_even_spacing";
    case TessSpacing::FractionalOdd: return "fractional_odd_spacing";
  }
  return "?";
}

const char* to_string(VertexOrder o) {
  switch (o) {
    case VertexOrder::None: return "none";
    case VertexOrder::Cw: return "cw";
    case VertexOrder::Ccw: return "ccw";
  }
  return "?";
}

Module::Module(ShaderStage stage) {
  shader_.stage = stage;
  // The order here defines the ids in predefined.h.
  intern(Type::make_void());
  const ScalarKind scalars[] = {ScalarKind::Float, ScalarKind::Int, ScalarKind::Uint, ScalarKind::Bool};
  for (auto s : scalars) intern(Type::make_scalar(s));
  for (auto s : scalars)
    for (std::uint32_t n = 2; n <= 4; ++n) intern(Type::make_vector(scalar_type(s), n));
  for (std::uint32_t c = 2; c <= 4; ++c)
    for (std::uint32_t r = 2; r <= 4; ++r) intern(Type::make_matrix(vector_type(ScalarKind::Float, r), c));
  assert(types_.size() == predefined::kTypeCount);

  bool_constant(false);
  bool_constant(true);
  float_constant(0.0f);
  float_constant(1.0f);
  int_constant(0);
  int_constant(1);
  uint_constant(0);
  uint_constant(1);
  assert(constants_.size() == predefined::kConstantCount);
}

std::optional<TypeId> Module::find_type(const Type& t) const {
  auto [lo, hi] = type_index_.equal_range(hash_value(t));
  for (auto it = lo; it != hi; ++it)
    if (types_[it->second.index()] == t) return it->second;
  return std::nullopt;
}

TypeId Module::intern(const Type& t) {
  if (const auto found = find_type(t)) return *found;
  const std::size_t h = hash_value(t);
  TypeId id(static_cast<std::uint32_t>(types_.size()));
  types_.push_back(t);
  type_index_.emplace(h, id);
  return id;
}

TypeId Module::scalar_type(ScalarKind s) {
  switch (s) {
    case ScalarKind::Float: return predefined::kFloat;
    case ScalarKind::Int: return predefined::kInt;
    case ScalarKind::Uint: return predefined::kUint;
    case ScalarKind::Bool: return predefined::kBool;
  }
  return {};
}

TypeId Module::vector_type(ScalarKind s, std::uint32_t n) {
  if (n == 1) return scalar_type(s);
  return intern(Type::make_vector(scalar_type(s), n));
}

TypeId Module::matrix_type(std::uint32_t columns, std::uint32_t rows) {
  return intern(Type::make_matrix(vector_type(ScalarKind::Float, rows), columns));
}

TypeId Module::double_type(std::uint32_t n) {
  const TypeId scalar = intern(Type::make_double());
  return n == 1 ? scalar : intern(Type::make_vector(scalar, n));
}

TypeId Module::double_matrix_type(std::uint32_t columns, std::uint32_t rows) {
  return intern(Type::make_matrix(double_type(rows), columns));
}

ConstantId Module::intern(const Constant& c) {
  const std::size_t h = hash_value(c);
  auto [lo, hi] = constant_index_.equal_range(h);
  for (auto it = lo; it != hi; ++it)
    if (constants_[it->second.index()] == c) return it->second;
  ConstantId id(static_cast<std::uint32_t>(constants_.size()));
  constants_.push_back(c);
  constant_index_.emplace(h, id);
  return id;
}

ConstantId Module::float_constant(float v) {
  return intern(Constant{predefined::kFloat, std::bit_cast<std::uint32_t>(v), {}, {}});
}
ConstantId Module::double_constant(double v) {
  const auto bits = std::bit_cast<std::uint64_t>(v);
  Constant c{double_type(), static_cast<std::uint32_t>(bits), {}, {}};
  c.high_bits = static_cast<std::uint32_t>(bits >> 32);
  return intern(c);
}
ConstantId Module::int_constant(std::int32_t v) {
  return intern(Constant{predefined::kInt, static_cast<std::uint32_t>(v), {}, {}});
}
ConstantId Module::uint_constant(std::uint32_t v) { return intern(Constant{predefined::kUint, v, {}, {}}); }
ConstantId Module::bool_constant(bool v) { return intern(Constant{predefined::kBool, v ? 1u : 0u, {}, {}}); }

ConstantId Module::composite_constant(TypeId type, std::span<const ConstantId> components) {
  return intern(Constant{type, 0, {components.begin(), components.end()}, {}});
}

VariableId Module::add_variable(Variable v) {
  variables_.push_back(std::move(v));
  return VariableId(static_cast<std::uint32_t>(variables_.size() - 1));
}

FunctionId Module::add_function(Function f) {
  functions_.push_back(std::move(f));
  return FunctionId(static_cast<std::uint32_t>(functions_.size() - 1));
}

FunctionId Module::entry_point() const {
  for (std::size_t i = 0; i < functions_.size(); ++i)
    if (functions_[i].name.text == "main") return FunctionId(static_cast<std::uint32_t>(i));
  return {};
}

RegisterId Module::new_register(TypeId type, Precision precision) {
  registers_.push_back(RegisterInfo{type, precision});
  return RegisterId(static_cast<std::uint32_t>(registers_.size() - 1));
}

std::uint32_t Module::add_source_file(std::string path) {
  for (std::size_t i = 0; i < source_files_.size(); ++i)
    if (source_files_[i] == path) return static_cast<std::uint32_t>(i);
  source_files_.push_back(std::move(path));
  return static_cast<std::uint32_t>(source_files_.size() - 1);
}

SourceLocId Module::add_location(SourceLocation loc) {
  // Consecutive instructions usually share a location; reuse the last entry.
  if (!locations_.empty() && locations_.back() == loc)
    return SourceLocId(static_cast<std::uint32_t>(locations_.size() - 1));
  locations_.push_back(loc);
  return SourceLocId(static_cast<std::uint32_t>(locations_.size() - 1));
}

TypeId Module::type_of(Operand op) const {
  switch (op.kind()) {
    case Operand::Kind::Register:
      return op.value() < registers_.size() ? registers_[op.value()].type : TypeId{};
    case Operand::Kind::Constant:
      return op.value() < constants_.size() ? constants_[op.value()].type : TypeId{};
    case Operand::Kind::Variable:
      return op.value() < variables_.size() ? variables_[op.value()].type : TypeId{};
    case Operand::Kind::Function:
    case Operand::Kind::Literal:
      return {};
  }
  return {};
}

}  // namespace sluice::ir
