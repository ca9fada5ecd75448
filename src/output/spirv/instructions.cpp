// Instruction selection for the structural families: Access (OpAccessChain
// with constant indices for literals; swizzle pointers stay symbolic),
// Extract, Construct (constructors of constants fold into
// OpConstantComposite), Memory, Call (copy-in/copy-out through a Function
// temporary when an out argument is not a whole Function variable) and
// Alias. Arithmetic is in arithmetic.cpp, images and atomics in images.cpp.
#include <algorithm>

#include <fmt/format.h>

#include "ir/typing.h"
#include "output/spirv/function_emitter.h"

namespace sluice::spirv::detail {
namespace {

bool literal_at(const ir::Instruction& inst, std::size_t i) {
  return i < inst.operands.size() && inst.operands[i].is_literal();
}

}  // namespace

void FunctionEmitter::emit_instruction(const ir::Instruction& inst) {
  const ir::OpcodeInfo& info = ir::info(inst.opcode);
  result_floor_ = mc_.bound();
  if (inst.operands.size() < info.min_operands)
    return mc_.fail(fmt::format("'{}': {} has too few operands", f_.name.text, info.name));
  switch (info.family) {
    case ir::OpcodeFamily::Control:
      return mc_.fail(fmt::format("'{}': terminator {} in the middle of a block", f_.name.text, info.name));
    case ir::OpcodeFamily::Access: return emit_access(inst);
    case ir::OpcodeFamily::Extract: return emit_extract(inst);
    case ir::OpcodeFamily::Construct: return emit_construct(inst);
    case ir::OpcodeFamily::Memory:
      if (inst.opcode == ir::Opcode::Load) {
        std::vector<std::uint32_t> key =
            inst.result.valid() ? readonly_load_key(inst.operands[0], m_.reg(inst.result).precision)
                                : std::vector<std::uint32_t>{};
        if (!key.empty()) {
          if (const std::uint32_t id = reusable_load(key)) return set_result(inst, id);
          const std::uint32_t id = load(pointer(inst.operands[0]));
          set_result(inst, id);
          return remember_load(std::move(key), id);
        }
        const PointerRef p = pointer(inst.operands[0]);
        set_result(inst, load(p));
        // Image atomics need the image's pointer, not its value.
        if (p.kind == PointerRef::Kind::Memory && inst.result.valid() &&
            m_.type(p.pointee).kind == ir::TypeKind::Image)
          image_pointer_of_.set(inst.result.index(), p.id);
        return;
      }
      if (inst.opcode == ir::Opcode::Store) {
        const std::uint32_t v = value(inst.operands[1]);
        return store(pointer(inst.operands[0]), v);
      }
      if (inst.opcode == ir::Opcode::ArrayLength) {
        // OpArrayLength names the block and the member holding the runtime array.
        const std::uint32_t* field =
            inst.operands[0].is_register() ? struct_field_of_.find(inst.operands[0].value()) : nullptr;
        if (!field) return mc_.fail(fmt::format("'{}': ArrayLength needs a struct field pointer", f_.name.text));
        const auto [base, member] = struct_fields_[*field - 1];
        const std::uint32_t block = memory_pointer(base);
        if (!block) return;
        const std::uint32_t length = op(spv::Op::OpArrayLength, type_id(ir::predefined::kUint), {block, member});
        return set_result(inst, op(spv::Op::OpBitcast, type_id(ir::predefined::kInt), {length}));
      }
      return;
    case ir::OpcodeFamily::Call: return emit_call(inst);
    case ir::OpcodeFamily::Unary:
      if (ir::is_increment(inst.opcode)) return emit_increment(inst);
      return emit_unary(inst);
    case ir::OpcodeFamily::Binary: return emit_binary(inst);
    case ir::OpcodeFamily::BuiltIn: return emit_builtin(inst);
    case ir::OpcodeFamily::Texture: return emit_texture(inst);
    case ir::OpcodeFamily::Image: return emit_image(inst);
    case ir::OpcodeFamily::Atomic: return emit_atomic(inst);
    case ir::OpcodeFamily::Alias: {
      if (!inst.result.valid() || inst.result.index() >= m_.register_count()) return;
      const ir::Operand source = inst.operands[0];
      const std::uint32_t r = inst.result.index();
      if (source.is_register() && source.value() < m_.register_count()) {
        const std::uint32_t s = source.value();
        if (const std::uint32_t* sw = swizzle_of_.find(s)) swizzle_of_.set(r, *sw);
        if (const std::uint32_t* si = sampled_image_of_.find(s)) sampled_image_of_.set(r, *si);
        if (const std::uint32_t* sf = struct_field_of_.find(s)) struct_field_of_.set(r, *sf);
        mc_.reg_flavours[r] = mc_.reg_flavours[s];
        if (swizzle_of_.find(s) || sampled_image_of_.find(s)) return;
        return set_result(inst, value(source));
      }
      if (source.is_variable() && source.value() < m_.variable_count()) {
        const PointerRef p = pointer(source);
        mc_.reg_flavours[r] = p.flavour;
        return set_result(inst, memory_pointer(source));
      }
      return set_result(inst, value(source));
    }
  }
}

bool FunctionEmitter::is_vector_part_access(const ir::Instruction& inst) const {
  if (!inst.result.valid()) return false;
  if (inst.opcode == ir::Opcode::AccessVectorComponentMulti) return true;
  return inst.opcode == ir::Opcode::AccessVectorComponent && literal_at(inst, 1);
}

void FunctionEmitter::emit_access(const ir::Instruction& inst) {
  if (!inst.result.valid()) return;
  const std::uint32_t r = inst.result.index();
  // A deferred base (access_chains.cpp) is a pointer into memory whose
  // chain this access extends.
  const Chain* base_chain = deferred_chain(inst.operands[0]);
  const PointerRef base = pointer(inst.operands[0], /*materialize_chains=*/false);
  if (base.kind == PointerRef::Kind::Invalid) return;
  // A constant component of a promoted vector, directly or through a
  // swizzle of it, is a one-component swizzle: read with
  // OpCompositeExtract, written with OpCompositeInsert.
  const bool promoted_base =
      base.kind == PointerRef::Kind::Promoted ||
      (base.kind == PointerRef::Kind::Swizzle &&
       pointer(swizzles_[base.swizzle].base).kind == PointerRef::Kind::Promoted);
  if (promoted_base && inst.opcode == ir::Opcode::AccessVectorComponent && literal_at(inst, 1)) {
    const Swizzle* outer = base.kind == PointerRef::Kind::Swizzle ? &swizzles_[base.swizzle] : nullptr;
    const std::uint32_t c = inst.operands[1].value();
    if (!ir::is_vector(m_, base.pointee) || c >= (outer ? outer->count : ir::component_count(m_, base.pointee)))
      return mc_.fail("a vector component out of range");
    Swizzle s{};
    s.count = 1;
    s.base = outer ? outer->base : inst.operands[0];
    s.components[0] = outer ? outer->components[c] : c;
    swizzles_.push_back(s);
    swizzle_of_.set(r, static_cast<std::uint32_t>(swizzles_.size()));
    return;
  }
  if (base.kind == PointerRef::Kind::Promoted && inst.opcode != ir::Opcode::AccessVectorComponentMulti)
    return mc_.fail("an access into a promoted variable");
  if (inst.opcode == ir::Opcode::AccessVectorComponentMulti) {
    Swizzle s{};
    s.count = static_cast<std::uint32_t>(inst.operands.size() - 1);
    if (s.count < 1 || s.count > 4) return mc_.fail("a swizzle of more than four components");
    const Swizzle* outer = base.kind == PointerRef::Kind::Swizzle ? &swizzles_[base.swizzle] : nullptr;
    s.base = outer ? outer->base : inst.operands[0];
    const std::uint32_t size = outer ? outer->count : ir::component_count(m_, base.pointee);
    if (!ir::is_vector(m_, base.pointee)) return mc_.fail("a swizzle of something that is not a vector");
    for (std::uint32_t i = 0; i < s.count; ++i) {
      if (!literal_at(inst, i + 1)) return mc_.fail("swizzle components must be literals");
      const std::uint32_t c = inst.operands[i + 1].value();
      if (c >= size) return mc_.fail("swizzle component out of range");
      s.components[i] = outer ? outer->components[c] : c;
    }
    swizzles_.push_back(s);
    swizzle_of_.set(r, static_cast<std::uint32_t>(swizzles_.size()));
    mc_.reg_flavours[r] = base.flavour;
    return;
  }
  std::uint32_t base_id = base.id;
  std::uint32_t index = 0;
  Flavour flavour = base.flavour;
  const bool literal_index =
      inst.opcode == ir::Opcode::AccessVectorComponent || inst.opcode == ir::Opcode::AccessStructField;
  if (literal_index && !literal_at(inst, 1))
    return mc_.fail(fmt::format("{} needs a literal index", ir::name(inst.opcode)));
  if (base.kind == PointerRef::Kind::Swizzle) {
    // One component of a swizzle is one component of the vector under it.
    const Swizzle& s = swizzles_[base.swizzle];
    if (inst.opcode != ir::Opcode::AccessVectorComponent || inst.operands[1].value() >= s.count)
      return mc_.fail("only constant components of a swizzle pointer can be accessed");
    base_id = memory_pointer(s.base);
    index = mc_.int_constant(static_cast<std::int32_t>(s.components[inst.operands[1].value()]));
  } else if (literal_index) {
    index = mc_.int_constant(static_cast<std::int32_t>(inst.operands[1].value()));
    if (inst.opcode == ir::Opcode::AccessStructField) {
      if (m_.type(base.pointee).kind != ir::TypeKind::Struct || inst.operands[1].value() >= m_.type(base.pointee).members.size())
        return mc_.fail("AccessStructField on something that is not a struct with that field");
      flavour = mc_.layouts.member_flavour(base.pointee, base.flavour, inst.operands[1].value());
    }
  } else {
    index = value(inst.operands[1]);
  }
  mc_.reg_flavours[r] = flavour;
  if (inst.opcode == ir::Opcode::AccessStructField) {
    struct_fields_.emplace_back(inst.operands[0], inst.operands[1].value());
    struct_field_of_.set(r, static_cast<std::uint32_t>(struct_fields_.size()));
  }
  if (base_chain) {
    std::vector<std::uint32_t> indices = base_chain->indices;
    indices.push_back(index);
    return emit_chain(inst, base_chain->root, std::move(indices), flavour);
  }
  emit_chain(inst, base_id, {index}, flavour);
}

void FunctionEmitter::emit_extract(const ir::Instruction& inst) {
  if (!inst.result.valid()) return;
  const ir::TypeId result = m_.reg(inst.result).type;
  const std::uint32_t composite = value(inst.operands[0]);
  const ir::TypeId composite_type = type_of(inst.operands[0]);
  switch (inst.opcode) {
    case ir::Opcode::ExtractVectorComponent:
    case ir::Opcode::ExtractStructField:
      if (!literal_at(inst, 1)) return mc_.fail(fmt::format("{} needs a literal index", ir::name(inst.opcode)));
      return set_result(inst, extract(result, composite, inst.operands[1].value()));
    case ir::Opcode::ExtractVectorComponentMulti: {
      std::vector<std::uint32_t> args{composite, composite};
      for (std::size_t i = 1; i < inst.operands.size(); ++i) {
        if (!literal_at(inst, i)) return mc_.fail("swizzle components must be literals");
        args.push_back(inst.operands[i].value());
      }
      return set_result(inst, op(spv::Op::OpVectorShuffle, type_id(result), args));
    }
    default: break;
  }
  // Dynamic indices: a constant one is a literal; a vector has
  // OpVectorExtractDynamic; matrices and arrays go through a temporary.
  const ir::Operand index = inst.operands[1];
  if (index.is_constant() && index.value() < m_.constant_count() && !m_.constant(index.as_constant()).spec_id) {
    const std::uint32_t i = m_.constant(index.as_constant()).bits;
    const ir::Type& ct = type_at(composite_type);
    if ((ct.kind == ir::TypeKind::Vector || ct.kind == ir::TypeKind::Matrix || ct.kind == ir::TypeKind::Array) &&
        i < ct.count)
      return set_result(inst, extract(result, composite, i));
  }
  const std::uint32_t index_id = value(index);
  if (inst.opcode == ir::Opcode::ExtractVectorComponentDynamic)
    return set_result(inst, op(spv::Op::OpVectorExtractDynamic, type_id(result), {composite, index_id}));
  const std::uint32_t temp = temporary_variable(composite_type);
  body_.op(spv::Op::OpStore, {temp, composite});
  const std::uint32_t element =
      op(spv::Op::OpAccessChain, mc_.pointer_type(result, ir::StorageClass::Function, kPlain), {temp, index_id});
  set_result(inst, op(spv::Op::OpLoad, type_id(result), {element}));
}

std::uint32_t FunctionEmitter::fold_constant(ir::TypeId result, std::span<const std::uint32_t> parts) {
  const ir::Type& rt = m_.type(result);
  // Flattened scalar components, for vectors and matrices built from pieces.
  std::vector<std::uint32_t> scalars;
  for (std::uint32_t part : parts) {
    const ConstantInfo* info = mc_.constant_info(part);
    if (!info) return 0;
    if (rt.kind == ir::TypeKind::Vector || rt.kind == ir::TypeKind::Matrix) {
      const ir::Type& pt = m_.type(info->type);
      if (pt.kind == ir::TypeKind::Scalar) scalars.push_back(part);
      else if (pt.kind == ir::TypeKind::Vector) scalars.insert(scalars.end(), info->components.begin(), info->components.end());
      else return 0;
    }
  }
  if (rt.kind == ir::TypeKind::Vector) return scalars.size() == rt.count ? mc_.composite_constant(result, scalars) : 0;
  if (rt.kind == ir::TypeKind::Matrix) {
    const std::uint32_t rows = m_.type(rt.element).count;
    if (scalars.size() != rows * rt.count) return 0;
    std::vector<std::uint32_t> columns;
    for (std::uint32_t c = 0; c < rt.count; ++c)
      columns.push_back(mc_.composite_constant(rt.element, std::span(scalars).subspan(c * rows, rows)));
    return mc_.composite_constant(result, columns);
  }
  if (rt.kind == ir::TypeKind::Struct || rt.kind == ir::TypeKind::Array) return mc_.composite_constant(result, parts);
  return 0;
}

void FunctionEmitter::emit_construct(const ir::Instruction& inst) {
  if (!inst.result.valid()) return;
  const ir::TypeId result = m_.reg(inst.result).type;
  const ir::Type& rt = m_.type(result);
  if (inst.opcode == ir::Opcode::ConstructSampledImage) {
    // Deferred: OpSampledImage is made right before each use (value()).
    sampled_images_.push_back({inst.operands[0], inst.operands[1]});
    sampled_image_of_.set(inst.result.index(), static_cast<std::uint32_t>(sampled_images_.size()));
    return;
  }
  std::vector<std::uint32_t> parts;
  parts.reserve(inst.operands.size());
  for (ir::Operand o : inst.operands) parts.push_back(value(o));
  switch (inst.opcode) {
    case ir::Opcode::ConstructScalarFromScalar:
    case ir::Opcode::ConstructVectorFromVector:
      return set_result(inst, convert(parts[0], type_of(inst.operands[0]), result));
    case ir::Opcode::ConstructVectorFromScalar: return set_result(inst, splat(result, parts[0]));
    case ir::Opcode::Bitcast: return set_result(inst, op(spv::Op::OpBitcast, type_id(result), {parts[0]}));
    case ir::Opcode::ConstructMatrixFromScalar:
    case ir::Opcode::ConstructMatrixFromMatrix: {
      // Diagonal from a scalar; from a matrix, the overlap and the identity elsewhere.
      const bool from_scalar = inst.opcode == ir::Opcode::ConstructMatrixFromScalar;
      const ir::Type& st = type_at(type_of(inst.operands[0]));
      const std::uint32_t rows = type_at(rt.element).count;
      const std::uint32_t src_cols = from_scalar ? 0 : st.count;
      const std::uint32_t src_rows = from_scalar ? 0 : type_at(st.element).count;
      std::vector<std::uint32_t> columns;
      for (std::uint32_t c = 0; c < rt.count; ++c) {
        if (c < src_cols && src_rows == rows) {
          columns.push_back(extract(rt.element, parts[0], c));
          continue;
        }
        std::vector<std::uint32_t> column;
        for (std::uint32_t row = 0; row < rows; ++row) {
          if (c < src_cols && row < src_rows)
            column.push_back(op(spv::Op::OpCompositeExtract, type_id(type_at(rt.element).element), {parts[0], c, row}));
          else if (from_scalar && row == c)
            column.push_back(parts[0]);
          else
            column.push_back(mc_.splat_number(type_at(rt.element).element, row == c ? 1 : 0));
        }
        columns.push_back(construct(rt.element, column));
      }
      return set_result(inst, construct(result, columns));
    }
    case ir::Opcode::ConstructVectorFromMultiple:
      if (parts.size() == 1 && type_of(inst.operands[0]) == result) return set_result(inst, parts[0]);
      return set_result(inst, construct(result, parts));
    case ir::Opcode::ConstructMatrixFromMultiple: {
      if (std::uint32_t folded = fold_constant(result, parts)) return set_result(inst, folded);
      // Columns from the flattened components; whole column vectors are kept.
      const std::uint32_t rows = std::max(1u, type_at(rt.element).count);
      std::vector<std::uint32_t> columns, pending;
      for (std::size_t i = 0; i < parts.size(); ++i) {
        const ir::TypeId pt = type_of(inst.operands[i]);
        if (pending.empty() && pt == rt.element) {
          columns.push_back(parts[i]);
          continue;
        }
        if (ir::is_vector(m_, pt)) {
          for (std::uint32_t k = 0; k < ir::component_count(m_, pt); ++k)
            pending.push_back(extract(ir::predefined::kFloat, parts[i], k));
        } else {
          pending.push_back(parts[i]);
        }
        while (pending.size() >= rows) {
          columns.push_back(construct(rt.element, std::span(pending).first(rows)));
          pending.erase(pending.begin(), pending.begin() + rows);
        }
      }
      return set_result(inst, construct(result, columns));
    }
    case ir::Opcode::ConstructStruct:
    case ir::Opcode::ConstructArray: return set_result(inst, construct(result, parts));
    default: return mc_.fail(fmt::format("{} is not a constructor", ir::name(inst.opcode)));
  }
}

void FunctionEmitter::emit_call(const ir::Instruction& inst) {
  if (!inst.operands[0].is_function() || inst.operands[0].value() >= m_.function_count())
    return mc_.fail(fmt::format("'{}': Call needs a function", f_.name.text));
  const ir::FunctionId callee_id = inst.operands[0].as_function();
  const ir::Function& callee = m_.function(callee_id);
  if (inst.operands.size() != callee.params.size() + 1)
    return mc_.fail(fmt::format("'{}': call to '{}' with the wrong number of arguments", f_.name.text, callee.name.text));
  struct CopyBack {
    std::uint32_t temp;
    ir::TypeId type;
    ir::Operand target;
  };
  std::vector<CopyBack> copy_backs;
  std::vector<std::uint32_t> args;
  for (std::size_t i = 0; i < callee.params.size(); ++i) {
    const ir::Operand arg = inst.operands[i + 1];
    const ir::FunctionParam& param = callee.params[i];
    if (param.direction == ir::ParamDirection::In) {
      args.push_back(value(arg));
      continue;
    }
    // A pointer argument must be a whole Function variable (a memory object
    // declaration); anything else goes through a temporary.
    if (arg.is_variable()) {
      const Local* l = local(arg.as_variable());
      if (l && l->ssa_index == kNone && l->id != 0) {
        args.push_back(l->id);
        continue;
      }
    }
    const ir::TypeId type = ir::pointee(m_, m_.variable(param.variable).type);
    const std::uint32_t temp = temporary_variable(type);
    if (param.direction == ir::ParamDirection::InOut) body_.op(spv::Op::OpStore, {temp, load(pointer(arg))});
    args.push_back(temp);
    copy_backs.push_back({temp, type, arg});
  }
  args.insert(args.begin(), mc_.function_id(callee_id));
  const std::uint32_t id = op(spv::Op::OpFunctionCall, type_id(callee.return_type), std::span<const std::uint32_t>(args));
  for (const CopyBack& c : copy_backs) store(pointer(c.target), op(spv::Op::OpLoad, type_id(c.type), {c.temp}));
  set_result(inst, id);
}

void FunctionEmitter::emit_increment(const ir::Instruction& inst) {
  const PointerRef p = pointer(inst.operands[0]);
  if (p.kind == PointerRef::Kind::Invalid) return;
  const ir::TypeId t = p.pointee;
  const std::uint32_t old_value = load(p);
  const auto kind = ir::component_kind(m_, t);
  if (!kind || *kind == ir::ScalarKind::Bool) return mc_.fail("increment of a value that is not numeric");
  const bool up = inst.opcode == ir::Opcode::PrefixIncrement || inst.opcode == ir::Opcode::PostfixIncrement;
  const std::uint32_t new_value =
      arith(up ? ir::Opcode::Add : ir::Opcode::Sub, t, old_value, mc_.splat_number(t, 1));
  store(p, new_value);
  relax_made(inst, old_value);  // glslang decorates the load and the add alike
  relax_made(inst, new_value);
  const bool prefix = inst.opcode == ir::Opcode::PrefixIncrement || inst.opcode == ir::Opcode::PrefixDecrement;
  set_result(inst, prefix ? new_value : old_value);
}

}  // namespace sluice::spirv::detail
