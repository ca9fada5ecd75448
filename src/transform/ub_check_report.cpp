// Where the ub-check pass writes its findings (docs/ub-check.md, "Buffer
// layout"): a std430 storage block
//
//   layout(set = S, binding = B, std430) buffer SluiceUbFindings {
//     uint found;                 // byte 0: every report, also past capacity
//     uvec4 records[capacity];    // byte 16 + 16 i: check, location, x, y
//   };
//
// and one function every guard calls:
//
//   void sluice_ub_report(bool fired, uint check, uint location) {
//     if (fired) {
//       uint i = atomicAdd(found, 1u);
//       if (i < capacity) records[i] = uvec4(check, location, x, y);
//     }
//   }
//
// (x, y) names the invocation: gl_FragCoord.xy truncated (fragment),
// gl_GlobalInvocationID.xy (compute), gl_VertexIndex and gl_InstanceIndex
// (vertex); other stages write 0xffffffff. The built-in input is the
// shader's own variable when it declares one, else a new one.
//
// Algorithm: built once per module with the IR builder (ir/builder.h),
// the fired test inside the callee so that each guard is one Call and no
// block surgery at the guarded instruction; a ControlBarrier never moves
// into divergent control flow this way. Constant time.
#include <algorithm>

#include <fmt/format.h>

#include "ir/builder.h"
#include "ir/typing.h"
#include "transform/ub_check_report.h"

namespace sluice::transform::ub {

using namespace ir;
namespace pre = ir::predefined;

namespace {

bool is_resource(const Variable& v, const Type& pointer) {
  switch (pointer.storage) {
    case StorageClass::Uniform:
    case StorageClass::StorageBuffer:
    case StorageClass::UniformConstant: return true;
    default: return v.decorations.binding.has_value() || v.decorations.set.has_value();
  }
}

// The shader's own input built-in `name` of type `type`, or a new one.
VariableId built_in_input(Module& m, const char* name, TypeId type) {
  for (VariableId g : m.globals()) {
    const Variable& v = m.variable(g);
    if (v.decorations.built_in == name && m.type(v.type).storage == StorageClass::Input) return g;
  }
  Decorations d;
  d.built_in = name;
  Builder b(m);
  return b.add_global(Name{fmt::format("sluice_ub_{}", name), NameSource::Internal}, type, StorageClass::Input,
                      Precision::None, d);
}

// The invocation's (x, y) as two uints, emitted at the builder's insertion point.
Result<std::pair<Operand, Operand>> invocation(Module& m, Builder& b) {
  const Operand none(m.uint_constant(kUbNoLocation));
  const auto component = [&](RegisterId vec, std::uint32_t i) {
    return b.emit(Opcode::ExtractVectorComponent, {Operand(vec), Operand::literal(i)});
  };
  switch (m.shader().stage) {
    case ShaderStage::Fragment: {
      const VariableId coord = built_in_input(m, "FragCoord", pre::kVec4);
      auto v = b.load(Operand(coord));
      if (!v) return v.failure();
      Operand xy[2];
      for (std::uint32_t i = 0; i < 2; ++i) {
        auto c = component(*v, i);
        if (!c) return c.failure();
        auto u = b.construct(Opcode::ConstructScalarFromScalar, pre::kUint, {Operand(*c)});
        if (!u) return u.failure();
        xy[i] = Operand(*u);
      }
      return std::pair{xy[0], xy[1]};
    }
    case ShaderStage::Compute: {
      const VariableId id = built_in_input(m, "GlobalInvocationId", pre::kUVec3);
      auto v = b.load(Operand(id));
      if (!v) return v.failure();
      auto x = component(*v, 0);
      if (!x) return x.failure();
      auto y = component(*v, 1);
      if (!y) return y.failure();
      return std::pair{Operand(*x), Operand(*y)};
    }
    case ShaderStage::Vertex: {
      Operand xy[2];
      const char* names[2] = {"VertexIndex", "InstanceIndex"};
      for (std::uint32_t i = 0; i < 2; ++i) {
        auto v = b.load(Operand(built_in_input(m, names[i], pre::kInt)));
        if (!v) return v.failure();
        auto u = b.construct(Opcode::Bitcast, pre::kUint, {Operand(*v)});
        if (!u) return u.failure();
        xy[i] = Operand(*u);
      }
      return std::pair{xy[0], xy[1]};
    }
    default: return std::pair{none, none};
  }
}

}  // namespace

Result<UbCheckMap> choose_binding(const Module& m, const UbCheckOptions& options) {
  if (options.capacity == 0 || options.capacity > (1u << 24))
    return Error{fmt::format("--ub-capacity must be between 1 and {} records, not {}", 1u << 24, options.capacity)};
  std::optional<std::uint32_t> highest_set;
  bool clash = false;
  const std::uint32_t want_set = options.set.value_or(0);
  const std::uint32_t want_binding = options.binding.value_or(0);
  for (VariableId g : m.globals()) {
    const Variable& v = m.variable(g);
    if (!is_resource(v, m.type(v.type))) continue;
    const std::uint32_t set = v.decorations.set.value_or(0);
    highest_set = std::max(highest_set.value_or(0), set);
    if (set == want_set && v.decorations.binding.value_or(0) == want_binding) clash = true;
  }
  UbCheckMap map;
  map.capacity = options.capacity;
  map.binding = want_binding;
  if (options.set) {
    if (clash)
      return Error{fmt::format("the ub-check findings buffer cannot take set {} binding {}: the shader uses it",
                               want_set, want_binding)};
    map.set = want_set;
  } else {
    map.set = highest_set ? *highest_set + 1 : 0;
  }
  return map;
}

Result<Reporter> add_reporter(Module& m, const UbCheckMap& where) {
  Reporter out;
  // The block: { uint found; uvec4 records[capacity]; }, std430.
  const TypeId records = m.array_type(pre::kUVec4, where.capacity);
  std::vector<StructMember> members(2);
  members[0].name = "found";
  members[0].type = pre::kUint;
  members[0].offset = 0;
  members[1].name = "records";
  members[1].type = records;
  members[1].offset = kUbHeaderBytes;
  const TypeId block = m.intern(Type::make_struct("SluiceUbFindings", std::move(members), true, BlockLayout::Std430));
  Decorations d;
  d.set = where.set;
  d.binding = where.binding;
  Builder b(m);
  out.buffer = b.add_global(Name{"sluice_ub_findings", NameSource::Internal}, block, StorageClass::StorageBuffer,
                            Precision::None, d);

  out.function = b.begin_function(Name{"sluice_ub_report", NameSource::Internal}, pre::kVoid);
  const VariableId fired = b.add_parameter(out.function, Name{"fired", NameSource::Internal}, pre::kBool,
                                           ParamDirection::In);
  const VariableId check = b.add_parameter(out.function, Name{"check", NameSource::Internal}, pre::kUint,
                                           ParamDirection::In);
  const VariableId location = b.add_parameter(out.function, Name{"location", NameSource::Internal}, pre::kUint,
                                              ParamDirection::In);
  auto fired_value = b.load(Operand(fired));
  if (!fired_value) return fired_value.failure();
  auto outer = b.branch_if(Operand(*fired_value), false);
  if (!outer) return outer.failure();
  b.set_block(outer->true_block);
  auto found = b.emit(Opcode::AccessStructField, {Operand(out.buffer), Operand::literal(0)});
  if (!found) return found.failure();
  auto index = b.emit(Opcode::AtomicAdd, {Operand(*found), Operand(m.uint_constant(1))});
  if (!index) return index.failure();
  auto room = b.emit(Opcode::LessThan, {Operand(*index), Operand(m.uint_constant(where.capacity))});
  if (!room) return room.failure();
  auto inner = b.branch_if(Operand(*room), false);
  if (!inner) return inner.failure();
  b.set_block(inner->true_block);
  auto xy = invocation(m, b);
  if (!xy) return xy.failure();
  auto check_value = b.load(Operand(check));
  if (!check_value) return check_value.failure();
  auto location_value = b.load(Operand(location));
  if (!location_value) return location_value.failure();
  const Operand parts[] = {Operand(*check_value), Operand(*location_value), xy->first, xy->second};
  auto record = b.construct(Opcode::ConstructVectorFromMultiple, pre::kUVec4, parts);
  if (!record) return record.failure();
  auto array = b.emit(Opcode::AccessStructField, {Operand(out.buffer), Operand::literal(1)});
  if (!array) return array.failure();
  auto slot = b.emit(Opcode::AccessArrayElement, {Operand(*array), Operand(*index)});
  if (!slot) return slot.failure();
  if (auto s = b.store(Operand(*slot), Operand(*record)); !s) return s.failure();
  if (auto t = b.terminate(Opcode::Merge); !t) return t.failure();
  b.set_block(inner->merge);
  if (auto t = b.terminate(Opcode::Merge); !t) return t.failure();
  b.set_block(outer->merge);
  if (auto t = b.terminate(Opcode::Return); !t) return t.failure();
  return out;
}

ConstantId splat(Module& m, TypeId t, double value) {
  const TypeId scalar = component_type(m, t);
  if (!scalar.valid()) return {};
  const Type& s = m.type(scalar);
  ConstantId c;
  switch (s.scalar) {
    case ScalarKind::Float:
      c = s.width == 64 ? m.double_constant(value) : m.float_constant(static_cast<float>(value));
      break;
    case ScalarKind::Int: c = m.int_constant(static_cast<std::int32_t>(value)); break;
    case ScalarKind::Uint: c = m.uint_constant(static_cast<std::uint32_t>(value)); break;
    case ScalarKind::Bool: c = m.bool_constant(value != 0); break;
  }
  if (is_scalar(m, t)) return c;
  if (!is_vector(m, t)) return {};
  const std::vector<ConstantId> components(m.type(t).count, c);
  return m.composite_constant(t, components);
}

}  // namespace sluice::transform::ub
