// The two searches of source_forms.h, each one pass over a function's
// reachable blocks that looks at the instructions just before (splats) or
// just after (copies back) an operation.
#include "output/glsl/source_forms.h"

#include <optional>
#include <unordered_map>

#include "ir/operands.h"
#include "ir/texture.h"
#include "ir/typing.h"

namespace sluice::glsl_out {

using ir::BlockId;
using ir::Opcode;
using ir::RegisterId;

namespace {

// Operand positions (a bit mask) where GLSL takes a scalar in place of the
// vector; `all`: every one of them is a scalar, else exactly one.
struct SplatRule {
  std::uint8_t positions = 0;
  bool all = false;
};

std::optional<SplatRule> splat_rule(const ir::Module& m, const ir::Instruction& inst) {
  switch (inst.opcode) {
    case Opcode::Mul:
      // Float vectors times scalars are VectorTimesScalar, never a splat.
      if (ir::component_kind(m, m.reg(inst.result).type) == ir::ScalarKind::Float) return std::nullopt;
      [[fallthrough]];
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Div:
    case Opcode::IMod:
    case Opcode::BitwiseAnd:
    case Opcode::BitwiseOr:
    case Opcode::BitwiseXor: return SplatRule{0b11, false};
    case Opcode::Mod:
    case Opcode::Min:
    case Opcode::Max: return SplatRule{0b10, true};
    case Opcode::Step: return SplatRule{0b01, true};
    case Opcode::Clamp: return SplatRule{0b110, true};
    case Opcode::Mix: return SplatRule{0b100, true};
    case Opcode::Smoothstep: return SplatRule{0b011, true};
    default: return std::nullopt;
  }
}

// Calls and the built-ins with out pointers (modf, uaddCarry, ...): glslang
// passes their out arguments through temporaries it copies back.
bool writes_through_temporaries(Opcode op) {
  const std::size_t positions = ir::info(op).roles.size();
  for (std::size_t i = 0; i < positions; ++i) {
    const ir::OperandRole role = ir::operand_role(op, i);
    if (role == ir::OperandRole::Argument || role == ir::OperandRole::OutPointer) return true;
  }
  return false;
}

// GLSL's implicit conversions between 32-bit kinds (4.50 section 4.1.10;
// ES has none): int to uint, int and uint to float, of one shape.
bool implicit_conversion(const EmitContext& ctx, ir::TypeId from, ir::TypeId to) {
  const auto a = ir::component_kind(ctx.m, from), b = ir::component_kind(ctx.m, to);
  if (ctx.es || !a || !b || ir::component_count(ctx.m, from) != ir::component_count(ctx.m, to)) return false;
  return (*a == ir::ScalarKind::Int && (*b == ir::ScalarKind::Uint || *b == ir::ScalarKind::Float)) ||
         (*a == ir::ScalarKind::Uint && *b == ir::ScalarKind::Float);
}

bool is_conversion(Opcode op) {
  return op == Opcode::ConstructScalarFromScalar || op == Opcode::ConstructVectorFromVector;
}

}  // namespace

void find_implicit_splats(const EmitContext& ctx, const ir::Function& f, std::span<const BlockId> reachable,
                          RegisterFacts& regs) {
  const ir::Module& m = ctx.m;
  for (BlockId id : reachable) {
    const ir::Block& b = f.block(id);
    for (std::size_t k = 0; k < b.instructions.size(); ++k) {
      const ir::Instruction& inst = b.instructions[k];
      if (!inst.result.valid()) continue;
      const auto rule = splat_rule(m, inst);
      if (!rule) continue;
      // The splat of operand p, if it is one that GLSL lets go unwritten.
      auto splat_of = [&](std::size_t p) -> std::optional<RegisterId> {
        const ir::Operand o = inst.operands[p];
        if (!o.is_register()) return std::nullopt;
        const Site& d = regs.def[o.value()];
        if (d.block != id || d.index < 0) return std::nullopt;
        const ir::Instruction& c = b.instructions[d.index];
        if (c.opcode != Opcode::ConstructVectorFromScalar || !c.operands[0].is_register() ||
            m.reg(o.as_register()).type != m.reg(inst.result).type || regs.uses[o.value()] != 1)
          return std::nullopt;
        return o.as_register();
      };
      // Right before the operation, in operand order: for `v op s` the
      // splat made last (an earlier one was written in the source).
      std::vector<RegisterId> splats;
      for (std::size_t p = 0; p < inst.operands.size() && p < 8; ++p) {
        if (!(rule->positions & (1u << p))) continue;
        const auto s = splat_of(p);
        if (s) splats.push_back(*s);
        if (rule->all && !s) splats.clear();
        if (rule->all && !s) break;
      }
      if (!rule->all && splats.size() == 2)
        splats.erase(regs.def[splats[0].index()].index + 1 == static_cast<std::int32_t>(k) ? splats.begin() + 1
                                                                                          : splats.begin());
      if (splats.empty()) continue;
      bool in_place = true;
      for (std::size_t i = 0; i < splats.size(); ++i)
        in_place = in_place && regs.def[splats[i].index()].index == static_cast<std::int32_t>(k - splats.size() + i);
      if (!in_place) continue;
      for (RegisterId s : splats) regs.implicit_splat[s.index()] = 1;
    }
  }
}

void find_copy_back_arguments(const EmitContext& ctx, const ir::Function& f, std::span<const BlockId> reachable,
                              RegisterFacts& regs, VariableFacts& vars) {
  const ir::Module& m = ctx.m;
  auto is_parameter = [&](ir::Operand o) {
    for (const ir::FunctionParam& p : f.params)
      if (ir::Operand(p.variable) == o) return true;
    return false;
  };
  auto is_local = [&](ir::Operand o) { return o.is_variable() && !ctx.is_global[o.value()] && !is_parameter(o); };
  std::unordered_map<std::uint32_t, std::uint32_t> variable_uses;
  for (BlockId id : reachable)
    for (const ir::Instruction& inst : f.block(id).instructions)
      for (const ir::Operand& o : inst.operands)
        if (o.is_variable()) ++variable_uses[o.value()];
  auto load_of = [&](ir::Operand value, const ir::Block& b, BlockId id) -> const ir::Instruction* {
    if (!value.is_register() || regs.uses[value.value()] != 1) return nullptr;
    const Site& d = regs.def[value.value()];
    if (d.block != id || d.index < 0 || b.instructions[d.index].opcode != Opcode::Load) return nullptr;
    return &b.instructions[d.index];
  };
  struct CopyBack {
    ir::Operand temp, target;
    RegisterId load, conversion;  // conversion: invalid for a plain copy
    std::optional<std::size_t> copy_in;
  };
  // The copy back of temporary t at instruction `at` of b: Load T, Store P,
  // or (converted) Load T, an implicit conversion, Store P.
  auto copy_back_at = [&](const ir::Block& b, ir::Operand t, std::size_t at,
                          bool converted) -> std::optional<CopyBack> {
    const std::size_t length = converted ? 3 : 2;
    if (!is_local(t) || at + length > b.instructions.size()) return std::nullopt;
    const ir::Instruction& load = b.instructions[at];
    const ir::Instruction& store = b.instructions[at + length - 1];
    if (load.opcode != Opcode::Load || load.operands[0] != t || regs.uses[load.result.index()] != 1 ||
        store.opcode != Opcode::Store || store.operands[0] == t)
      return std::nullopt;
    CopyBack c{t, store.operands[0], load.result, RegisterId(), std::nullopt};
    if (converted) {
      const ir::Instruction& conversion = b.instructions[at + 1];
      if (!is_conversion(conversion.opcode) || conversion.operands[0] != ir::Operand(load.result) ||
          regs.uses[conversion.result.index()] != 1 ||
          !implicit_conversion(ctx, m.reg(load.result).type, m.reg(conversion.result).type))
        return std::nullopt;
      c.conversion = conversion.result;
    }
    if (store.operands[1] != ir::Operand(converted ? c.conversion : c.load)) return std::nullopt;
    return c;
  };
  // Whether the call at k may name the target in T's place: T is used only
  // by its copy in (if any), the call and its copy back, and the target's
  // pointer is computed before both.
  // Records the copy in (c.copy_in) as it finds it.
  auto may_write_in_place = [&](const ir::Block& b, BlockId id, std::size_t k, CopyBack& c) {
    // The copy in: Store T (Load P) with nothing effectful but other
    // copies in between it and the call.
    for (std::size_t i = k; i-- > 0;) {
      const ir::Instruction& s = b.instructions[i];
      if (s.opcode == Opcode::Store && s.operands[0] == c.temp) {
        const ir::Instruction* in = load_of(s.operands[1], b, id);
        if (in && in->operands[0] == c.target) c.copy_in = i;
        break;
      }
      const bool other_copy_in =
          s.opcode == Opcode::Store && is_local(s.operands[0]) && load_of(s.operands[1], b, id) != nullptr;
      if (ir::info(s.opcode).has_side_effects && !other_copy_in) break;
    }
    if (variable_uses[c.temp.value()] != (c.copy_in ? 3u : 2u)) return false;
    if (!c.target.is_register()) return true;
    const Site& d = regs.def[c.target.value()];
    return d.block.valid() && (d.block != id || d.index < static_cast<std::int32_t>(c.copy_in.value_or(k)));
  };
  auto write_in_place = [&](const ir::Block& b, const CopyBack& c) {
    vars.argument_target[c.temp.value()] = c.target;
    vars.declared[c.temp.value()] = 1;
    regs.folded[c.load.index()] = 1;
    if (c.conversion.valid()) regs.folded[c.conversion.index()] = 1;
    if (c.copy_in) regs.folded[b.instructions[*c.copy_in].operands[1].value()] = 1;
  };
  // glslang's temporary for the call's value: used by the Store and the
  // Load (if any) beside the call alone, in the whole module.
  auto value_temporary = [&](ir::Operand g, std::uint32_t uses) {
    if (variable_uses[g.value()] != uses || is_parameter(g)) return false;
    if (!ctx.is_global[g.value()]) return true;
    // This function names g, so no other one may.
    return m.type(m.variable(g.as_variable()).type).storage == ir::StorageClass::Private &&
           !ctx.shared_by_functions[g.value()];
  };
  for (BlockId id : reachable) {
    const ir::Block& b = f.block(id);
    const std::size_t n = b.instructions.size();
    for (std::size_t k = 0; k < n; ++k) {
      const ir::Instruction& call = b.instructions[k];
      if (!writes_through_temporaries(call.opcode)) continue;
      std::size_t next = k + 1;  // the next copy back
      for (const ir::Operand& t : call.operands) {
        auto c = copy_back_at(b, t, next, false);
        if (!c) continue;  // passed directly (or converted, below)
        next += 2;
        if (may_write_in_place(b, id, k, *c)) write_in_place(b, *c);
      }
      // glslang's out arguments of another type: G = call; P = conv(T) for
      // each; then Load G, the call's value in its expression.
      ir::Operand value_store;
      if (call.result.valid()) {
        const ir::Instruction* s = next < n ? &b.instructions[next] : nullptr;
        if (!s || s->opcode != Opcode::Store || s->operands[1] != ir::Operand(call.result) ||
            !s->operands[0].is_variable() || regs.uses[call.result.index()] != 1)
          continue;
        value_store = s->operands[0];
        ++next;
      }
      std::vector<CopyBack> converted;
      bool all_in_place = true;
      for (const ir::Operand& t : call.operands) {
        auto c = copy_back_at(b, t, next, true);
        if (!c) continue;
        next += 3;
        all_in_place = all_in_place && may_write_in_place(b, id, k, *c) && !c->copy_in;
        converted.push_back(*c);
      }
      if (converted.empty() || !all_in_place) continue;
      if (call.result.valid()) {
        const bool loaded = next < n && b.instructions[next].opcode == Opcode::Load &&
                            b.instructions[next].operands[0] == value_store;
        if (!value_temporary(value_store, loaded ? 2u : 1u)) continue;
        vars.return_temporary[value_store.value()] = call.result;
        vars.declared[value_store.value()] = 1;
      }
      for (const CopyBack& c : converted) write_in_place(b, c);
    }
  }
}

void find_split_coordinates(const EmitContext& ctx, const ir::Function& f, std::span<const BlockId> reachable,
                            RegisterFacts& regs) {
  const ir::Module& m = ctx.m;
  // The Extract of a single-use register `o` defined in block `id`.
  auto extract_of = [&](ir::Operand o, BlockId id, Opcode op) -> const ir::Instruction* {
    if (!o.is_register() || regs.uses[o.value()] != 1) return nullptr;
    const Site& d = regs.def[o.value()];
    if (d.block != id || d.index < 0) return nullptr;
    const ir::Instruction& e = f.block(id).instructions[d.index];
    return e.opcode == op && e.operands[0].is_register() ? &e : nullptr;
  };
  struct Split {
    RegisterId vector, coordinate, dref;  // dref invalid without a comparison
  };
  std::vector<Split> found;
  for (BlockId id : reachable) {
    for (const ir::Instruction& inst : f.block(id).instructions) {
      const std::uint16_t flags = inst.aux;
      const bool compare = flags & ir::kTextureCompare, proj = flags & ir::kTextureProj;
      if (inst.opcode != Opcode::Texture || !(compare || proj) || (flags & ir::kTextureGather) ||
          inst.operands.size() < (compare ? 3u : 2u))
        continue;
      // GLSL's cube-array and 1D shadow forms do not take the plain vector.
      const ir::TypeId sampled_type = m.type_of(inst.operands[0]);
      if (!sampled_type.valid() || m.type(sampled_type).kind != ir::TypeKind::SampledImage) continue;
      const ir::ImageDescriptor& image = m.type(m.type(sampled_type).element).image;
      if (compare && ((image.dim == ir::ImageDim::Cube && image.arrayed) ||
                      (image.dim == ir::ImageDim::Dim1D && !image.arrayed)))
        continue;
      const ir::Instruction* c = extract_of(inst.operands[1], id, Opcode::ExtractVectorComponentMulti);
      const ir::Instruction* d = compare ? extract_of(inst.operands[2], id, Opcode::ExtractVectorComponent) : nullptr;
      if (!c || (compare && (!d || c->operands[0] != d->operands[0]))) continue;
      const RegisterId v = c->operands[0].as_register();
      const std::uint32_t n = ir::component_count(m, m.reg(c->result).type),
                          vector_size = ir::component_count(m, m.reg(v).type);
      // The vector's components in their order, the depth reference's
      // among them: (c0 .. cn-1, dref), or for textureProj (c0 .. cn-2,
      // [dref or unused], q), q being the vec4's last.
      if (vector_size != (proj ? 4u : n + 1) || c->operands.size() != n + 1) continue;
      bool in_order = true;
      for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t expected = proj && i + 1 == n ? vector_size - 1 : i;
        in_order = in_order && c->operands[1 + i].is_literal() && c->operands[1 + i].value() == expected;
      }
      const std::uint32_t dref_index = proj ? n - 1 : n;
      if (d && (!d->operands[1].is_literal() || d->operands[1].value() != dref_index)) continue;
      if (proj && compare && n != 3) continue;  // the one projective depth comparison GLSL has: vec4(s, t, dref, q)
      if (in_order) found.push_back({v, c->result, d ? d->result : RegisterId()});
    }
  }
  if (found.empty()) return;
  // The vector must have no other use (uses saturates at 2: count exactly).
  std::unordered_map<std::uint32_t, std::uint32_t> vector_uses;
  for (const Split& s : found) vector_uses[s.vector.index()] = 0;
  for (BlockId id : reachable)
    for (const ir::Instruction& inst : f.block(id).instructions)
      ir::for_each_register_use(inst, [&](RegisterId r) {
        if (auto it = vector_uses.find(r.index()); it != vector_uses.end()) ++it->second;
      });
  for (const Split& s : found) {
    if (vector_uses[s.vector.index()] != (s.dref.valid() ? 2u : 1u)) continue;
    if (!s.dref.valid()) {
      regs.split_coordinate[s.coordinate.index()] = kSplitVector;
      continue;
    }
    const bool coordinate_last = regs.def[s.coordinate.index()].index > regs.def[s.dref.index()].index;
    regs.split_coordinate[s.coordinate.index()] = coordinate_last ? kSplitVector : kSplitUncounted;
    regs.split_coordinate[s.dref.index()] = coordinate_last ? kSplitUncounted : kSplitVector;
  }
}

}  // namespace sluice::glsl_out
