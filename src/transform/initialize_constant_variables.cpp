// Variables that only ever hold one constant. A Function local or Private
// global (not a parameter, not a built-in) whose every write is a Store of
// the whole variable with the same constant C (and whose initializer, if
// any, is C) holds C wherever it is read: after a Store it is C, and before
// any Store its value is undefined (GLSL and SPIR-V leave it so), for which
// C is an allowed choice. So the Stores are dropped, C becomes the
// variable's initializer, and a local's declaration moves to its function's
// entry block. Such variables of one function (or Private globals) that
// hold the same constant are the same memory as far as any reader can
// tell, so all their uses go to the first of them (remove-unused-variables
// then drops the others).
//
// Why: glslang writes each indexing of a constant array (`ARR[a]`,
// GraphicsFuzz's large-array scripts) as a Store of the whole constant into
// a fresh "indexable" local and an Access chain into it. For
// exec/cov-function-large-array-max-clamp.amber that is five 256-element
// locals; once the function is inlined their Stores stand inside the
// inliner's once-through DoLoop, and lavapipe (Mesa 22.3.6, LLVM 15) did not
// finish compiling Sluice's shader within the runner's 120 s. Initializers
// alone (five locals) still timed out; one shared local finishes in
// seconds, as the GLSL front end's single array for the same shader did.
// An initializer is written as OpVariable's initializer (SPIR-V) or a
// declaration with a value (GLSL).
//
// Algorithm: pointer_roots.h maps each Access result to its variable; one
// walk over all functions records, per candidate, the constant of its
// whole-variable Stores and drops the candidate at any other write (a
// Store of a non-constant or another constant, a Store through an Access
// chain, an increment, a call argument, an output pointer). Declarations
// move to the entry block; candidates are grouped by (function, constant);
// one transform walk removes the candidates' Stores and points every other
// use at its group's first variable. Linear.
#include <algorithm>
#include <unordered_map>

#include "ir/operands.h"
#include "ir/traversal.h"
#include "transform/passes.h"
#include "transform/pointer_roots.h"
#include "transform/transformer.h"

namespace sluice::transform {

using namespace ir;

namespace {

class ConstantVariables {
 public:
  explicit ConstantVariables(Module& m)
      : m_(m), roots_(m), candidate_(m.variable_count()), value_(m.variable_count()) {}

  PassResult run() {
    const std::vector<bool> parameter = parameter_variables(m_);
    for (std::uint32_t v = 0; v < m_.variable_count(); ++v) {
      const Variable& var = m_.variable(VariableId(v));
      candidate_[v] = !parameter[v] && var.decorations.built_in.empty() && is_invocation_memory(m_, VariableId(v));
      value_[v] = var.initializer;
    }
    for (std::uint32_t i = 0; i < m_.function_count(); ++i) {
      const Function& f = m_.function(FunctionId(i));
      if (!f.entry.valid()) continue;
      visit(f, [&](const BlockVisit&, const Block& b) {
        for (const Instruction& inst : b.instructions) note_uses(inst);
        return VisitAction::VisitSubBlocks;
      });
    }
    bool any = false;
    for (std::uint32_t v = 0; v < candidate_.size(); ++v) {
      // One never stored to nor initialized is replace-uninitialized-loads'.
      candidate_[v] = candidate_[v] && value_[v].valid();
      any = any || candidate_[v];
    }
    if (!any) return false;
    for (std::uint32_t v = 0; v < candidate_.size(); ++v) {
      if (!candidate_[v]) continue;
      changed_ = changed_ || !m_.variable(VariableId(v)).initializer.valid();
      m_.variable(VariableId(v)).initializer = value_[v];
    }
    representative_.resize(m_.variable_count());
    for (std::uint32_t v = 0; v < representative_.size(); ++v) representative_[v] = VariableId(v);
    share(m_.globals());
    hoist_declarations();
    auto swept = for_each_instruction(m_, [&](InstructionSite&, const Instruction& inst) -> Transforms {
      if (inst.opcode == Opcode::Store && inst.operands[0].is_variable() && is_candidate(inst.operands[0])) {
        changed_ = true;
        return {Transform::remove()};
      }
      bool shared = false;
      for (const Operand& o : inst.operands) shared = shared || (is_candidate(o) && representative(o) != o);
      if (!shared) return {};
      changed_ = true;
      Instruction copy = inst;
      for (Operand& o : copy.operands)
        if (is_candidate(o)) o = representative(o);
      return {Transform::add(std::move(copy))};
    });
    if (!swept) return Error{swept.error()};
    return changed_;
  }

 private:
  void note_uses(const Instruction& inst) {
    for_each_operand(inst, [&](const Operand& o, std::size_t k) {
      const VariableId v = roots_.root(o);
      if (!v.valid() || !candidate_[v.index()]) return;
      if (k == 0 && inst.opcode == Opcode::Load) return;
      if (is_chain_base(inst, k)) return;  // the chain's users are checked under the same root
      if (k == 0 && inst.opcode == Opcode::Store && o.is_variable() && inst.operands.size() == 2 &&
          inst.operands[1].is_constant()) {
        const ConstantId c = inst.operands[1].as_constant();
        if (!value_[v.index()].valid()) value_[v.index()] = c;
        if (value_[v.index()] == c) return;
      }
      candidate_[v.index()] = false;
    });
  }

  // A candidate local declared in a nested block is declared in the entry
  // block instead, so its initializer runs once, at the function's start.
  void hoist_declarations() {
    for (std::uint32_t i = 0; i < m_.function_count(); ++i) {
      Function& f = m_.function(FunctionId(i));
      if (!f.entry.valid()) continue;
      std::vector<VariableId> moved;
      for (std::uint32_t b = 0; b < f.blocks.size(); ++b) {
        if (BlockId(b) == f.entry) continue;
        auto& decls = f.blocks[b].declarations;
        auto keep = std::stable_partition(decls.begin(), decls.end(), [&](VariableId v) {
          return v.index() >= candidate_.size() || !candidate_[v.index()];
        });
        changed_ = changed_ || keep != decls.end();
        moved.insert(moved.end(), keep, decls.end());
        decls.erase(keep, decls.end());
      }
      auto& entry = f.block(f.entry).declarations;
      entry.insert(entry.end(), moved.begin(), moved.end());
      share(entry);
    }
  }

  // Candidates among `vars` (one scope) holding the same constant share
  // the first one's memory.
  void share(const std::vector<VariableId>& vars) {
    std::unordered_map<std::uint32_t, VariableId> first;  // by constant
    for (VariableId v : vars) {
      if (v.index() >= candidate_.size() || !candidate_[v.index()]) continue;
      const auto [at, inserted] = first.try_emplace(value_[v.index()].index(), v);
      if (!inserted) representative_[v.index()] = at->second;
    }
  }

  bool is_candidate(const Operand& o) const {
    return o.is_variable() && o.value() < candidate_.size() && candidate_[o.value()];
  }
  Operand representative(const Operand& o) const { return Operand(representative_[o.value()]); }

  Module& m_;
  const PointerRoots roots_;
  std::vector<bool> candidate_;
  bool changed_ = false;
  std::vector<ConstantId> value_;  // by variable: the one constant it holds
  std::vector<VariableId> representative_;  // by variable: whose memory its uses read
};

}  // namespace

PassResult initialize_constant_variables(Module& m) { return ConstantVariables(m).run(); }

}  // namespace sluice::transform
