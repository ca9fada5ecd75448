// Dead-store elimination (spirv-opt's aggressive DCE, restricted to memory
// the invocation alone can see): a Store, or an increment, into a
// Function-storage local or a Private global is dead when no live
// instruction ever reads that variable; the dead stores go together with
// everything only they used. Unlike remove-unused-variables, a variable read only
// to compute what is stored back into it (`i++` on a counter nobody
// reads, `v = v * 2.0`) counts as unread.
//
// Candidates: Private globals and Function-storage variables that are not
// parameters, not volatile. Stores into anything else (outputs, buffers,
// shared memory, parameters the caller reads back) are always live.
//
// Algorithm (mark and sweep, module-wide since registers, Private globals
// and calls cross functions):
//   1. one pre-order walk per function (Access results' variables from
//      pointer_roots.h) notes each register's defining instruction, and
//      files each Store/increment whose pointer is rooted at a candidate
//      under that variable ("conditional"); every other
//      instruction with side effects, every terminator (with its
//      operands) and every Load of a volatile variable is a root;
//   2. a worklist marks live what live instructions use: a register's
//      definition; a candidate variable named by a live instruction other
//      than as the pointer of its conditional store, which makes all of its
//      conditional stores live. Each instruction and variable is marked
//      once;
//   3. one sweep over the reachable blocks removes, in place, every
//      instruction not marked live (roots are always marked, so only pure
//      instructions and dead stores go; every user of a removed register
//      is itself unmarked, and no block changes shape).
// Linear in the module. remove-unused-variables (eliminate-dead-code) then drops the variables
// that lost their last use.
#include "ir/operands.h"
#include "ir/traversal.h"
#include "ir/typing.h"
#include "transform/passes.h"
#include "transform/pointer_roots.h"

namespace sluice::transform {

using namespace ir;

namespace {

struct Site {
  FunctionId function;
  BlockId block;
  std::uint32_t index = 0;
};

class DeadStores {
 public:
  explicit DeadStores(Module& m)
      : m_(m), roots_(m), def_(m.register_count()), candidate_(m.variable_count()),
        variable_live_(m.variable_count()), stores_(m.variable_count()) {}

  PassResult run() {
    find_candidates();
    std::vector<Site> work;
    live_.resize(m_.function_count());
    for (std::uint32_t i = 0; i < m_.function_count(); ++i) scan(FunctionId(i), work);
    while (!work.empty()) {
      const Site s = work.back();
      work.pop_back();
      mark_uses(s, work);
    }
    return sweep();
  }

 private:
  void find_candidates() {
    const std::vector<bool> parameter = parameter_variables(m_);
    for (std::uint32_t v = 0; v < m_.variable_count(); ++v)
      candidate_[v] = !parameter[v] && is_invocation_memory(m_, VariableId(v));
  }

  // The candidate a pointer operand is rooted at; invalid otherwise.
  VariableId candidate_of(Operand o) const {
    const VariableId v = roots_.root(o);
    return v.valid() && candidate_[v.index()] ? v : VariableId{};
  }

  // A Store or increment into a candidate: live only if the variable is.
  VariableId conditional_target(const Instruction& inst) const {
    if ((inst.opcode != Opcode::Store && !is_increment(inst.opcode)) || inst.operands.empty()) return {};
    return candidate_of(inst.operands[0]);
  }

  bool is_root(const Instruction& inst) const {
    if (conditional_target(inst).valid()) return false;
    if (info(inst.opcode).has_side_effects) return true;
    if (inst.opcode == Opcode::Load && !inst.operands.empty()) {
      const VariableId v = roots_.root(inst.operands[0]);
      if (v.valid() && m_.variable(v).decorations.volatile_) return true;
    }
    return false;
  }

  void scan(FunctionId f, std::vector<Site>& work) {
    Function& fn = m_.function(f);
    live_[f.index()].resize(fn.blocks.size());
    if (!fn.entry.valid()) return;
    visit(fn, [&](const BlockVisit& v, const Block& b) {
      live_[f.index()][v.id.index()].assign(b.instructions.size(), false);
      for (std::uint32_t i = 0; i < b.instructions.size(); ++i) {
        const Instruction& inst = b.instructions[i];
        const Site site{f, v.id, i};
        if (inst.result.valid() && inst.result.index() < def_.size()) def_[inst.result.index()] = site;
        if (const VariableId t = conditional_target(inst); t.valid()) stores_[t.index()].push_back(site);
        else if (is_root(inst)) mark(site, work);
      }
      return VisitAction::VisitSubBlocks;
    });
  }

  void mark(const Site& s, std::vector<Site>& work) {
    auto&& bit = live_[s.function.index()][s.block.index()][s.index];
    if (bit) return;
    bit = true;
    work.push_back(s);
  }

  void mark_variable(VariableId v, std::vector<Site>& work) {
    if (variable_live_[v.index()]) return;
    variable_live_[v.index()] = true;
    for (const Site& s : stores_[v.index()]) mark(s, work);
  }

  void mark_uses(const Site& s, std::vector<Site>& work) {
    const Instruction& inst = m_.function(s.function).block(s.block).instructions[s.index];
    const bool store = inst.opcode == Opcode::Store && conditional_target(inst).valid();
    for_each_operand(inst, [&](const Operand& o, std::size_t k) {
      if (o.is_register() && o.value() < def_.size() && def_[o.value()].function.valid()) mark(def_[o.value()], work);
      // A conditional Store's pointer only writes its variable, and an
      // Access base is read by whoever uses the chain (who names the
      // variable through it); any other use of a candidate reads it.
      if ((k == 0 && store) || is_chain_base(inst, k)) return;
      if (const VariableId v = candidate_of(o); v.valid()) mark_variable(v, work);
    });
  }

  // Drops the unmarked instructions of every reachable block in place.
  bool sweep() {
    bool any = false;
    for (std::uint32_t i = 0; i < m_.function_count(); ++i) {
      Function& f = m_.function(FunctionId(i));
      const auto& live = live_[i];
      for (std::uint32_t b = 0; b < live.size(); ++b) {
        if (live[b].empty()) continue;
        auto& insts = f.blocks[b].instructions;
        std::size_t out = 0;
        for (std::size_t k = 0; k < insts.size(); ++k) {
          if (!live[b][k]) continue;
          if (out != k) insts[out] = std::move(insts[k]);
          ++out;
        }
        any = any || out != insts.size();
        insts.resize(out);
      }
    }
    return any;
  }

  Module& m_;
  const PointerRoots roots_;
  std::vector<Site> def_;         // by register: its defining instruction
  std::vector<bool> candidate_, variable_live_;
  std::vector<std::vector<Site>> stores_;             // by variable: its conditional stores
  std::vector<std::vector<std::vector<bool>>> live_;  // function -> block -> instruction
};

}  // namespace

PassResult eliminate_dead_stores(Module& m) { return DeadStores(m).run(); }

}  // namespace sluice::transform
