// SPIR-V instructions inside a block into IR instructions.
//
// SPIR-V names signedness in the opcode (OpSDiv, OpULessThan,
// OpShiftRightArithmetic) and lets integer operands of either signedness
// meet; the IR names it in the operand types. So operands are first
// converted to the signedness the opcode asks for (int <-> uint keeps the
// bits, GLSL's int()/uint()), and the result back to the SPIR-V result type
// (fit). Opcodes without an IR counterpart are spelled with IR ones:
// OpSRem as a - (a / b) * b, OpFRem as a - b * trunc(a / b),
// OpCompositeInsert and OpVectorShuffle as extracts and a constructor, the
// carry/extended multiplications through a temporary (the IR's forms write
// a pointer). Ids used where their register is not visible come back from
// their spill variable, or are made again (pointers, images).
#include <fmt/format.h>

#include "frontend/spirv/reader_internal.h"
#include "ir/constant_index.h"
#include "ir/texture.h"
#include "ir/typing.h"

namespace sluice::spirv_in::detail {
namespace {

using Kind = IdValue::Kind;
using O = ir::Opcode;
using spv::Op;

bool storable(const ir::Module& m, ir::TypeId t) {
  switch (m.type(t).kind) {
    case ir::TypeKind::Pointer:
    case ir::TypeKind::Image:
    case ir::TypeKind::Sampler:
    case ir::TypeKind::SampledImage:
    case ir::TypeKind::Void:
    case ir::TypeKind::UnsizedArray: return false;
    default: return true;
  }
}

}  // namespace

void Reader::define(Id id, ir::RegisterId r) {
  // An instruction the Builder refused has no register; its error is
  // reported where it was emitted.
  if (!r.valid() || r.index() >= m_.register_count()) {
    if (!failed()) fail(fmt::format("%{} has no value", id));
    return;
  }
  ids_[id] = IdValue{Kind::Register, r.index()};
  if (id < spill_cross_.size() && spill_cross_[id] && storable(m_, m_.reg(r).type)) {
    if (!spill_[id].valid()) spill_[id] = local(m_.reg(r).type, fmt::format("x{}", id), m_.reg(r).precision);
    (void)b_.store(spill_[id], r);
  }
}

void Reader::set(const Instruction& inst, ir::Operand v) {
  if (failed() || !inst.result_id) return;
  if (v.is_register()) return define(inst.result_id, v.as_register());
  if (v.is_constant()) ids_[inst.result_id] = IdValue{Kind::Constant, v.value()};
  else if (v.is_variable()) ids_[inst.result_id] = IdValue{Kind::Variable, v.value()};
}

ir::Operand Reader::value(Id id) {
  if (id >= ids_.size()) {
    fail(fmt::format("%{} is out of range", id));
    return m_.bool_constant(false);
  }
  const IdValue v = ids_[id];
  switch (v.kind) {
    case Kind::Constant: return ir::ConstantId(v.index);
    case Kind::Variable: return ir::VariableId(v.index);
    case Kind::Register: {
      const ir::RegisterId r(v.index);
      if (v.index < visible_.size() && visible_[v.index]) return r;
      if (spill_[id].valid()) {
        auto l = b_.load(spill_[id]);
        if (!l) {
          fail(l.error());
          return r;
        }
        scope_push(*l);
        ids_[id] = IdValue{Kind::Register, l->index()};
        return *l;
      }
      // A pointer or opaque value: made again where it is used.
      const Instruction* d = sm_.definition(id);
      if (!d || remat_depth_ > 64) {
        fail(fmt::format("{} is used where its definition does not dominate", sm_.describe(id)));
        return r;
      }
      ++remat_depth_;
      instruction(*d);
      --remat_depth_;
      if (ids_[id].kind == Kind::Register && ids_[id].index < visible_.size() && visible_[ids_[id].index])
        return ir::RegisterId(ids_[id].index);
      fail(fmt::format("{} is used where its definition does not dominate", sm_.describe(id)));
      return r;
    }
    case Kind::SpecOp: {
      // An OpSpecConstantOp as the instruction it names, here.
      const Instruction& sc = sm_.instructions[v.index];
      Instruction fake;
      fake.opcode = static_cast<spv::Op>(in(sc, 0));
      fake.type_id = sc.type_id;
      fake.result_id = sc.result_id;
      fake.words = {sc.type_id, sc.result_id};
      fake.operands = {Operand{OperandClass::TypeId, 0, 0, 1}, Operand{OperandClass::ResultId, 0, 1, 1}};
      for (std::size_t k = 1; k < in_count(sc); ++k) {
        fake.operands.push_back(Operand{OperandClass::IdRef, 0, static_cast<std::uint16_t>(fake.words.size()), 1});
        fake.words.push_back(in(sc, k));
      }
      if (remat_depth_ > 64) {
        fail(sc, "specialization constant expressions nested over 64 deep");
        return m_.bool_constant(false);
      }
      ++remat_depth_;
      instruction(fake);
      --remat_depth_;
      const IdValue made = ids_[id];
      ids_[id] = v;
      if (made.kind == Kind::Register) return ir::RegisterId(made.index);
      if (made.kind == Kind::Constant) return ir::ConstantId(made.index);
      fail(sc, "unsupported specialization constant operation");
      return m_.bool_constant(false);
    }
    default: break;
  }
  const Instruction* d = sm_.definition(id);
  if (d && ids_[id].kind == Kind::None && def_block_[id] != kNone)
    fail(*d, "used before the block defining it is read (the control flow is not structured)");
  else
    fail(fmt::format("{} is not a value the IR can hold here", sm_.describe(id)));
  return m_.bool_constant(false);
}

ir::RegisterId Reader::emit(const Instruction& inst, ir::Opcode op, std::vector<ir::Operand> operands,
                            std::uint16_t aux) {
  if (failed()) return {};
  const ir::Precision p = inst.result_id ? precision_of(inst.result_id) : ir::Precision::None;
  auto r = b_.emit(op, std::span<const ir::Operand>(operands), p, aux);
  if (!r) {
    fail(inst, r.error());
    return {};
  }
  scope_push(*r);
  return *r;
}

ir::RegisterId Reader::emit_typed(const Instruction& inst, ir::Opcode op, ir::TypeId t,
                                  std::vector<ir::Operand> operands) {
  if (failed()) return {};
  const ir::Precision p = inst.result_id ? precision_of(inst.result_id) : ir::Precision::None;
  auto r = b_.construct(op, t, std::span<const ir::Operand>(operands), p);
  if (!r) {
    fail(inst, r.error());
    return {};
  }
  scope_push(*r);
  return *r;
}

ir::Operand Reader::convert_kind(const Instruction& inst, ir::Operand v, ir::ScalarKind k) {
  if (failed()) return v;
  const ir::TypeId t = m_.type_of(v);
  const auto vk = ir::component_kind(m_, t);
  if (!vk || *vk == k) return v;
  const std::uint32_t n = ir::is_vector(m_, t) ? ir::component_count(m_, t) : 1;
  return emit_typed(inst, n > 1 ? O::ConstructVectorFromVector : O::ConstructScalarFromScalar, m_.vector_type(k, n), {v});
}

ir::Operand Reader::fit(const Instruction& inst, ir::Operand v, ir::TypeId want) {
  if (failed()) return v;
  const ir::TypeId t = m_.type_of(v);
  if (t == want || !want.valid()) return v;
  if (!t.valid()) {
    fail(inst, "an operand that has no type");
    return v;
  }
  const auto wk = ir::component_kind(m_, want);
  if (wk && ir::component_kind(m_, t) && ir::component_count(m_, t) == ir::component_count(m_, want) &&
      (ir::is_scalar(m_, t) || ir::is_vector(m_, t)))
    return convert_kind(inst, v, *wk);
  // A struct or array read from a laid-out block has the block's layout in
  // the IR, while SPIR-V may use one type for both: copied part by part, as
  // the GLSL front end's coerce() (and SPIR-V 1.4's OpCopyLogical) does.
  const ir::Type& ft = m_.type(t);
  const ir::Type& wt = m_.type(want);
  const bool structs = ft.kind == ir::TypeKind::Struct && wt.kind == ir::TypeKind::Struct &&
                       ft.members.size() == wt.members.size() && ft.name == wt.name;
  const bool arrays = ft.kind == ir::TypeKind::Array && wt.kind == ir::TypeKind::Array && ft.count == wt.count;
  if ((structs || arrays) && remat_depth_ < 64 && ft.members.size() + ft.count <= 4096) {
    ++remat_depth_;
    std::vector<ir::Operand> parts;
    const std::size_t n = structs ? ft.members.size() : ft.count;
    for (std::size_t i = 0; i < n && !failed(); ++i) {
      const ir::TypeId part_type = structs ? m_.type(want).members[i].type : m_.type(want).element;
      const ir::RegisterId part =
          structs ? emit(inst, ir::Opcode::ExtractStructField, {v, ir::Operand::literal(static_cast<std::uint32_t>(i))})
                  : emit(inst, ir::Opcode::ExtractArrayElement, {v, m_.int_constant(static_cast<std::int32_t>(i))});
      parts.push_back(fit(inst, part, part_type));
    }
    --remat_depth_;
    return emit_typed(inst, structs ? ir::Opcode::ConstructStruct : ir::Opcode::ConstructArray, want, std::move(parts));
  }
  fail(inst, fmt::format("the IR gives {} where SPIR-V says {}", ir::describe_type(m_, t), ir::describe_type(m_, want)));
  return v;
}

namespace {

struct Ctx {
  Reader& r;
  const Instruction& inst;
  ir::Operand v(std::size_t k) { return r.value(r.in(inst, k)); }
  ir::TypeId rt() { return r.type(inst.type_id); }
  ir::ScalarKind rkind() { return ir::component_kind(r.m_, rt()).value_or(ir::ScalarKind::Float); }
  void result(ir::Operand x) { r.set(inst, r.fit(inst, x, rt())); }
  // A binary operation with both operands converted to `k`.
  void binary(O op, ir::ScalarKind k) {
    const ir::Operand a = r.convert_kind(inst, v(0), k), b = r.convert_kind(inst, v(1), k);
    result(r.emit(inst, op, {a, b}));
  }
  ir::ScalarKind kind_of(ir::Operand x) { return ir::component_kind(r.m_, r.m_.type_of(x)).value_or(ir::ScalarKind::Float); }
  ir::Operand uint_literal_value(std::uint32_t x) { return r.m_.int_constant(static_cast<std::int32_t>(x)); }
};

// The component or element `index` of composite `c` (a constant index).
ir::Operand extract(Reader& r, const Instruction& inst, ir::Operand c, std::uint32_t index) {
  const ir::TypeId ct = r.m_.type_of(c);
  if (!ct.valid()) {
    r.fail(inst, "a composite operand that has no type");
    return c;
  }
  const ir::Type& t = r.m_.type(ct);
  switch (t.kind) {
    case ir::TypeKind::Vector: return r.emit(inst, O::ExtractVectorComponent, {c, ir::Operand::literal(index)});
    case ir::TypeKind::Matrix:
      return r.emit(inst, O::ExtractMatrixColumn, {c, r.m_.int_constant(static_cast<std::int32_t>(index))});
    case ir::TypeKind::Struct: return r.emit(inst, O::ExtractStructField, {c, ir::Operand::literal(index)});
    case ir::TypeKind::Array:
      return r.emit(inst, O::ExtractArrayElement, {c, r.m_.int_constant(static_cast<std::int32_t>(index))});
    default: r.fail(inst, "an index into a value that is no composite"); return c;
  }
}

ir::Opcode construct_op(const ir::Type& t) {
  switch (t.kind) {
    case ir::TypeKind::Vector: return O::ConstructVectorFromMultiple;
    case ir::TypeKind::Matrix: return O::ConstructMatrixFromMultiple;
    case ir::TypeKind::Struct: return O::ConstructStruct;
    default: return O::ConstructArray;
  }
}

std::uint32_t part_count(const ir::Type& t) {
  return t.kind == ir::TypeKind::Struct ? static_cast<std::uint32_t>(t.members.size()) : t.count;
}

}  // namespace

void Reader::instruction(const Instruction& inst) {
  if (failed()) return;
  Ctx x{*this, inst};
  switch (inst.opcode) {
    case Op::OpNop:
    case Op::OpLine:
    case Op::OpNoLine: return;
    case Op::OpUndef: set(inst, zero_constant(x.rt())); return;
    case Op::OpCopyObject:
    case Op::OpCopyLogical: set(inst, x.v(0)); return;
    // --- memory ---
    case Op::OpLoad:
    case Op::OpAtomicLoad: x.result(emit(inst, O::Load, {x.v(0)})); return;
    case Op::OpStore: {
      const ir::Operand p = x.v(0);
      const ir::Operand v = x.v(1);
      emit(inst, O::Store, {p, fit(inst, v, ir::pointee(m_, m_.type_of(p)))});
      return;
    }
    case Op::OpAtomicStore: {
      const ir::Operand p = x.v(0);
      emit(inst, O::Store, {p, fit(inst, x.v(3), ir::pointee(m_, m_.type_of(p)))});
      return;
    }
    case Op::OpCopyMemory: {
      const ir::Operand dst = x.v(0), src = x.v(1);
      const ir::RegisterId l = emit(inst, O::Load, {src});
      emit(inst, O::Store, {dst, l});
      return;
    }
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain: {
      const Id base_id = in(inst, 0);
      std::size_t k = 1;
      ir::Operand p;
      if (base_id < ids_.size() && ids_[base_id].kind == Kind::BuiltinBlock) {
        if (in_count(inst) < 2 || in(inst, 1) >= ids_.size())
          return fail(inst, "a built-in block indexed by a value that is not a constant member index");
        const IdValue& iv = ids_[in(inst, 1)];
        const auto& members = builtin_blocks_[ids_[base_id].index];
        if (iv.kind != Kind::Constant || m_.constant(ir::ConstantId(iv.index)).bits >= members.size())
          return fail(inst, "a built-in block indexed by a value that is not a constant member index");
        p = members[m_.constant(ir::ConstantId(iv.index)).bits];
        k = 2;
      } else {
        p = x.v(0);
      }
      if (!failed() && !ir::is_pointer(m_, m_.type_of(p))) return fail(inst, "the base of an access chain is not a pointer");
      for (; k < in_count(inst) && !failed(); ++k) {
        const ir::TypeId pointee = ir::pointee(m_, m_.type_of(p));
        const ir::Type& pt = m_.type(pointee);
        const Id idx_id = in(inst, k);
        const bool is_const = idx_id < ids_.size() && ids_[idx_id].kind == Kind::Constant;
        const ir::ConstantId cid = is_const ? ir::ConstantId(ids_[idx_id].index) : ir::ConstantId{};
        const std::uint32_t cbits = is_const ? m_.constant(cid).bits : 0;
        // A constant index out of range (ir/constant_index.h) is undefined
        // behaviour if it runs; the IR refuses the component and GLSL the
        // index, so the access goes to a local of the element type: one of
        // the behaviours allowed, and the rest of the chain indexes that local.
        if (is_const && ir::constant_index_out_of_range(m_, pointee, cid)) {
          p = local(pt.element, fmt::format("out_of_bounds{}", inst.result_id));
          continue;
        }
        switch (pt.kind) {
          case ir::TypeKind::Struct:
            if (!is_const) return fail(inst, "a struct indexed by a value that is not a constant");
            p = emit(inst, O::AccessStructField, {p, ir::Operand::literal(cbits)});
            break;
          case ir::TypeKind::Vector:
            if (is_const) p = emit(inst, O::AccessVectorComponent, {p, ir::Operand::literal(cbits)});
            else p = emit(inst, O::AccessVectorComponentDynamic, {p, x.v(k)});
            break;
          case ir::TypeKind::Matrix: p = emit(inst, O::AccessMatrixColumn, {p, x.v(k)}); break;
          case ir::TypeKind::Array:
          case ir::TypeKind::UnsizedArray: p = emit(inst, O::AccessArrayElement, {p, x.v(k)}); break;
          default: return fail(inst, "an access chain into a value that is no composite");
        }
      }
      set(inst, p);
      return;
    }
    case Op::OpArrayLength: {
      const ir::RegisterId a = emit(inst, O::AccessStructField, {x.v(0), ir::Operand::literal(in(inst, 1))});
      x.result(emit(inst, O::ArrayLength, {a}));
      return;
    }
    // --- composites ---
    case Op::OpCompositeConstruct: {
      const ir::TypeId t = x.rt();
      std::vector<ir::Operand> parts;
      for (std::size_t k = 0; k < in_count(inst); ++k) parts.push_back(x.v(k));
      if (failed() || !t.valid()) return;
      const ir::Type& tt = m_.type(t);
      // A vector from one scalar per component of one kind: same as GLSL's constructor.
      set(inst, emit_typed(inst, construct_op(tt), t, std::move(parts)));
      return;
    }
    case Op::OpCompositeExtract: {
      ir::Operand c = x.v(0);
      for (std::size_t k = 1; k < in_count(inst) && !failed(); ++k) c = extract(*this, inst, c, in(inst, k));
      set(inst, c);
      return;
    }
    case Op::OpCompositeInsert: {
      // Rebuild every level on the index path, innermost first.
      const ir::Operand obj = x.v(0);
      std::vector<ir::Operand> levels{x.v(1)};
      const std::size_t n = in_count(inst) - 2;
      for (std::size_t k = 0; k + 1 < n && !failed(); ++k) levels.push_back(extract(*this, inst, levels.back(), in(inst, 2 + k)));
      ir::Operand value = obj;
      for (std::size_t k = n; k-- > 0 && !failed();) {
        const ir::Operand whole = levels[k];
        const ir::TypeId wt = m_.type_of(whole);
        if (!wt.valid()) return fail(inst, "a composite operand that has no type");
        const ir::Type& t = m_.type(wt);
        std::vector<ir::Operand> parts;
        const std::uint32_t count = part_count(t);
        if (count > 4096) return fail(inst, "a composite of over 4096 parts");
        for (std::uint32_t i = 0; i < count; ++i)
          parts.push_back(i == in(inst, 2 + k) ? value : extract(*this, inst, whole, i));
        value = emit_typed(inst, construct_op(t), wt, std::move(parts));
      }
      set(inst, value);
      return;
    }
    case Op::OpVectorShuffle: {
      const ir::Operand a = x.v(0), b = x.v(1);
      const std::uint32_t na = ir::component_count(m_, m_.type_of(a));
      std::vector<std::uint32_t> sel;
      bool only_a = true;
      for (std::size_t k = 2; k < in_count(inst); ++k) {
        std::uint32_t s = in(inst, k);
        if (s == 0xffffffffu) s = 0;
        only_a = only_a && s < na;
        sel.push_back(s);
      }
      if (only_a) {
        std::vector<ir::Operand> ops{a};
        for (std::uint32_t s : sel) ops.push_back(ir::Operand::literal(s));
        if (sel.size() == 1) return set(inst, emit(inst, O::ExtractVectorComponent, ops));
        return set(inst, emit(inst, O::ExtractVectorComponentMulti, ops));
      }
      std::vector<ir::Operand> parts;
      for (std::uint32_t s : sel)
        parts.push_back(s < na ? extract(*this, inst, a, s) : extract(*this, inst, b, s - na));
      set(inst, emit_typed(inst, O::ConstructVectorFromMultiple, x.rt(), std::move(parts)));
      return;
    }
    case Op::OpVectorExtractDynamic: set(inst, emit(inst, O::ExtractVectorComponentDynamic, {x.v(0), x.v(1)})); return;
    case Op::OpVectorInsertDynamic: {
      const ir::TypeId t = x.rt();
      const ir::VariableId tmp = local(t, fmt::format("ins{}", inst.result_id));
      emit(inst, O::Store, {tmp, x.v(0)});
      const ir::RegisterId p = emit(inst, O::AccessVectorComponentDynamic, {tmp, x.v(2)});
      emit(inst, O::Store, {p, x.v(1)});
      set(inst, emit(inst, O::Load, {tmp}));
      return;
    }
    case Op::OpTranspose: set(inst, emit(inst, O::Transpose, {x.v(0)})); return;
    // --- conversions ---
    case Op::OpConvertFToU:
    case Op::OpConvertFToS:
    case Op::OpConvertSToF:
    case Op::OpConvertUToF:
    case Op::OpUConvert:
    case Op::OpSConvert:
    case Op::OpFConvert:
    case Op::OpBitcast: {
      ir::Operand a = x.v(0);
      const ir::TypeId t = x.rt();
      if (inst.opcode == Op::OpConvertSToF) a = convert_kind(inst, a, ir::ScalarKind::Int);
      if (inst.opcode == Op::OpConvertUToF) a = convert_kind(inst, a, ir::ScalarKind::Uint);
      const auto from = x.kind_of(a), to = x.rkind();
      if (failed()) return;
      if (m_.type_of(a) == t) return set(inst, a);
      const bool vec = ir::is_vector(m_, t);
      const bool bits = inst.opcode == Op::OpBitcast && (from == ir::ScalarKind::Float) != (to == ir::ScalarKind::Float);
      if (bits) {
        if (ir::component_count(m_, t) != ir::component_count(m_, m_.type_of(a)))
          return fail(inst, "a bitcast between different component counts");
        return set(inst, emit_typed(inst, O::Bitcast, t, {a}));
      }
      if (inst.opcode == Op::OpConvertFToS && to == ir::ScalarKind::Uint) {
        const ir::RegisterId s = emit_typed(inst, vec ? O::ConstructVectorFromVector : O::ConstructScalarFromScalar,
                                            m_.vector_type(ir::ScalarKind::Int, ir::component_count(m_, t)), {a});
        return x.result(s);
      }
      set(inst, emit_typed(inst, vec ? O::ConstructVectorFromVector : O::ConstructScalarFromScalar, t, {a}));
      return;
    }
    // --- arithmetic ---
    case Op::OpIAdd: return x.binary(O::Add, x.rkind());
    case Op::OpISub: return x.binary(O::Sub, x.rkind());
    case Op::OpIMul: return x.binary(O::Mul, x.rkind());
    case Op::OpFAdd: return x.binary(O::Add, ir::ScalarKind::Float);
    case Op::OpFSub: return x.binary(O::Sub, ir::ScalarKind::Float);
    case Op::OpFMul: return x.binary(O::Mul, ir::ScalarKind::Float);
    case Op::OpFDiv: return x.binary(O::Div, ir::ScalarKind::Float);
    case Op::OpFMod: return x.binary(O::Mod, ir::ScalarKind::Float);
    case Op::OpSDiv: return x.binary(O::Div, ir::ScalarKind::Int);
    case Op::OpUDiv: return x.binary(O::Div, ir::ScalarKind::Uint);
    case Op::OpSMod: return x.binary(O::IMod, ir::ScalarKind::Int);
    case Op::OpUMod: return x.binary(O::IMod, ir::ScalarKind::Uint);
    case Op::OpSRem:
    case Op::OpFRem: {
      const bool f = inst.opcode == Op::OpFRem;
      const auto k = f ? ir::ScalarKind::Float : ir::ScalarKind::Int;
      const ir::Operand a = convert_kind(inst, x.v(0), k), b = convert_kind(inst, x.v(1), k);
      ir::Operand q = emit(inst, O::Div, {a, b});
      if (f) q = emit(inst, O::Trunc, {q});
      const ir::RegisterId prod = emit(inst, O::Mul, {q, b});
      x.result(emit(inst, O::Sub, {a, prod}));
      return;
    }
    case Op::OpSNegate: x.result(emit(inst, O::Negate, {convert_kind(inst, x.v(0), ir::ScalarKind::Int)})); return;
    case Op::OpFNegate: x.result(emit(inst, O::Negate, {x.v(0)})); return;
    case Op::OpNot: x.result(emit(inst, O::BitwiseNot, {convert_kind(inst, x.v(0), x.rkind())})); return;
    case Op::OpBitwiseAnd: return x.binary(O::BitwiseAnd, x.rkind());
    case Op::OpBitwiseOr: return x.binary(O::BitwiseOr, x.rkind());
    case Op::OpBitwiseXor: return x.binary(O::BitwiseXor, x.rkind());
    case Op::OpShiftLeftLogical:
    case Op::OpShiftRightLogical:
    case Op::OpShiftRightArithmetic: {
      const auto k = inst.opcode == Op::OpShiftLeftLogical    ? x.rkind()
                     : inst.opcode == Op::OpShiftRightLogical ? ir::ScalarKind::Uint
                                                              : ir::ScalarKind::Int;
      const ir::Operand a = convert_kind(inst, x.v(0), k);
      x.result(emit(inst, inst.opcode == Op::OpShiftLeftLogical ? O::BitShiftLeft : O::BitShiftRight, {a, x.v(1)}));
      return;
    }
    case Op::OpVectorTimesScalar: x.result(emit(inst, O::VectorTimesScalar, {x.v(0), x.v(1)})); return;
    case Op::OpMatrixTimesScalar: x.result(emit(inst, O::MatrixTimesScalar, {x.v(0), x.v(1)})); return;
    case Op::OpVectorTimesMatrix: x.result(emit(inst, O::VectorTimesMatrix, {x.v(0), x.v(1)})); return;
    case Op::OpMatrixTimesVector: x.result(emit(inst, O::MatrixTimesVector, {x.v(0), x.v(1)})); return;
    case Op::OpMatrixTimesMatrix: x.result(emit(inst, O::MatrixTimesMatrix, {x.v(0), x.v(1)})); return;
    case Op::OpOuterProduct: x.result(emit(inst, O::OuterProduct, {x.v(0), x.v(1)})); return;
    case Op::OpDot: x.result(emit(inst, O::Dot, {x.v(0), x.v(1)})); return;
    // --- logic and comparisons ---
    case Op::OpLogicalAnd: x.result(emit(inst, O::LogicalAnd, {x.v(0), x.v(1)})); return;
    case Op::OpLogicalOr: x.result(emit(inst, O::LogicalOr, {x.v(0), x.v(1)})); return;
    case Op::OpLogicalNot: x.result(emit(inst, O::LogicalNot, {x.v(0)})); return;
    case Op::OpLogicalEqual: x.result(emit(inst, O::EqualComponentwise, {x.v(0), x.v(1)})); return;
    case Op::OpLogicalNotEqual: x.result(emit(inst, O::NotEqualComponentwise, {x.v(0), x.v(1)})); return;
    case Op::OpIEqual:
    case Op::OpINotEqual: {
      const ir::Operand a = x.v(0);
      const ir::Operand b = convert_kind(inst, x.v(1), x.kind_of(a));
      x.result(emit(inst, inst.opcode == Op::OpIEqual ? O::EqualComponentwise : O::NotEqualComponentwise, {a, b}));
      return;
    }
    case Op::OpFOrdEqual:
    case Op::OpFUnordEqual: return x.binary(O::EqualComponentwise, ir::ScalarKind::Float);
    case Op::OpFOrdNotEqual:
    case Op::OpFUnordNotEqual: return x.binary(O::NotEqualComponentwise, ir::ScalarKind::Float);
    case Op::OpFOrdLessThan:
    case Op::OpFUnordLessThan: return x.binary(O::LessThan, ir::ScalarKind::Float);
    case Op::OpFOrdGreaterThan:
    case Op::OpFUnordGreaterThan: return x.binary(O::GreaterThan, ir::ScalarKind::Float);
    case Op::OpFOrdLessThanEqual:
    case Op::OpFUnordLessThanEqual: return x.binary(O::LessThanEqual, ir::ScalarKind::Float);
    case Op::OpFOrdGreaterThanEqual:
    case Op::OpFUnordGreaterThanEqual: return x.binary(O::GreaterThanEqual, ir::ScalarKind::Float);
    case Op::OpSLessThan: return x.binary(O::LessThan, ir::ScalarKind::Int);
    case Op::OpSGreaterThan: return x.binary(O::GreaterThan, ir::ScalarKind::Int);
    case Op::OpSLessThanEqual: return x.binary(O::LessThanEqual, ir::ScalarKind::Int);
    case Op::OpSGreaterThanEqual: return x.binary(O::GreaterThanEqual, ir::ScalarKind::Int);
    case Op::OpULessThan: return x.binary(O::LessThan, ir::ScalarKind::Uint);
    case Op::OpUGreaterThan: return x.binary(O::GreaterThan, ir::ScalarKind::Uint);
    case Op::OpULessThanEqual: return x.binary(O::LessThanEqual, ir::ScalarKind::Uint);
    case Op::OpUGreaterThanEqual: return x.binary(O::GreaterThanEqual, ir::ScalarKind::Uint);
    case Op::OpIsNan: x.result(emit(inst, O::IsNan, {x.v(0)})); return;
    case Op::OpIsInf: x.result(emit(inst, O::IsInf, {x.v(0)})); return;
    case Op::OpAny: x.result(emit(inst, O::Any, {x.v(0)})); return;
    case Op::OpAll: x.result(emit(inst, O::All, {x.v(0)})); return;
    case Op::OpSelect: {
      const ir::Operand c = x.v(0), a = x.v(1), b = x.v(2);
      x.result(emit(inst, O::Select, {c, a, b}));
      return;
    }
    // --- bits ---
    case Op::OpBitCount: x.result(emit(inst, O::BitCount, {x.v(0)})); return;
    case Op::OpBitReverse: x.result(emit(inst, O::BitfieldReverse, {x.v(0)})); return;
    case Op::OpBitFieldInsert:
      x.result(emit(inst, O::BitfieldInsert,
                    {x.v(0), convert_kind(inst, x.v(1), x.kind_of(x.v(0))), x.v(2), x.v(3)}));
      return;
    case Op::OpBitFieldSExtract:
    case Op::OpBitFieldUExtract: {
      const auto k = inst.opcode == Op::OpBitFieldSExtract ? ir::ScalarKind::Int : ir::ScalarKind::Uint;
      x.result(emit(inst, O::BitfieldExtract, {convert_kind(inst, x.v(0), k), x.v(1), x.v(2)}));
      return;
    }
    case Op::OpIAddCarry:
    case Op::OpISubBorrow:
    case Op::OpUMulExtended:
    case Op::OpSMulExtended: {
      const ir::TypeId st = x.rt();
      if (!st.valid() || m_.type(st).kind != ir::TypeKind::Struct || m_.type(st).members.size() != 2)
        return fail(inst, "the result type is not a struct of two members");
      const ir::TypeId mt = m_.type(st).members[0].type;
      const auto k = inst.opcode == Op::OpSMulExtended ? ir::ScalarKind::Int : ir::ScalarKind::Uint;
      const ir::Operand a = convert_kind(inst, x.v(0), k), b = convert_kind(inst, x.v(1), k);
      const ir::TypeId kt = m_.type_of(a);
      const ir::VariableId hi = local(kt, fmt::format("hi{}", inst.result_id));
      ir::Operand lo_v;
      if (inst.opcode == Op::OpIAddCarry || inst.opcode == Op::OpISubBorrow) {
        lo_v = emit(inst, inst.opcode == Op::OpIAddCarry ? O::UaddCarry : O::UsubBorrow, {a, b, hi});
      } else {
        const ir::VariableId lo = local(kt, fmt::format("lo{}", inst.result_id));
        emit(inst, inst.opcode == Op::OpUMulExtended ? O::UmulExtended : O::ImulExtended, {a, b, hi, lo});
        lo_v = emit(inst, O::Load, {lo});
      }
      const ir::RegisterId hi_v = emit(inst, O::Load, {hi});
      set(inst, emit_typed(inst, O::ConstructStruct, st, {fit(inst, lo_v, mt), fit(inst, hi_v, mt)}));
      return;
    }
    // --- derivatives ---
    case Op::OpDPdx: x.result(emit(inst, O::DFdx, {x.v(0)})); return;
    case Op::OpDPdy: x.result(emit(inst, O::DFdy, {x.v(0)})); return;
    case Op::OpFwidth: x.result(emit(inst, O::Fwidth, {x.v(0)})); return;
    case Op::OpDPdxFine: x.result(emit(inst, O::DFdxFine, {x.v(0)})); return;
    case Op::OpDPdyFine: x.result(emit(inst, O::DFdyFine, {x.v(0)})); return;
    case Op::OpFwidthFine: x.result(emit(inst, O::FwidthFine, {x.v(0)})); return;
    case Op::OpDPdxCoarse: x.result(emit(inst, O::DFdxCoarse, {x.v(0)})); return;
    case Op::OpDPdyCoarse: x.result(emit(inst, O::DFdyCoarse, {x.v(0)})); return;
    case Op::OpFwidthCoarse: x.result(emit(inst, O::FwidthCoarse, {x.v(0)})); return;
    // --- calls ---
    case Op::OpFunctionCall: {
      const Id callee = in(inst, 0);
      if (callee >= ids_.size() || ids_[callee].kind != Kind::Function) return fail(inst, "the callee is no function");
      const ir::FunctionId f(ids_[callee].index);
      std::vector<ir::Operand> ops{f};
      for (std::size_t k = 1; k < in_count(inst) && !failed(); ++k) {
        if (k - 1 >= m_.function(f).params.size()) return fail(inst, "too many arguments");
        const ir::FunctionParam param = m_.function(f).params[k - 1];
        ir::Operand a = x.v(k);
        const ir::TypeId at = m_.type_of(a);
        if (param.direction == ir::ParamDirection::In && at.valid() && ir::is_pointer(m_, at))
          a = emit(inst, O::Load, {a});  // an image or sampler passed by its UniformConstant pointer
        ops.push_back(a);
      }
      const ir::RegisterId r = emit(inst, O::Call, ops);
      if (r.valid()) set(inst, r);
      return;
    }
    case Op::OpExtInst: {
      const Id set_id = in(inst, 0);
      if (set_id >= ids_.size() || ids_[set_id].kind != Kind::GlslStd450)
        return fail(inst, "an extended instruction set other than GLSL.std.450");
      return glsl_std_450(inst);
    }
    // --- barriers ---
    case Op::OpControlBarrier: emit(inst, O::ControlBarrier, {}); return;
    case Op::OpDemoteToHelperInvocation: emit(inst, O::Demote, {}); return;
    case Op::OpMemoryBarrier: {
      const Id sem_id = in(inst, 1), scope_id = in(inst, 0);
      const std::uint32_t sem = ids_[sem_id].kind == Kind::Constant ? m_.constant(ir::ConstantId(ids_[sem_id].index)).bits : 0;
      const std::uint32_t scope =
          ids_[scope_id].kind == Kind::Constant ? m_.constant(ir::ConstantId(ids_[scope_id].index)).bits : 1;
      const std::uint32_t kinds = sem & (0x40u | 0x100u | 0x800u);  // Uniform, Workgroup, Image memory
      O op = O::MemoryBarrier;
      if (scope == static_cast<std::uint32_t>(spv::Scope::Workgroup) && kinds != 0x100u) op = O::GroupMemoryBarrier;
      else if (kinds == 0x40u) op = O::MemoryBarrierBuffer;
      else if (kinds == 0x100u) op = O::MemoryBarrierShared;
      else if (kinds == 0x800u) op = O::MemoryBarrierImage;
      emit(inst, op, {});
      return;
    }
    // --- atomics ---
    case Op::OpAtomicIAdd:
    case Op::OpAtomicISub:
    case Op::OpAtomicSMin:
    case Op::OpAtomicUMin:
    case Op::OpAtomicSMax:
    case Op::OpAtomicUMax:
    case Op::OpAtomicAnd:
    case Op::OpAtomicOr:
    case Op::OpAtomicXor:
    case Op::OpAtomicExchange:
    case Op::OpAtomicIIncrement:
    case Op::OpAtomicIDecrement:
    case Op::OpAtomicCompareExchange: {
      const Id ptr_id = in(inst, 0);
      const bool image = ptr_id < ids_.size() && ids_[ptr_id].kind == Kind::TexelPointer;
      const ir::TypeId rt = x.rt();
      std::vector<ir::Operand> tail;
      O op = O::AtomicAdd;
      switch (inst.opcode) {
        case Op::OpAtomicIAdd: tail = {x.v(3)}; break;
        case Op::OpAtomicISub: tail = {emit(inst, O::Negate, {x.v(3)})}; break;
        case Op::OpAtomicIIncrement:
        case Op::OpAtomicIDecrement: {
          const bool inc = inst.opcode == Op::OpAtomicIIncrement;
          const bool is_int = ir::component_kind(m_, rt) == ir::ScalarKind::Int;
          tail = {is_int ? ir::Operand(m_.int_constant(inc ? 1 : -1)) : ir::Operand(m_.uint_constant(inc ? 1u : 0xffffffffu))};
          break;
        }
        case Op::OpAtomicSMin:
        case Op::OpAtomicUMin: op = O::AtomicMin; tail = {x.v(3)}; break;
        case Op::OpAtomicSMax:
        case Op::OpAtomicUMax: op = O::AtomicMax; tail = {x.v(3)}; break;
        case Op::OpAtomicAnd: op = O::AtomicAnd; tail = {x.v(3)}; break;
        case Op::OpAtomicOr: op = O::AtomicOr; tail = {x.v(3)}; break;
        case Op::OpAtomicXor: op = O::AtomicXor; tail = {x.v(3)}; break;
        case Op::OpAtomicExchange: op = O::AtomicExchange; tail = {x.v(3)}; break;
        default: op = O::AtomicCompSwap; tail = {x.v(5), x.v(4)}; break;  // comparator, value
      }
      for (ir::Operand& t : tail) t = fit(inst, t, rt);
      if (!image) {
        std::vector<ir::Operand> ops{x.v(0)};
        ops.insert(ops.end(), tail.begin(), tail.end());
        return set(inst, emit(inst, op, ops));
      }
      const Instruction& tp = sm_.instructions[ids_[ptr_id].index];
      const ir::Operand img = emit(inst, O::Load, {value(in(tp, 0))});
      const O iop = static_cast<O>(static_cast<int>(op) - static_cast<int>(O::AtomicAdd) + static_cast<int>(O::ImageAtomicAdd));
      std::vector<ir::Operand> ops{img, exact_coordinate(inst, img, convert_kind(inst, value(in(tp, 1)), ir::ScalarKind::Int), iop)};
      if (failed() || !m_.type_of(img).valid()) return;
      if (m_.type(m_.type_of(img)).image.multisampled) ops.push_back(value(in(tp, 2)));
      ops.insert(ops.end(), tail.begin(), tail.end());
      x.result(emit(inst, iop, ops));
      return;
    }
    case Op::OpImageTexelPointer: {
      InstrIndex idx = static_cast<InstrIndex>(&inst - sm_.instructions.data());
      ids_[inst.result_id] = IdValue{Kind::TexelPointer, idx};
      return;
    }
    // --- subgroup votes ---
    case Op::OpGroupNonUniformAll: x.result(emit(inst, O::AllInvocations, {x.v(1)})); return;
    case Op::OpGroupNonUniformAny: x.result(emit(inst, O::AnyInvocation, {x.v(1)})); return;
    case Op::OpGroupNonUniformAllEqual: x.result(emit(inst, O::AllInvocationsEqual, {x.v(1)})); return;
    case Op::OpSubgroupAllKHR: x.result(emit(inst, O::AllInvocations, {x.v(0)})); return;
    case Op::OpSubgroupAnyKHR: x.result(emit(inst, O::AnyInvocation, {x.v(0)})); return;
    case Op::OpSubgroupAllEqualKHR: x.result(emit(inst, O::AllInvocationsEqual, {x.v(0)})); return;
    default: break;
  }
  if (image_instruction(inst) || stage_instruction(inst)) return;
  fail(inst, "instruction not supported by the SPIR-V reader");
}

}  // namespace sluice::spirv_in::detail
