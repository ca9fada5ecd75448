// Values, pointers, loads and stores. A pointer operand resolves to memory
// (a variable or access chain), a promoted variable (read and written
// through Ssa) or a swizzle of a vector in memory. Block memory keeps its
// own flavour of each aggregate type; loads convert to plain and stores from
// plain, with OpCopyLogical where SPIR-V has it (1.4) and member by member
// otherwise (bool becomes uint in blocks).
#include <fmt/format.h>

#include "ir/typing.h"
#include "output/spirv/function_emitter.h"

namespace sluice::spirv::detail {

std::uint32_t FunctionEmitter::op(spv::Op o, std::uint32_t type, std::initializer_list<std::uint32_t> args) {
  const std::uint32_t id = mc_.new_id();
  body_.op(o, {type, id}, std::span<const std::uint32_t>(args.begin(), args.size()));
  mc_.forbid_contraction(o, id);
  return id;
}

std::uint32_t FunctionEmitter::op(spv::Op o, std::uint32_t type, std::span<const std::uint32_t> args) {
  const std::uint32_t id = mc_.new_id();
  body_.op(o, {type, id}, args);
  mc_.forbid_contraction(o, id);
  return id;
}

std::uint32_t FunctionEmitter::glsl(GLSLstd450 inst, std::uint32_t type, std::initializer_list<std::uint32_t> args) {
  const std::uint32_t id = mc_.new_id();
  body_.op(spv::Op::OpExtInst, {type, id, mc_.glsl_std_450(), static_cast<std::uint32_t>(inst)},
           std::span<const std::uint32_t>(args.begin(), args.size()));
  return id;
}

std::uint32_t FunctionEmitter::extract(ir::TypeId result, std::uint32_t composite, std::uint32_t index) {
  return op(spv::Op::OpCompositeExtract, type_id(result), {composite, index});
}

std::uint32_t FunctionEmitter::construct(ir::TypeId result, std::span<const std::uint32_t> parts) {
  if (std::uint32_t folded = fold_constant(result, parts)) return folded;
  return op(spv::Op::OpCompositeConstruct, type_id(result), parts);
}

void FunctionEmitter::set_result(const ir::Instruction& inst, std::uint32_t id) {
  if (!inst.result.valid()) return;
  if (inst.result.index() >= mc_.reg_ids.size()) return mc_.fail("an instruction's result register does not exist");
  mc_.reg_ids[inst.result.index()] = id;
  relax_made(inst, id);
}

void FunctionEmitter::relax_made(const ir::Instruction& inst, std::uint32_t id) {
  // Only a value this instruction made takes its precision: not a constant
  // it folded to, nor a value it forwards (a promoted variable's load).
  if (!inst.result.valid() || inst.result.index() >= m_.register_count()) return;
  const ir::RegisterInfo& r = m_.reg(inst.result);
  if (id >= result_floor_ && !mc_.constant_info(id) && !mc_.is_undef(id, r.type)) mc_.relax(id, r.precision, r.type);
}

std::uint32_t FunctionEmitter::value(ir::Operand operand) {
  switch (operand.kind()) {
    case ir::Operand::Kind::Register: {
      const std::uint32_t r = operand.value();
      if (r >= mc_.reg_ids.size()) {
        mc_.fail(fmt::format("'{}': register r{} does not exist", f_.name.text, r));
        return 0;
      }
      if (const std::uint32_t* s = sampled_image_of_.find(r)) {
        // OpSampledImage must sit in the block of its use: make one per use.
        const SampledImage& si = sampled_images_[*s - 1];
        const std::uint32_t image = value(si.image), sampler = value(si.sampler);
        return op(spv::Op::OpSampledImage, type_id(m_.reg(ir::RegisterId(r)).type), {image, sampler});
      }
      if (swizzle_of_.find(r)) {
        mc_.fail(fmt::format("'{}': the swizzle pointer r{} is used as a value", f_.name.text, r));
        return 0;
      }
      if (mc_.reg_ids[r] == 0) {
        mc_.fail(fmt::format("'{}': register r{} is used where its definition does not reach", f_.name.text, r));
        return 0;
      }
      return mc_.reg_ids[r];
    }
    case ir::Operand::Kind::Constant: return mc_.constant(operand.as_constant());
    case ir::Operand::Kind::Variable: {
      const PointerRef p = pointer(operand);
      if (p.kind == PointerRef::Kind::Memory) return p.id;
      mc_.fail(fmt::format("'{}': variable v{} is used as a value", f_.name.text, operand.value()));
      return 0;
    }
    default:
      mc_.fail(fmt::format("'{}': a function or literal is used as a value", f_.name.text));
      return 0;
  }
}

FunctionEmitter::PointerRef FunctionEmitter::pointer(ir::Operand operand, bool materialize_chains) {
  PointerRef p;
  if (operand.is_variable()) {
    const ir::VariableId v = operand.as_variable();
    if (v.index() >= m_.variable_count()) {
      mc_.fail(fmt::format("variable v{} does not exist", v.index()));
      return p;
    }
    const ir::Type& t = m_.type(m_.variable(v).type);
    p.pointee = t.element;
    p.storage = t.storage;
    if (const std::uint32_t id = mc_.global_ids[v.index()]) {
      p.kind = PointerRef::Kind::Memory;
      p.id = id;
      p.flavour = mc_.global_flavours[v.index()];
      return p;
    }
    if (const Local* l = local(v)) {
      p.storage = ir::StorageClass::Function;
      if (l->ssa_index != kNone) {
        p.kind = PointerRef::Kind::Promoted;
        p.ssa_index = l->ssa_index;
      } else {
        p.kind = PointerRef::Kind::Memory;
        p.id = l->id;
      }
      return p;
    }
    mc_.fail(fmt::format("'{}' uses variable v{}, which is neither a global nor its own", f_.name.text, v.index()));
    return p;
  }
  if (operand.is_register() && operand.value() < m_.register_count()) {
    const std::uint32_t r = operand.value();
    const ir::TypeId t = m_.reg(ir::RegisterId(r)).type;
    if (!ir::is_pointer(m_, t)) {
      mc_.fail(fmt::format("'{}': register r{} is not a pointer", f_.name.text, r));
      return p;
    }
    p.pointee = m_.type(t).element;
    p.storage = m_.type(t).storage;
    p.flavour = mc_.reg_flavours[r];
    if (const std::uint32_t* s = swizzle_of_.find(r)) {
      p.kind = PointerRef::Kind::Swizzle;
      p.swizzle = *s - 1;
      return p;
    }
    p.kind = PointerRef::Kind::Memory;
    const Chain* chain = deferred_chain(operand);
    p.id = chain ? (materialize_chains ? materialize_reused(*chain) : 0) : value(operand);
    return p;
  }
  mc_.fail(fmt::format("'{}': an operand that should be a pointer is not one", f_.name.text));
  return p;
}

std::uint32_t FunctionEmitter::memory_pointer(ir::Operand operand) {
  const PointerRef p = pointer(operand);
  if (p.kind == PointerRef::Kind::Memory) return p.id;
  if (p.kind != PointerRef::Kind::Invalid)
    mc_.fail(fmt::format("'{}': this instruction needs a pointer into memory, not a swizzle or a promoted variable",
                         f_.name.text));
  return 0;
}

std::uint32_t FunctionEmitter::load(const PointerRef& p) {
  switch (p.kind) {
    case PointerRef::Kind::Memory: {
      const std::uint32_t v = op(spv::Op::OpLoad, mc_.type(p.pointee, p.flavour), {p.id});
      return is_laid_out(p.flavour) ? convert_flavour(v, p.pointee, p.flavour, kPlain) : v;
    }
    case PointerRef::Kind::Promoted: {
      const std::uint32_t v = ssa_->read(p.ssa_index);
      return v ? v : mc_.undef(p.pointee);
    }
    case PointerRef::Kind::Swizzle: {
      const Swizzle s = swizzles_[p.swizzle];
      const std::uint32_t whole = load(pointer(s.base));
      if (s.count == 1) return op(spv::Op::OpCompositeExtract, type_id(p.pointee), {whole, s.components[0]});
      const std::size_t at = body_.begin(spv::Op::OpVectorShuffle);
      const std::uint32_t id = mc_.new_id();
      for (std::uint32_t w : {type_id(p.pointee), id, whole, whole}) body_.push(w);
      for (std::uint32_t i = 0; i < s.count; ++i) body_.push(s.components[i]);
      body_.finish(at, spv::Op::OpVectorShuffle);
      return id;
    }
    case PointerRef::Kind::Invalid: break;
  }
  return 0;
}

void FunctionEmitter::store(const PointerRef& p, std::uint32_t value_id) {
  switch (p.kind) {
    case PointerRef::Kind::Memory:
      if (is_laid_out(p.flavour)) value_id = convert_flavour(value_id, p.pointee, kPlain, p.flavour);
      body_.op(spv::Op::OpStore, {p.id, value_id});
      return;
    case PointerRef::Kind::Promoted: ssa_->write(p.ssa_index, value_id); return;
    case PointerRef::Kind::Swizzle: {
      // Read the whole vector, shuffle the new components in, write it back.
      const Swizzle s = swizzles_[p.swizzle];
      const PointerRef base = pointer(s.base);
      const std::uint32_t whole = load(base);
      if (s.count == 1) {
        store(base, op(spv::Op::OpCompositeInsert, type_id(base.pointee), {value_id, whole, s.components[0]}));
        return;
      }
      const std::uint32_t n = ir::component_count(m_, base.pointee);
      std::uint32_t select[4] = {0, 1, 2, 3};
      for (std::uint32_t j = 0; j < s.count; ++j) select[s.components[j]] = n + j;
      const std::size_t at = body_.begin(spv::Op::OpVectorShuffle);
      const std::uint32_t id = mc_.new_id();
      for (std::uint32_t w : {type_id(base.pointee), id, whole, value_id}) body_.push(w);
      for (std::uint32_t i = 0; i < n; ++i) body_.push(select[i]);
      body_.finish(at, spv::Op::OpVectorShuffle);
      store(base, id);
      return;
    }
    case PointerRef::Kind::Invalid: return;
  }
}

std::uint32_t FunctionEmitter::convert_flavour(std::uint32_t v, ir::TypeId t, Flavour from, Flavour to) {
  const std::uint32_t from_type = mc_.type(t, from), to_type = mc_.type(t, to);
  if (from_type == to_type) return v;
  const ir::Type& ty = m_.type(t);
  if (mc_.features.copy_logical() && !mc_.layouts.facts(t).contains_bool)
    return op(spv::Op::OpCopyLogical, to_type, {v});
  switch (ty.kind) {
    case ir::TypeKind::Scalar:
    case ir::TypeKind::Vector: {
      // bool <-> uint: blocks cannot hold bool.
      const ir::TypeId uint_type = mc_.vector_of(ir::ScalarKind::Uint, ir::component_count(m_, t));
      if (is_laid_out(to))
        return op(spv::Op::OpSelect, to_type, {v, mc_.splat_constant(uint_type, 1), mc_.splat_constant(uint_type, 0)});
      return op(spv::Op::OpINotEqual, to_type, {v, mc_.splat_constant(uint_type, 0)});
    }
    case ir::TypeKind::Array: {
      std::vector<std::uint32_t> parts;
      for (std::uint32_t i = 0; i < ty.count; ++i) {
        const std::uint32_t e = op(spv::Op::OpCompositeExtract, mc_.type(ty.element, from), {v, i});
        parts.push_back(convert_flavour(e, ty.element, from, to));
      }
      return op(spv::Op::OpCompositeConstruct, to_type, parts);
    }
    case ir::TypeKind::Struct: {
      std::vector<std::uint32_t> parts;
      for (std::uint32_t i = 0; i < ty.members.size(); ++i) {
        const Flavour mf = mc_.layouts.member_flavour(t, from, i), mt = mc_.layouts.member_flavour(t, to, i);
        const std::uint32_t e = op(spv::Op::OpCompositeExtract, mc_.type(ty.members[i].type, mf), {v, i});
        parts.push_back(convert_flavour(e, ty.members[i].type, mf, mt));
      }
      return op(spv::Op::OpCompositeConstruct, to_type, parts);
    }
    default:
      mc_.fail(fmt::format("cannot copy a {} between memory layouts", ir::describe_type(m_, t)));
      return v;
  }
}

std::uint32_t FunctionEmitter::temporary_variable(ir::TypeId t) {
  const std::uint32_t id = mc_.new_id();
  vars_.op(spv::Op::OpVariable, {mc_.pointer_type(t, ir::StorageClass::Function, kPlain), id,
                                 static_cast<std::uint32_t>(spv::StorageClass::Function)});
  return id;
}

}  // namespace sluice::spirv::detail
