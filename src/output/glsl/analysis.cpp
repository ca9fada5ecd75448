// The per-function analysis. Visibility follows GLSL scoping of the output:
// a definition is visible later in its own block and in the blocks visited
// after it until its chain's scope ends (the next sibling chain, or the
// construct's merge block). A Loop's condition chain shares the loop's
// braces with the body, so its scope ends at the loop's merge block. That
// scope holds every use valid IR makes (docs/ir.md, "Dominance in the
// tree"), and emit() validates first, so nothing here re-checks ids,
// shapes or scopes.
#include "output/glsl/analysis.h"

#include <unordered_map>

#include <fmt/format.h>

#include "ir/operands.h"
#include "ir/traversal.h"
#include "output/glsl/expressions.h"
#include "output/glsl/source_forms.h"
#include "output/glsl/types.h"

namespace sluice::glsl_out {

using ir::BlockId;
using ir::Opcode;
using ir::RegisterId;

namespace {

class Analyser {
 public:
  Analyser(EmitContext& ctx, const ir::Function& f, RegisterFacts& regs, VariableFacts& vars)
      : ctx_(ctx), m_(ctx.m), f_(f), regs_(regs), vars_(vars) {}

  FunctionAnalysis run() {
    a_.contexts = ir::compute_block_contexts(f_);
    a_.order.assign(f_.blocks.size(), UINT32_MAX);
    a_.scope_end.assign(f_.blocks.size(), UINT32_MAX);
    a_.loop_init.assign(f_.blocks.size(), ir::VariableId{});
    order_blocks();
    compute_scopes();
    if (!define_registers()) return std::move(a_);
    find_compound_assignments();
    find_chained_assignments();
    find_implicit_splats(ctx_, f_, a_.reachable, regs_);
    find_copy_back_arguments(ctx_, f_, a_.reachable, regs_, vars_);
    find_split_coordinates(ctx_, f_, a_.reachable, regs_);
    count_uses();
    analyse_locals();
    return std::move(a_);
  }

 private:
  bool fail(std::string message) {
    ctx_.fail(fmt::format("function '{}': {}", f_.name.text, message));
    return false;
  }

  // Blocks in the pre-order the text follows.
  void order_blocks() {
    ir::visit(f_, [&](const ir::BlockVisit& v, const ir::Block&) {
      a_.order[v.id.index()] = static_cast<std::uint32_t>(a_.reachable.size());
      a_.reachable.push_back(v.id);
      return ir::VisitAction::VisitSubBlocks;
    });
  }

  void compute_scopes() {
    std::vector<std::uint32_t> head_end(f_.blocks.size(), UINT32_MAX);
    for (BlockId id : a_.reachable) {
      const ir::Block& b = f_.block(id);
      const Opcode op = *b.terminator_opcode();
      if (!ir::is_divergent(op)) continue;
      const auto subs = b.sub_blocks();
      for (std::size_t i = 0; i < subs.size(); ++i) {
        std::uint32_t end = i + 1 < subs.size() ? a_.order[subs[i + 1].index()] : a_.order[b.merge.index()];
        if (op == Opcode::Loop && subs[i] == b.loop_condition()) end = a_.order[b.merge.index()];
        head_end[subs[i].index()] = end;
      }
    }
    for (BlockId id : a_.reachable) a_.scope_end[id.index()] = head_end[a_.contexts[id.index()].chain_head.index()];
  }

  // A tessellation control shader writes its per-vertex outputs only at
  // the index gl_InvocationID itself (glslang: "must be indexed with
  // gl_InvocationID"), so its loads are spelled at every use; the input is
  // never written, so every use reads the same value.
  bool loads_invocation_id(const ir::Instruction& inst) const {
    if (inst.opcode != Opcode::Load || !inst.operands[0].is_variable()) return false;
    return m_.variable(inst.operands[0].as_variable()).decorations.built_in == "InvocationId";
  }

  bool define(RegisterId r, Site site, const ir::Instruction* inst) {
    const ir::TypeId t = m_.reg(r).type;
    regs_.def[r.index()] = site;
    regs_.def_sequence[r.index()] = ++sequence_;
    const bool pointer = m_.type(t).kind == ir::TypeKind::Pointer;
    const bool opaque = contains_opaque(ctx_, t);
    if (!inst && (pointer || opaque))
      return fail(fmt::format("merge input r{} holds a pointer or opaque value, which GLSL cannot store",
                              r.index()));
    regs_.must_inline[r.index()] =
        pointer || opaque || (inst && (inst->opcode == Opcode::Alias || loads_invocation_id(*inst)));
    registers_.push_back(r);
    return true;
  }

  bool define_registers() {
    for (BlockId id : a_.reachable) {
      const ir::Block& b = f_.block(id);
      if (b.merge_input.valid() && !define(b.merge_input, Site{id, kBlockEntry}, nullptr)) return false;
      for (std::size_t i = 0; i < b.instructions.size(); ++i) {
        const ir::Instruction& inst = b.instructions[i];
        // Defined earlier in this block (a definition precedes its uses).
        ir::for_each_register_use(inst, [&](RegisterId r) {
          if (regs_.def[r.index()].block == id) regs_.used_in_def_block[r.index()] = 1;
        });
        if (inst.result.valid() && !define(inst.result, Site{id, static_cast<std::int32_t>(i)}, &inst)) return false;
      }
    }
    return true;
  }

  const ir::Instruction& def_instruction(RegisterId r) const {
    const Site& s = regs_.def[r.index()];
    return f_.block(s.block).instructions[s.index];
  }

  // Load L; V = L op X; Store P V -> "P op= X" when nothing in between has a
  // side effect (so the emitter never has to name L or V on the way).
  void find_compound_assignments() {
    for (RegisterId r : registers_) regs_.uses[r.index()] = 0;
    for (BlockId id : a_.reachable)
      for (const ir::Instruction& inst : f_.block(id).instructions)
        ir::for_each_register_use(inst, [&](RegisterId r) {
          if (regs_.uses[r.index()] < 2) ++regs_.uses[r.index()];
        });
    for (BlockId id : a_.reachable) {
      const ir::Block& b = f_.block(id);
      for (std::size_t s = 0; s < b.instructions.size(); ++s) {
        const ir::Instruction& store = b.instructions[s];
        if (store.opcode != Opcode::Store || store.operands.size() != 2 || !store.operands[1].is_register()) continue;
        const RegisterId v = store.operands[1].as_register();
        const Site vs = regs_.def[v.index()];
        if (vs.block != id || vs.index < 0 || regs_.uses[v.index()] != 1) continue;
        const ir::Instruction& op = b.instructions[vs.index];
        if (op.operands.size() != 2 || !op.operands[0].is_register() ||
            compound_operator(ctx_, op.opcode, m_.reg(v).type).empty())
          continue;
        const RegisterId l = op.operands[0].as_register();
        const Site ls = regs_.def[l.index()];
        if (ls.block != id || ls.index < 0 || regs_.uses[l.index()] != 1) continue;
        const ir::Instruction& load = b.instructions[ls.index];
        if (load.opcode != Opcode::Load || load.operands[0] != store.operands[0]) continue;
        // `p op= x` evaluates x before it reads p (a front end lowers it so).
        if (computed_after(op.operands[1], id, ls.index)) continue;
        bool quiet = true;
        for (std::size_t k = ls.index + 1; k < s && quiet; ++k)
          quiet = !ir::info(b.instructions[k].opcode).has_side_effects;
        if (!quiet) continue;
        regs_.compound_load[l.index()] = 1;
        regs_.compound_value[v.index()] = 1;
      }
    }
  }

  // Whether `x` is computed in block `id` after instruction `index`, looking
  // through a splat of a scalar (which a front end makes after its operands).
  bool computed_after(ir::Operand x, BlockId id, std::int32_t index) const {
    if (!x.is_register()) return false;
    const Site& d = regs_.def[x.value()];
    if (d.block != id || d.index <= index) return false;
    const ir::Instruction& inst = def_instruction(x.as_register());
    if (inst.opcode == Opcode::ConstructVectorFromScalar) return computed_after(inst.operands[0], id, index);
    return true;
  }

  // R stored by Stores that follow each other (only pointer computations
  // between them): a chained assignment `p2 = p1 = R` uses R once.
  void find_chained_assignments() {
    // Exact use counts (regs_.uses saturates at 2) of the registers stored.
    std::unordered_map<std::uint32_t, std::size_t> stored_uses;
    for (BlockId id : a_.reachable)
      for (const ir::Instruction& inst : f_.block(id).instructions)
        if (inst.opcode == Opcode::Store && inst.operands[1].is_register()) stored_uses[inst.operands[1].value()] = 0;
    for (BlockId id : a_.reachable)
      for (const ir::Instruction& inst : f_.block(id).instructions)
        ir::for_each_register_use(inst, [&](RegisterId r) {
          if (auto it = stored_uses.find(r.index()); it != stored_uses.end()) ++it->second;
        });
    for (BlockId id : a_.reachable) {
      const ir::Block& b = f_.block(id);
      for (std::size_t s = 0; s < b.instructions.size(); ++s) {
        const ir::Instruction& first = b.instructions[s];
        if (first.opcode != Opcode::Store || !first.operands[1].is_register()) continue;
        const RegisterId r = first.operands[1].as_register();
        if (regs_.must_inline[r.index()] || regs_.compound_value[r.index()] || regs_.chained_stores[r.index()]) continue;
        std::size_t count = 1, k = s + 1;
        for (; k < b.instructions.size(); ++k) {
          const ir::Instruction& next = b.instructions[k];
          if (next.result.valid() && regs_.must_inline[next.result.index()] && !ir::info(next.opcode).has_side_effects)
            continue;
          if (next.opcode != Opcode::Store || next.operands[1] != first.operands[1]) break;
          ++count;
        }
        if (count < 2 || count > 255 || stored_uses[r.index()] != count) continue;  // other uses: a temporary anyway
        regs_.chained_stores[r.index()] = static_cast<std::uint8_t>(count);
      }
    }
  }

  void add_use(RegisterId r, Site use) {
    std::vector<RegisterId>& stack = use_stack_;
    stack.assign(1, r);
    while (!stack.empty()) {
      const RegisterId y = stack.back();
      stack.pop_back();
      const Site& def = regs_.def[y.index()];
      if (regs_.uses[y.index()] == 0) regs_.first_use[y.index()] = use;
      if (regs_.uses[y.index()] < 2) ++regs_.uses[y.index()];
      if (!regs_.must_inline[y.index()] || def.index == kBlockEntry) continue;
      // A pointer is spelled again at each use, and with it its operands
      // (defined before it: valid IR uses only dominating definitions).
      ir::for_each_register_use(def_instruction(y), [&](RegisterId z) { stack.push_back(z); });
    }
  }

  // A Store of a value stored by a chained assignment (`b = a = v`), which
  // cannot also declare its variable.
  bool stores_chained_value(const Site& s) const {
    const ir::Instruction& store = f_.block(s.block).instructions[s.index];
    return store.operands[1].is_register() && regs_.chained_stores[store.operands[1].value()];
  }

  // The copies of a copy-back argument and the Store and Load of glslang's
  // temporary for the call's value (source_forms.h).
  bool writes_nothing(const ir::Instruction& inst) const {
    return (inst.result.valid() && regs_.folded[inst.result.index()]) ||
           (inst.opcode == Opcode::Store && inst.operands[1].is_register() && regs_.folded[inst.operands[1].value()]) ||
           ((inst.opcode == Opcode::Store || inst.opcode == Opcode::Load) && inst.operands[0].is_variable() &&
            vars_.return_temporary[inst.operands[0].value()].valid());
  }

  bool last_of_chain(BlockId id, std::size_t index) const {
    const ir::Block& b = f_.block(id);
    const ir::Operand value = b.instructions[index].operands[1];
    for (std::size_t k = index + 1; k < b.instructions.size(); ++k) {
      const ir::Instruction& next = b.instructions[k];
      if (next.opcode == Opcode::Store && next.operands[1] == value) return false;
      if (!(next.result.valid() && regs_.must_inline[next.result.index()])) return true;
    }
    return true;
  }

  void count_uses() {
    for (RegisterId r : registers_) regs_.uses[r.index()] = 0;
    for (BlockId id : a_.reachable) {
      const ir::Block& b = f_.block(id);
      for (std::size_t i = 0; i < b.instructions.size(); ++i) {
        const ir::Instruction& inst = b.instructions[i];
        // A pointer's operands are used where the pointer is (add_use).
        if (inst.result.valid() && regs_.must_inline[inst.result.index()]) continue;
        const bool compound_load = inst.result.valid() && regs_.compound_load[inst.result.index()];
        // All but the last of a chain of Stores of one register write no
        // text of their own (the last spells the chain).
        const bool chained = inst.opcode == Opcode::Store && inst.operands[1].is_register() &&
                             regs_.chained_stores[inst.operands[1].value()] && !last_of_chain(id, i);
        // The copies of a copy-back argument write nothing; the call uses
        // the argument in the temporary's place, and its value is used
        // where glslang's temporary for it is loaded.
        if (const RegisterId call = loaded_call_value(vars_, inst); call.valid())
          add_use(call, Site{id, static_cast<std::int32_t>(i)});
        if (writes_nothing(inst)) continue;
        // A split coordinate's vector is used once (source_forms.h).
        if (inst.result.valid() && regs_.split_coordinate[inst.result.index()] == kSplitUncounted) continue;
        for (std::size_t k = 0; k < inst.operands.size(); ++k) {
          ir::Operand o = inst.operands[k];
          if (o.is_variable() && vars_.argument_target[o.value()]) o = *vars_.argument_target[o.value()];
          if (!o.is_register() || (compound_load && k == 0) || (chained && k == 1)) continue;
          add_use(o.as_register(), Site{id, static_cast<std::int32_t>(i)});
        }
      }
    }
  }

  void analyse_locals() {
    for (const ir::FunctionParam& p : f_.params) vars_.is_parameter[p.variable.index()] = 1;
    for (BlockId id : a_.reachable) {
      for (ir::VariableId v : f_.block(id).declarations) {
        vars_.declared_in[v.index()] = id;
        a_.locals.push_back(v);
      }
    }
    for (BlockId id : a_.reachable) {
      const ir::Block& b = f_.block(id);
      const std::uint32_t order = a_.order[id.index()];
      for (std::size_t i = 0; i < b.instructions.size(); ++i) {
        const ir::Instruction& inst = b.instructions[i];
        if (writes_nothing(inst)) continue;
        for (std::size_t k = 0; k < inst.operands.size(); ++k) {
          ir::Operand o = inst.operands[k];
          if (o.is_variable() && vars_.argument_target[o.value()]) o = *vars_.argument_target[o.value()];
          if (!o.is_variable() || ctx_.is_global[o.value()] || vars_.is_parameter[o.value()]) continue;
          const std::uint32_t v = o.value();
          const Site use{id, static_cast<std::int32_t>(i)};
          if (vars_.first_order[v] == UINT32_MAX) {
            vars_.first_order[v] = order;
            vars_.first_use[v] = use;
            vars_.first_use_is_store[v] = inst.opcode == Opcode::Store && k == 0;
          }
          vars_.last_order[v] = order;
        }
      }
    }
    for (ir::VariableId v : a_.locals) {
      const std::uint32_t i = v.index();
      const ir::Variable& var = m_.variable(v);
      if (!var.initializer.valid() && vars_.first_use_is_store[i] && vars_.first_use[i].block == vars_.declared_in[i] &&
          !stores_chained_value(vars_.first_use[i]))
        vars_.declare_at_store[i] = vars_.first_use[i].index;
    }
    // A Loop's for-init, as a front end lowers `for (T v = init; c; step)`:
    // v stored just before the Loop, or (with a constant initializer) the
    // last initialized variable the Loop's block declares; either way used
    // nowhere but in the loop.
    for (BlockId id : a_.reachable) {
      const ir::Block& b = f_.block(id);
      // Only `for` loops with a step have a continue block; a `while` keeps
      // its variables before it.
      if (b.terminator_opcode() != Opcode::Loop || !b.loop_continue().valid()) continue;
      const std::uint32_t begin = a_.order[id.index()], end = a_.order[b.merge.index()];
      // v stored by the last instruction before the Loop, used only in the loop.
      ir::VariableId stored;
      if (b.instructions.size() >= 2) {
        const ir::Instruction& last = b.instructions[b.instructions.size() - 2];
        if (last.opcode == Opcode::Store && last.operands[0].is_variable() && !writes_nothing(last) &&
            !stores_chained_value(Site{id, static_cast<std::int32_t>(b.instructions.size() - 2)})) {
          const std::uint32_t v = last.operands[0].value();
          const Site& first = vars_.first_use[v];
          if (!ctx_.is_global[v] && !vars_.is_parameter[v] &&
              !m_.variable(last.operands[0].as_variable()).initializer.valid() && first.block == id &&
              first.index == static_cast<std::int32_t>(b.instructions.size() - 2) && vars_.last_order[v] < end)
            stored = last.operands[0].as_variable();
        }
      }
      // The block's last initialized variable is the for-init's if any is.
      ir::VariableId chosen = stored;
      for (auto it = b.declarations.rbegin(); it != b.declarations.rend(); ++it) {
        const std::uint32_t v = it->index();
        const bool initialized = m_.variable(*it).initializer.valid();
        if (!initialized && vars_.declare_at_store[v] < 0) continue;  // uninitialized: no statement of its own
        const bool constant_ok = initialized && vars_.first_order[v] != UINT32_MAX && vars_.first_order[v] > begin &&
                                 vars_.last_order[v] < end;
        chosen = constant_ok || *it == stored ? *it : ir::VariableId{};
        break;
      }
      if (!chosen.valid()) continue;
      a_.loop_init[id.index()] = chosen;
      vars_.for_init_of[chosen.index()] = id;
      vars_.declare_at_store[chosen.index()] = -1;
    }
  }

  EmitContext& ctx_;
  const ir::Module& m_;
  const ir::Function& f_;
  RegisterFacts& regs_;
  VariableFacts& vars_;
  FunctionAnalysis a_;
  std::vector<RegisterId> registers_;
  std::vector<RegisterId> use_stack_;  // add_use's, kept to reuse its memory
  std::uint32_t sequence_ = 0;
};

}  // namespace

FunctionAnalysis analyse_function(EmitContext& ctx, const ir::Function& f, RegisterFacts& regs, VariableFacts& vars) {
  return Analyser(ctx, f, regs, vars).run();
}

}  // namespace sluice::glsl_out
