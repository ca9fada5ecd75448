// loop-exit-in-header, a driver workaround (docs/workarounds.md): a loop
// whose exit test is the first thing its body does becomes a loop whose
// condition is that test, the shape glslang gives `while (c)`.
//
//   Loop                                   Loop
//     condition: LoopIf true                 condition: x' = copies of what c needs
//     body:      x = ... (no side effects)              LoopIf !c'   (c' when the
//                If c { Break } [else E]      ->                      Break is in else)
//                rest                        body:      x = ...; E; rest
//
// NVIDIA's driver 580 hangs on a float-counted loop nested in another loop
// when the inner loop's exit test sits in a selection inside the body
// (docs/testing.md has the reduced shader); with the test in the header the
// same loop runs. Only loops of that shape are rewritten
// (loop_hang_trigger.h decides which): the rewrite costs run time on the
// driver elsewhere (3.2x on bench/gpu/matmul.comp, whose uint-counted loops
// never hang), so loops that cannot hang keep their form.
//
// Conditions, each needed for the rewrite to keep the program's meaning:
//  - the condition block is only `LoopIf true` and the merge block takes no
//    input (a `Break value` cannot become the header's false edge, which
//    carries no value);
//  - the body's first block computes nothing with side effects before its
//    terminating If (otherwise leaving from the header would skip them);
//  - one branch of that If is a single block holding only `Break`;
//  - what the test needs can be computed again in the condition block:
//    pure instructions (no textures: their implicit derivatives), and Loads
//    from memory that nothing writes between the condition and the body's
//    start — the invocation's own Function/Private variables and read-only
//    Input/Uniform/PushConstant/UniformConstant memory — not declared in the
//    body block itself.
// The copies get new registers (a condition block sees only its ancestors'
// values, not the body's); the If's condition becomes the constant that
// never breaks, and simplify-control-flow folds it away; instructions of the body
// that only the test used are dead then, and eliminate-dead-registers drops them
// (workarounds run after -O1's passes, which would otherwise do it).
//
// A loop whose exits do work first (`for (;;) { acc += j; if (j == 0)
// break; ... }`, which hangs the same driver) gets an exit flag instead:
//
//   Store f true                           (before the loop)
//   Loop
//     condition: LoopIf (Load f)
//     body:      ... every Break of this loop becomes Store f false; Continue
//
// valid when the condition is `LoopIf true`, the loop has no continue block
// (Continue then goes straight to the condition, which leaves the loop) and
// its Breaks carry no value. A loop with a continue block keeps its exits:
// its Continue would run the continue block once more.
//
// Algorithm: one read-only walk per function collects the candidate loops;
// each rewrite touches only its loop's condition block and the terminator
// of its body's first block, so the rewrites are independent. Linear.
#include <unordered_map>

#include "ir/operands.h"
#include "ir/predefined.h"
#include "ir/traversal.h"
#include "ir/typing.h"
#include "transform/loop_hang_trigger.h"
#include "transform/passes.h"
#include "transform/pointer_roots.h"
#include "transform/transformer.h"

namespace sluice::transform {

using namespace ir;

namespace {

// Memory only this invocation writes (pointer_roots.h): no other
// invocation changes it between the test's two evaluations.
bool read_only_or_private(const Module& m, VariableId v) { return memory_kind(m, v) != MemoryKind::Shared; }

bool computes_only(Opcode op) {
  return is_pure_computation(op) || (info(op).family == OpcodeFamily::Access && !info(op).has_side_effects);
}

bool only_breaks(const Function& f, BlockId b) {
  if (!b.valid()) return false;
  const Block& block = f.block(b);
  return block.declarations.empty() && block.instructions.size() == 1 &&
         block.instructions[0].opcode == Opcode::Break && block.instructions[0].operands.empty();
}

struct Candidate {
  BlockId loop;                     // the block ending with Loop
  std::vector<std::size_t> needed;  // indices into the body block, in order
  bool break_on_true = true;
  std::vector<BlockId> breaks;      // exit flag: the blocks ending with this loop's Break
};

// The condition block is `LoopIf true` alone and the merge block takes no
// input: what both rewrites need.
bool left_only_by_break(const Function& f, const Block& loop) {
  const Block& cond = f.block(loop.loop_condition());
  if (!cond.declarations.empty() || cond.instructions.size() != 1) return false;
  const Instruction& loop_if = cond.instructions[0];
  return loop_if.opcode == Opcode::LoopIf && loop_if.operands.size() == 1 &&
         loop_if.operands[0] == Operand(predefined::kTrue) && !f.block(loop.merge).merge_input.valid();
}

class ExitTestHoisting {
 public:
  // `prone`: by BlockId, the loops of the hanging shape (hang_prone_loops).
  ExitTestHoisting(Module& m, FunctionId f, std::vector<bool> prone) : m_(m), fid_(f), prone_(std::move(prone)) {}

  Result<bool> run() {
    std::vector<Candidate> candidates;
    visit(m_.function(fid_), [&](const BlockVisit& v, const Block& b) {
      const Instruction* t = b.terminator();
      if (t && t->opcode == Opcode::Loop && prone_[v.id.index()] && left_only_by_break(fn(), b)) {
        if (auto c = candidate(v.id, b)) candidates.push_back(std::move(*c));
        else if (auto e = exit_flag_candidate(v.id, b)) candidates.push_back(std::move(*e));
      }
      return VisitAction::VisitSubBlocks;
    });
    for (const Candidate& c : candidates)
      if (auto r = rewrite(c); !r) return r.failure();
    return !candidates.empty();
  }

 private:
  const Function& fn() const { return m_.function(fid_); }

  // The Breaks that leave this loop: in its body, not inside a nested loop
  // or switch (a Break there leaves that one).
  std::optional<Candidate> exit_flag_candidate(BlockId id, const Block& loop) const {
    const Function& f = fn();
    if (loop.loop_continue().valid()) return std::nullopt;
    Candidate c{id, {}, true, {}};
    std::vector<BlockId> work{loop.loop_body()};
    while (!work.empty()) {
      const Block& b = f.block(work.back());
      const BlockId here = work.back();
      work.pop_back();
      const Instruction* t = b.terminator();
      if (!t) continue;
      if (t->opcode == Opcode::Break) {
        if (!t->operands.empty()) return std::nullopt;
        c.breaks.push_back(here);
      }
      if (!is_divergent(t->opcode)) continue;
      if (t->opcode != Opcode::Loop && t->opcode != Opcode::DoLoop && t->opcode != Opcode::Switch)
        for (BlockId s : b.sub_blocks()) work.push_back(s);
      if (b.merge.valid()) work.push_back(b.merge);
    }
    if (c.breaks.empty()) return std::nullopt;
    return c;
  }

  std::optional<Candidate> candidate(BlockId id, const Block& loop) const {
    const Function& f = fn();
    const Block& body = f.block(loop.loop_body());
    const Instruction* test = body.terminator();
    if (!test || test->opcode != Opcode::If || test->operands.empty() || !test->operands[0].is_register())
      return std::nullopt;
    Candidate c{id, {}, true, {}};
    if (only_breaks(f, body.if_true())) c.break_on_true = true;
    else if (only_breaks(f, body.if_false())) c.break_on_true = false;
    else return std::nullopt;

    // Which instructions of the body block can be recomputed in the
    // condition block (a register defined before the body is visible there).
    std::unordered_map<std::uint32_t, std::size_t> defined_here;  // register -> index
    std::vector<bool> recomputable(body.instructions.size() - 1);
    auto declared_here = [&](VariableId v) {
      for (VariableId d : body.declarations)
        if (d == v) return true;
      return false;
    };
    for (std::size_t i = 0; i + 1 < body.instructions.size(); ++i) {
      const Instruction& inst = body.instructions[i];
      if (info(inst.opcode).has_side_effects) return std::nullopt;  // the test would no longer come first
      bool ok = inst.opcode == Opcode::Load || computes_only(inst.opcode);
      for (const Operand& op : inst.operands) {
        if (op.is_register()) {
          auto it = defined_here.find(op.value());
          if (it != defined_here.end() && !recomputable[it->second]) ok = false;
        } else if (op.is_variable()) {
          if (declared_here(op.as_variable()) || !read_only_or_private(m_, op.as_variable())) ok = false;
        }
      }
      // A Load's pointer must lead back to such a variable: a variable
      // operand, or an Access chain recomputable here (rooted at one).
      if (inst.opcode == Opcode::Load && ok && !inst.operands[0].is_variable())
        ok = inst.operands[0].is_register() && defined_here.count(inst.operands[0].value());
      recomputable[i] = ok;
      if (inst.result.valid()) defined_here[inst.result.index()] = i;
    }

    // The test's dependencies inside the block, marked backwards.
    std::vector<bool> needed(recomputable.size());
    std::vector<std::size_t> work;
    auto need = [&](Operand op) {
      if (!op.is_register()) return true;
      auto it = defined_here.find(op.value());
      if (it == defined_here.end()) return true;  // defined outside the body
      if (!recomputable[it->second]) return false;
      if (!needed[it->second]) {
        needed[it->second] = true;
        work.push_back(it->second);
      }
      return true;
    };
    if (!need(test->operands[0])) return std::nullopt;
    while (!work.empty()) {
      const std::size_t i = work.back();
      work.pop_back();
      for (const Operand& op : body.instructions[i].operands)
        if (!need(op)) return std::nullopt;
    }
    for (std::size_t i = 0; i < needed.size(); ++i)
      if (needed[i]) c.needed.push_back(i);
    return c;
  }

  Status rewrite_with_flag(const Candidate& c) {
    Variable flag;
    flag.name = Name{"loop_again", NameSource::Temporary};
    flag.type = m_.pointer_type(predefined::kBool, StorageClass::Function);
    const VariableId v = m_.add_variable(std::move(flag));
    Block& outer = m_.function(fid_).block(c.loop);
    outer.declarations.push_back(v);
    const Operand set_true[] = {v, predefined::kTrue};
    auto init = make(m_, Opcode::Store, set_true);
    if (!init) return init.failure();
    init->location = m_.function(fid_).block(c.loop).instructions.back().location;
    auto& outer_insts = m_.function(fid_).block(c.loop).instructions;
    outer_insts.insert(outer_insts.end() - 1, std::move(*init));

    const BlockId cond_id = m_.function(fid_).block(c.loop).loop_condition();
    const Operand pointer[] = {v};
    auto load = make(m_, Opcode::Load, pointer);
    if (!load) return load.failure();
    Block& cond = m_.function(fid_).block(cond_id);
    load->location = cond.instructions.back().location;
    cond.instructions.back().operands[0] = load->result;
    cond.instructions.insert(cond.instructions.begin(), std::move(*load));

    const Operand set_false[] = {v, predefined::kFalse};
    for (BlockId b : c.breaks) {
      auto store = make(m_, Opcode::Store, set_false);
      if (!store) return store.failure();
      auto& insts = m_.function(fid_).block(b).instructions;
      store->location = insts.back().location;
      insts.back().opcode = Opcode::Continue;
      insts.insert(insts.end() - 1, std::move(*store));
    }
    return ok();
  }

  Status rewrite(const Candidate& c) {
    if (!c.breaks.empty()) return rewrite_with_flag(c);
    const BlockId cond_id = fn().block(c.loop).loop_condition();
    const BlockId body_id = fn().block(c.loop).loop_body();
    std::vector<Instruction> copies;
    std::unordered_map<std::uint32_t, RegisterId> renamed;
    for (std::size_t i : c.needed) {
      Instruction copy = m_.function(fid_).block(body_id).instructions[i];
      rewrite_operands(copy, [&](Operand op) -> Operand {
        if (!op.is_register()) return op;
        auto it = renamed.find(op.value());
        return it == renamed.end() ? op : Operand(it->second);
      });
      const RegisterId old = copy.result;
      const RegisterId fresh = assign_new_register_to_instruction(m_, copy);
      renamed[old.index()] = fresh;
      copies.push_back(std::move(copy));
    }
    Instruction& test = m_.function(fid_).block(body_id).instructions.back();
    Operand stay = test.operands[0];
    if (auto it = renamed.find(stay.value()); it != renamed.end()) stay = it->second;
    if (c.break_on_true) {
      const Operand operand[] = {stay};
      auto negated = make(m_, Opcode::LogicalNot, operand);
      if (!negated) return negated.failure();
      stay = negated->result;
      copies.push_back(std::move(*negated));
    }
    // The If never breaks now: the header tested the same value.
    m_.function(fid_).block(body_id).instructions.back().operands[0] =
        c.break_on_true ? Operand(predefined::kFalse) : Operand(predefined::kTrue);

    Block& cond = m_.function(fid_).block(cond_id);
    const SourceLocId where = cond.instructions.back().location;
    for (Instruction& copy : copies) copy.location = where;
    cond.instructions.back().operands[0] = stay;
    cond.instructions.insert(cond.instructions.begin(), std::make_move_iterator(copies.begin()),
                             std::make_move_iterator(copies.end()));
    return ok();
  }

  Module& m_;
  FunctionId fid_;
  std::vector<bool> prone_;
};

}  // namespace

PassResult loop_exit_in_header(Module& m) {
  // Decided for every function before any rewrite (the pointer roots are
  // those of the module as it comes).
  std::vector<std::vector<bool>> prone(m.function_count());
  {
    const PointerRoots roots(m);
    const FunctionId entry = m.entry_point();
    for (std::uint32_t i = 0; i < m.function_count(); ++i)
      if (m.function(FunctionId(i)).entry.valid())
        prone[i] = hang_prone_loops(m, FunctionId(i), roots, FunctionId(i) == entry);
  }
  bool changed = false;
  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    if (!m.function(FunctionId(i)).entry.valid()) continue;
    auto r = ExitTestHoisting(m, FunctionId(i), std::move(prone[i])).run();
    if (!r) return r;
    changed = *r || changed;
  }
  if (!changed) return false;
  auto folded = simplify_control_flow(m);
  if (!folded) return folded;
  // The body's own copy of the test is dead now (it may be all that is).
  auto cleaned = eliminate_dead_registers(m);
  if (!cleaned) return cleaned;
  return true;
}

}  // namespace sluice::transform
