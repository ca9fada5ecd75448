// Inlining of IR functions. A call `r = Call g (args)` becomes:
//
//   head:   Declare: fresh copies of g's parameters
//           Store p_in a                     (in: the value)
//           t = Load a; Store p_inout t      (inout: copy in)
//           DoLoop
//     body:      a copy of g's blocks, fresh registers and variables,
//                every `Return v` turned into `Break v`
//     condition: LoopIf true (false when g returns nothing)
//   merge:  Input: the return value
//           t = Load p_out; Store a t        (out, inout: copy back)
//           r = Alias <input>                (the call's register stays)
//           ... the rest of the caller's block
//
// The DoLoop is entered once and left only by the Breaks, so the loop
// merge input carries the return value (docs/ir.md, "Merge inputs");
// simplify-control-flow, run at the end of this pass, removes the wrapper when the
// callee returned only at its end. GLSL semantics are kept: arguments are
// copied in and out, never aliased.
//
// Not inlined: recursive functions (a cycle in the call graph), functions
// that return from inside a loop or switch (a Break there would leave the
// inner construct, not the inlined body), calls over a budget, and calls in
// a loop's continue block or DoLoop condition to functions that discard or
// reach Unreachable: SPIR-V's continue construct may not end the invocation
// (its back-edge block must post-dominate the continue target; docs/ir.md,
// "SPIR-V output"), while a call there may (SPIR-V readers meet such calls:
// GraphicsFuzz's cov-wrap-op-kill-* scripts). A block the pass split
// (after an inlined call) is in a continue construct when the block it was
// split from was.
//
// Budgets (InlineOptions): inlining alone can grow a module exponentially
// (f_k calling f_{k-1} twice doubles at each level), so before a call
// site's copy is made, its cost (the callee's final size plus the copies
// of its parameters) is checked against what the caller and the module may
// still take; a call that does not fit stays a call (valid IR either way,
// outputs handle calls). The module's budget is fixed when the pass starts:
// max(before * max_module_growth, before + module_growth_slack), capped by
// max_module_instructions. This is the usual bottom-up inliner with a
// growth limit, as in LLVM's inline cost model and GCC's
// inline-unit-growth (--param inline-unit-growth, a percentage of the
// unit's size) — here kept deliberately simple: no profitability model,
// GLSL has no recursion and outputs want calls gone when they fit.
//
// Algorithm: a depth-first walk of the call graph with an explicit stack
// gives callees before callers and marks every function on a cycle; each
// function is then transformed once with transform_block, and each call
// site copies an already final callee. The work is linear in the size of
// the output, which the budgets bound by a constant factor of the input.
#include <algorithm>
#include <unordered_map>

#include "ir/operands.h"
#include "ir/structure.h"
#include "ir/traversal.h"
#include "ir/typing.h"
#include "transform/passes.h"
#include "transform/transformer.h"

namespace sluice::transform {

using namespace ir;

namespace {

std::vector<FunctionId> callees(const Function& f) {
  std::vector<FunctionId> out;
  if (!f.entry.valid()) return out;
  visit(f, [&](const BlockVisit&, const Block& b) {
    for (const Instruction& inst : b.instructions)
      if (inst.opcode == Opcode::Call && !inst.operands.empty() && inst.operands[0].is_function())
        out.push_back(inst.operands[0].as_function());
    return VisitAction::VisitSubBlocks;
  });
  return out;
}

class Inliner {
 public:
  Inliner(Module& m, const InlineOptions& options)
      : m_(m), options_(options), recursive_(m.function_count()), inlinable_(m.function_count()),
        ends_invocation_(m.function_count()), size_(m.function_count()) {}

  PassResult run() {
    const std::vector<FunctionId> order = callees_first();
    for (FunctionId f : order) inlinable_[f.index()] = can_inline(f);
    for (FunctionId f : order) ends_invocation_[f.index()] = ends_invocation(m_.function(f));
    std::size_t total = 0;
    for (FunctionId f : order) total += size_[f.index()];
    const std::size_t budget =
        std::max(total, std::min(options_.max_module_instructions,
                                 std::max(total * options_.max_module_growth, total + options_.module_growth_slack)));
    bool changed = false;
    for (FunctionId f : order) {
      bool here = false;
      std::vector<bool> in_continue = continue_construct_blocks(m_.function(f));
      auto s = transform_block(m_, f, m_.function(f).entry, [&](InstructionSite& site, const Instruction& inst) -> Transforms {
        if (inst.opcode != Opcode::Call || inst.operands.empty() || !inst.operands[0].is_function()) return {};
        const FunctionId callee = inst.operands[0].as_function();
        if (callee.index() >= m_.function_count() || callee == f || !inlinable_[callee.index()]) return {};
        if (ends_invocation_[callee.index()] &&
            (site.block.index() >= in_continue.size() || in_continue[site.block.index()]))
          return {};
        // The budgets, before anything is copied: the callee's body, its
        // parameters' copies in and out, and the DoLoop wrapper.
        const std::size_t cost = size_[callee.index()] + 3 * m_.function(callee).params.size() + 3;
        if (size_[f.index()] + cost > options_.max_function_instructions || total + cost > budget) return {};
        if (!well_formed_call(callee, inst)) return {};
        auto head = inline_call(f, callee, inst);
        if (!head) return {};
        // The rest of the block goes on in the chain's last block (add_block).
        const Function& fn = m_.function(f);
        const BlockId last = ir::chain_end(fn, *head);
        if (in_continue.size() < fn.blocks.size()) in_continue.resize(fn.blocks.size());
        in_continue[last.index()] = site.block.index() >= in_continue.size() || in_continue[site.block.index()];
        size_[f.index()] += cost;
        total += cost;
        here = true;
        return {Transform::add_block(*head)};
      });
      if (!s) return s.failure();
      changed = changed || here;
    }
    if (changed) {
      if (auto r = simplify_control_flow(m_); !r) return r;
    }
    return changed;
  }

 private:
  // Post-order of the call graph; functions on a cycle are marked recursive.
  std::vector<FunctionId> callees_first() {
    enum : std::uint8_t { Unseen, Open, Done };
    std::vector<std::uint8_t> state(m_.function_count(), Unseen);
    std::vector<FunctionId> order;
    struct Frame {
      FunctionId f;
      std::vector<FunctionId> next;
      std::size_t i = 0;
    };
    for (std::uint32_t root = 0; root < m_.function_count(); ++root) {
      if (state[root] != Unseen) continue;
      std::vector<Frame> stack;
      stack.push_back(Frame{FunctionId(root), callees(m_.function(FunctionId(root))), 0});
      state[root] = Open;
      while (!stack.empty()) {
        Frame& top = stack.back();
        if (top.i == top.next.size()) {
          state[top.f.index()] = Done;
          order.push_back(top.f);
          size_[top.f.index()] = count_instructions(m_.function(top.f));
          stack.pop_back();
          continue;
        }
        const FunctionId g = top.next[top.i++];
        if (g.index() >= m_.function_count()) continue;
        if (state[g.index()] == Open) {
          // A cycle: every function from g up to here is on it.
          for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
            recursive_[it->f.index()] = true;
            if (it->f == g) break;
          }
          continue;
        }
        if (state[g.index()] == Done) continue;
        state[g.index()] = Open;
        stack.push_back(Frame{g, callees(m_.function(g)), 0});
      }
    }
    return order;
  }

  static std::size_t count_instructions(const Function& f) {
    std::size_t n = 0;
    if (f.entry.valid()) visit(f, [&](const BlockVisit&, const Block& b) {
        n += b.instructions.size();
        return VisitAction::VisitSubBlocks;
      });
    return n;
  }

  // The blocks of SPIR-V's continue constructs, as the SPIR-V output counts
  // them: a loop's continue chain, a DoLoop's condition chain and every
  // block nested in either (compute_block_contexts' pre-order walk).
  static std::vector<bool> continue_construct_blocks(const Function& f) {
    std::vector<bool> in(f.blocks.size());
    if (!f.entry.valid()) return in;
    visit(f, [&](const BlockVisit& v, const Block& b) {
      const auto op = b.terminator_opcode();
      if (!op || !is_divergent(*op)) return VisitAction::VisitSubBlocks;
      const bool here = in[v.id.index()];
      if (b.merge.valid() && b.merge.index() < in.size()) in[b.merge.index()] = here;
      for (auto [sub, kind] : b.sub_blocks_with_kind())
        if (sub.valid() && sub.index() < in.size())
          in[sub.index()] = here || kind == BlockKind::LoopContinue ||
                            (kind == BlockKind::LoopCondition && *op == Opcode::DoLoop);
      return VisitAction::VisitSubBlocks;
    });
    return in;
  }

  static bool ends_invocation(const Function& f) {
    bool ends = false;
    if (f.entry.valid()) visit(f, [&](const BlockVisit&, const Block& b) {
        const auto op = b.terminator_opcode();
        ends = ends || op == Opcode::Discard || op == Opcode::Unreachable;
        return ends ? VisitAction::Stop : VisitAction::VisitSubBlocks;
      });
    return ends;
  }

  bool can_inline(FunctionId id) {
    const Function& f = m_.function(id);
    if (recursive_[id.index()] || !f.entry.valid()) return false;
    const auto ctx = compute_block_contexts(f);
    bool ok = true;
    visit(f, [&](const BlockVisit& v, const Block& b) {
      const auto op = b.terminator_opcode();
      if (op == Opcode::Return && (ctx[v.id.index()].break_target.valid() || ctx[v.id.index()].loop.valid())) {
        ok = false;
        return VisitAction::Stop;
      }
      return VisitAction::VisitSubBlocks;
    });
    return ok;
  }

  // Argument count and result type as the callee declares them; out/inout
  // arguments are pointers. (The validator checks this; here it only keeps
  // malformed IR from being copied.)
  bool well_formed_call(FunctionId callee, const Instruction& call) const {
    const Function& g = m_.function(callee);
    if (call.operands.size() != g.params.size() + 1) return false;
    if (call.result.valid() && m_.reg(call.result).type != g.return_type) return false;
    for (std::size_t i = 0; i < g.params.size(); ++i) {
      const Operand a = call.operands[i + 1];
      if (g.params[i].direction != ParamDirection::In && !is_pointer(m_, m_.type_of(a))) return false;
    }
    return true;
  }

  // Builds the inlined chain in `caller` and returns its head block.
  std::optional<BlockId> inline_call(FunctionId caller, FunctionId callee, const Instruction& call) {
    const Function& g = m_.function(callee);
    const Operand* args = call.operands.data() + 1;
    std::unordered_map<std::uint32_t, VariableId> variables;
    std::unordered_map<std::uint32_t, RegisterId> registers;
    std::unordered_map<std::uint32_t, BlockId> blocks;
    auto copy_variable = [&](VariableId v) {
      auto [it, fresh] = variables.try_emplace(v.index());
      if (fresh) {
        Variable copy = m_.variable(v);
        it->second = m_.add_variable(std::move(copy));
      }
      return it->second;
    };
    auto copy_register = [&](RegisterId r) {
      auto [it, fresh] = registers.try_emplace(r.index());
      if (fresh) {
        const RegisterInfo info = m_.reg(r);
        it->second = m_.new_register(info.type, info.precision);
      }
      return it->second;
    };
    std::vector<BlockId> order;
    visit(g, [&](const BlockVisit& v, const Block&) {
      order.push_back(v.id);
      return VisitAction::VisitSubBlocks;
    });
    // Block ids first: adding blocks may move the caller's table, never the callee's.
    for (BlockId b : order) blocks[b.index()] = m_.function(caller).add_block();
    const BlockId head = m_.function(caller).add_block();
    const BlockId condition = m_.function(caller).add_block();
    const BlockId merge = m_.function(caller).add_block();

    std::vector<Instruction> prologue, epilogue;
    std::vector<VariableId> declared;
    auto emit = [&](std::vector<Instruction>& out, Opcode op, std::initializer_list<Operand> ops) -> RegisterId {
      auto inst = make(m_, op, std::span<const Operand>(ops.begin(), ops.size()));
      if (!inst) return {};
      out.push_back(*inst);
      return inst->result;
    };
    for (std::size_t i = 0; i < g.params.size(); ++i) {
      const FunctionParam& p = g.params[i];
      const VariableId local = copy_variable(p.variable);
      declared.push_back(local);
      if (p.direction == ParamDirection::In) {
        emit(prologue, Opcode::Store, {local, args[i]});
      } else {
        if (p.direction == ParamDirection::InOut) emit(prologue, Opcode::Store, {local, emit(prologue, Opcode::Load, {args[i]})});
        emit(epilogue, Opcode::Store, {args[i], emit(epilogue, Opcode::Load, {local})});
      }
    }

    auto map_operand = [&](Operand o) {
      if (o.is_register()) {
        auto it = registers.find(o.value());
        return it == registers.end() ? o : Operand(it->second);
      }
      if (o.is_variable()) {
        auto it = variables.find(o.value());
        return it == variables.end() ? o : Operand(it->second);
      }
      return o;
    };
    auto map_block = [&](BlockId b) {
      auto it = b.valid() ? blocks.find(b.index()) : blocks.end();
      return it == blocks.end() ? BlockId{} : it->second;
    };
    // Definitions first, so that every use finds its fresh register.
    for (BlockId b : order) {
      const Block& src = g.block(b);
      if (src.merge_input.valid()) copy_register(src.merge_input);
      for (const Instruction& inst : src.instructions)
        if (inst.result.valid()) copy_register(inst.result);
    }
    for (BlockId b : order) {
      Block copy = g.block(b);  // g's table does not move: only the caller's grows
      for (VariableId& v : copy.declarations) v = copy_variable(v);
      if (copy.merge_input.valid()) copy.merge_input = registers[copy.merge_input.index()];
      for (Instruction& inst : copy.instructions) {
        if (inst.result.valid()) inst.result = registers[inst.result.index()];
        rewrite_operands(inst, map_operand);
        if (inst.opcode == Opcode::Return) inst.opcode = Opcode::Break;
      }
      for (BlockId& s : copy.sub_blocks_storage) s = map_block(s);
      for (BlockId& s : copy.case_blocks) s = map_block(s);
      copy.merge = map_block(copy.merge);
      m_.function(caller).block(blocks[b.index()]) = std::move(copy);
    }

    Function& f = m_.function(caller);
    const bool returns_value = g.return_type.valid() && g.return_type != predefined::kVoid;
    Block& h = f.block(head);
    h.declarations = declared;
    h.instructions = std::move(prologue);
    h.instructions.emplace_back();
    h.instructions.back().opcode = Opcode::DoLoop;
    h.sub_blocks_storage[0] = condition;
    h.sub_blocks_storage[1] = blocks[g.entry.index()];
    h.merge = merge;
    Block& c = f.block(condition);
    c.instructions.emplace_back();
    c.instructions.back().opcode = Opcode::LoopIf;
    c.instructions.back().operands.push_back(returns_value ? predefined::kTrue : predefined::kFalse);
    Block& t = f.block(merge);
    if (returns_value) t.merge_input = m_.new_register(g.return_type, g.return_precision);
    t.instructions = std::move(epilogue);
    if (returns_value && call.result.valid()) {
      auto alias = make_alias(m_, call.result, m_.function(caller).block(merge).merge_input);
      if (!alias) return std::nullopt;
      m_.function(caller).block(merge).instructions.push_back(*alias);
    }
    return head;
  }

  Module& m_;
  InlineOptions options_;
  std::vector<bool> recursive_;
  std::vector<bool> inlinable_;
  std::vector<bool> ends_invocation_;  // the function discards or reaches Unreachable somewhere
  std::vector<std::size_t> size_;
};

}  // namespace

PassResult inline_functions(Module& m, const InlineOptions& options) { return Inliner(m, options).run(); }

}  // namespace sluice::transform
