// Store-to-load forwarding (spirv-opt's local-single-block and
// local-multi-store elimination, for what dominance alone decides): a Load
// of a whole Function-storage or Private variable whose value a dominating
// Store, Load or initialized declaration already gave, with no write to the
// variable on any path in between, becomes that value. The SPIR-V output's
// SSA promotion does the same for the locals it promotes, but only at
// emission: here folding, convert-ifs and dead-store elimination see the
// values, and Private globals and locals the output cannot promote
// (addressed through Access chains elsewhere) benefit too.
//
// A record "variable v holds value x" is made by `Store v x`, by `x = Load
// v`, and by a declaration with an initializer. It is valid at a later point
// P of the dominance tree walk when (a) the record's block dominates P (the
// records are scoped to the dominance subtree), (b) nothing wrote v since:
// every write the record cannot see — a Store or increment through an
// Access chain, a call argument, an output pointer, a declaration without
// initializer — bumps v's version, and for Private variables any Call
// bumps a module-wide call count; because the walk visits every block on a
// forward path from the record to P before P, a write on any such path is
// seen, and (c) P is not inside a loop the record is outside of: the walk
// opens a new loop epoch at each loop's condition, body and continue
// blocks, and only records of the current epoch or later are used there
// (the back edge would bring values the walk has not seen yet), unless the
// function never writes the variable (note_only_loaded()). A DoLoop
// that nothing continues has no back edge (the inliner's wrapper): its body
// is no new epoch. A Loop whose condition, evaluated with the values known
// on entry (constants only: its Loads forwarded, its pure instructions
// folded, fold.h), is false on entry never runs its body, so that first
// test is its only one: its LoopIf gets `false`, which
// simplify-control-flow then removes (`for (int i = 0; i < n; ++i)` with a
// constant n ≤ 0, typically after inlining).
// A Load of one component of a vector variable (`Load (AccessVectorComponent
// v k)`) whose whole value x is known becomes `ExtractVectorComponent x k`,
// and a Load of a swizzle (`AccessVectorComponentMulti v (k...)`)
// `ExtractVectorComponentMulti x (k...)`. A Store through such an access
// whose whole value x is known lane by lane (vector_lanes.h: a constant, a
// construct from scalars) becomes a Store of the whole vector, built from
// x's lanes with the stored ones replaced — a constant composite when every
// lane is a constant, else one ConstructVectorFromMultiple — so a vector
// updated through swizzles (`c.zx += …`) is a chain of whole values that
// folding evaluates, and the variable is left without partial writes for
// the SPIR-V output to promote. Only a Store whose access instruction is
// stored through once is rewritten (the rewrite is keyed by it), and never
// one that would need an extract per lane (the module would grow).
// Only scalars, vectors and matrices are forwarded: a struct or array
// value carried from one block to another saves nothing the SPIR-V
// output's promotion would not, and whole-aggregate copies between buffer
// blocks are what glslang mistranslates (bool members) when it reads
// Sluice's GLSL. Forwarded values keep precision: a register replaces a Load only when
// both have the same precision (constants always may).
//
// Algorithm: per function, the dominance tree (dominance_tree.h) walked
// depth first with an explicit stack; records live in an undo log, restored
// when the walk leaves a block. The per-variable and per-register tables
// are sized once for the module (each function leaves them as it found
// them), so many small functions cost no more than one large one.
// Forwarded Loads go in one transform walk of the functions that had any,
// their uses in one module-wide Substitution sweep. Linear.
#include <algorithm>
#include <optional>
#include <span>
#include <unordered_map>

#include "ir/operands.h"
#include "ir/structure.h"
#include "ir/traversal.h"
#include "ir/typing.h"
#include "ir/control_edges.h"
#include "transform/dominance_tree.h"
#include "transform/fold.h"
#include "transform/passes.h"
#include "transform/pointer_roots.h"
#include "transform/substitution.h"
#include "transform/transformer.h"
#include "transform/vector_lanes.h"

namespace sluice::transform {

using namespace ir;

namespace {

constexpr std::uint32_t kNone = ~0u;

// A component access of a vector variable: its literal lanes.
struct ComponentAccess {
  Lanes lanes;
  bool multi = false;
};

// A Load that becomes an extract: the opcode and its operands (value first).
struct ExtractRewrite {
  Opcode opcode;
  Lanes operands;
};

// A Store through a component access that becomes a whole-vector Store.
struct StoreRewrite {
  VariableId variable;
  Operand value;                            // what the variable holds after it
  std::optional<Instruction> construct;     // defines `value` when it is no constant
};

struct Record {
  Operand value;
  std::uint32_t version = 0;
  std::uint32_t calls = 0;
  std::uint32_t epoch = 0;
};

class StoreForwarding {
 public:
  explicit StoreForwarding(Module& m)
      : m_(m), candidate_(m.variable_count()), private_(m.variable_count()),
        only_loaded_(m.variable_count(), 0), version_(m.variable_count()), latest_(m.variable_count(), kNone),
        roots_(m), lanes_(m) {
    for (std::uint32_t v = 0; v < m.variable_count(); ++v) {
      const Variable& var = m.variable(VariableId(v));
      if (!is_invocation_memory(m, VariableId(v))) continue;
      const TypeKind k = m.type(m.type(var.type).element).kind;
      candidate_[v] = k == TypeKind::Scalar || k == TypeKind::Vector || k == TypeKind::Matrix;
      private_[v] = m.type(var.type).storage == StorageClass::Private;
    }
  }

  PassResult run() {
    std::vector<bool> touched(m_.function_count());
    for (std::uint32_t i = 0; i < m_.function_count(); ++i) {
      if (!m_.function(FunctionId(i)).entry.valid()) continue;
      fid_ = FunctionId(i);
      const std::size_t before = subst_.size() + extracts_.size() + stores_.size();
      walk();
      touched[i] = subst_.size() + extracts_.size() + stores_.size() != before;
    }
    for (auto [f, cond] : never_entered_)
      m_.function(f).block(cond).instructions.back().operands[0] = Operand(m_.bool_constant(false));
    if (subst_.empty() && extracts_.empty() && stores_.empty()) return !never_entered_.empty();
    for (std::uint32_t i = 0; i < m_.function_count(); ++i) {
      if (!touched[i]) continue;
      const FunctionId fid(i);
      auto removed = transform_block(m_, fid, m_.function(fid).entry, [&](InstructionSite&, const Instruction& inst) -> Transforms {
        if (inst.opcode == Opcode::Store && inst.operands.size() == 2 && inst.operands[0].is_register())
          return rewrite_store(inst.operands[0].as_register());
        if (!inst.result.valid()) return {};
        if (subst_.replaced(inst.result)) return {Transform::remove()};
        if (inst.opcode != Opcode::Load) return {};
        const auto it = extracts_.find(inst.result.index());
        if (it == extracts_.end()) return {};
        Lanes operands = it->second.operands;
        operands[0] = subst_.resolve(operands[0]);
        auto extract = make_with_result_id(m_, it->second.opcode, inst.result,
                                          std::span<const Operand>(operands.data(), operands.size()));
        if (!extract) return {};
        return {Transform::add(std::move(*extract))};
      });
      if (!removed) return removed.failure();
    }
    subst_.apply(m_);
    return true;
  }

 private:
  Transforms rewrite_store(RegisterId pointer) {
    const auto it = stores_.find(pointer.index());
    if (it == stores_.end()) return {};
    StoreRewrite& r = it->second;
    Transforms out;
    if (r.construct) {
      for (Operand& o : r.construct->operands) o = subst_.resolve(o);
      out.push_back(Transform::add(std::move(*r.construct)));
    }
    const Operand operands[] = {Operand(r.variable), subst_.resolve(r.value)};
    auto store = make(m_, Opcode::Store, operands);
    if (!store) return {};  // (cannot happen: the value has the variable's type) keep the original
    out.push_back(Transform::add(std::move(*store)));
    return out;
  }

  // `Store pointer value`, pointer a component access of v: the whole value
  // of v afterwards, if v's value before is known lane by lane.
  bool forward_component_store(VariableId v, RegisterId pointer, Operand stored) {
    const auto access = component_.find(pointer.index());
    if (access == component_.end() || stores_through_[pointer.index()] != 1) return false;
    const auto before = known(v);
    if (!before) return false;
    auto lanes = lanes_.of(subst_.resolve(*before));
    if (!lanes) return false;
    const Lanes& targets = access->second.lanes;
    if (access->second.multi) {
      auto parts = lanes_.of(stored);
      if (!parts || parts->size() != targets.size()) return false;
      for (std::size_t j = 0; j < targets.size(); ++j) (*lanes)[targets[j].value()] = (*parts)[j];
    } else {
      (*lanes)[targets[0].value()] = stored;
    }
    for (Operand& o : *lanes) o = subst_.resolve(o);
    const TypeId type = m_.type(m_.variable(v).type).element;
    StoreRewrite rewrite{v, {}, std::nullopt};
    if (std::all_of(lanes->begin(), lanes->end(), [](Operand o) { return o.is_constant(); })) {
      std::vector<ConstantId> parts;
      for (Operand o : *lanes) parts.push_back(o.as_constant());
      rewrite.value = Operand(m_.composite_constant(type, parts));
    } else {
      auto construct = make(m_, Opcode::ConstructVectorFromMultiple,
                            std::span<const Operand>(lanes->data(), lanes->size()), type, m_.variable(v).precision);
      if (!construct) return false;
      rewrite.value = Operand(construct->result);
      lanes_.note(construct->result, *lanes);
      rewrite.construct = std::move(*construct);
    }
    ++version_[v.index()];
    record(v, rewrite.value);
    stores_.emplace(pointer.index(), std::move(rewrite));
    return true;
  }

  // Whether the loop condition block `cond` gives false with the values
  // known here (before the loop's epoch opens).
  bool false_on_entry(BlockId cond) {
    const Block& b = m_.function(fid_).block(cond);
    if (!b.declarations.empty() || b.merge.valid()) return false;
    std::unordered_map<std::uint32_t, Operand> values;
    auto value_of = [&](Operand o) {
      if (o.is_register())
        if (const auto it = values.find(o.value()); it != values.end()) return it->second;
      return subst_.resolve(o);
    };
    std::vector<Operand> operands;
    for (const Instruction& inst : b.instructions) {
      if (inst.opcode == Opcode::LoopIf) {
        const Operand c = inst.operands.empty() ? Operand{} : value_of(inst.operands[0]);
        return c.is_constant() && constant_bool(m_, c) == false;
      }
      if (!inst.result.valid()) return false;
      if (inst.opcode == Opcode::Load) {
        const Operand p = inst.operands[0];
        if (!p.is_variable() || !candidate_[p.value()]) return false;
        const auto value = known(p.as_variable());
        if (!value || !subst_.resolve(*value).is_constant()) return false;
        values[inst.result.index()] = subst_.resolve(*value);
        continue;
      }
      if (!is_pure_computation(inst.opcode)) return false;
      operands.clear();
      for (const Operand& o : inst.operands) {
        operands.push_back(value_of(o));
        if (!operands.back().is_constant() && !operands.back().is_literal()) return false;
      }
      const auto c = fold::evaluate(fold::Evaluation{m_, inst.opcode, inst.aux, m_.reg(inst.result).type, operands});
      if (!c) return false;
      values[inst.result.index()] = Operand(*c);
    }
    return false;
  }

  // One function's dominance-tree walk. The per-variable tables are the
  // module's, left as they were (every record undone) when it ends; the
  // per-function maps start empty.
  void walk() {
    const Function& f = m_.function(fid_);
    records_.clear();
    index_bound_ = {};
    barrier_ = epoch_ = 0;
    lanes_.clear();
    stores_through_.clear();
    note_index_bounds(f);
    note_only_loaded(f);
    const DominanceTree tree = dominance_tree(f);
    const ControlEdges edges = compute_control_edges(f);
    struct Frame {
      BlockId block;
      std::uint32_t next_child;
      std::size_t mark;
      std::uint32_t barrier;
    };
    std::vector<Frame> stack;
    auto enter = [&](BlockId b, std::uint32_t barrier) {
      stack.push_back(Frame{b, tree.first[b.index()], undo_.size(), barrier});
      barrier_ = barrier;
      scan(b);
    };
    enter(f.entry, 0);
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.next_child < tree.first[top.block.index() + 1]) {
        const BlockId child = tree.children[top.next_child++];
        const Block& parent = m_.function(fid_).block(top.block);
        const auto op = parent.terminator_opcode();
        // A DoLoop nothing continues runs its body once (inlined calls): no back edge.
        const bool in_loop = op && (*op == Opcode::Loop || *op == Opcode::DoLoop) && child != parent.merge &&
                             !(*op == Opcode::DoLoop && edges.continues[top.block.index()].empty());
        if (op && *op == Opcode::Loop && child == parent.loop_condition() && false_on_entry(child))
          never_entered_.emplace_back(fid_, child);
        enter(child, in_loop ? ++epoch_ : top.barrier);
        continue;
      }
      release(top.mark);
      stack.pop_back();
      if (!stack.empty()) barrier_ = stack.back().barrier;
    }
  }

  void record(VariableId v, Operand value) {
    undo_.push_back({v, latest_[v.index()]});
    latest_[v.index()] = static_cast<std::uint32_t>(records_.size());
    records_.push_back(Record{value, version_[v.index()], calls_, epoch_});
  }

  void release(std::size_t mark) {
    while (undo_.size() > mark) {
      latest_[undo_.back().first.index()] = undo_.back().second;
      undo_.pop_back();
    }
  }

  // The value v holds here, if a valid record says.
  std::optional<Operand> known(VariableId v) const {
    const std::uint32_t i = latest_[v.index()];
    if (i == kNone) return std::nullopt;
    const Record& r = records_[i];
    if (r.version != version_[v.index()]) return std::nullopt;
    if (r.epoch < barrier_ && only_loaded_[v.index()] != kOnlyLoaded) return std::nullopt;
    if (private_[v.index()] && r.calls != calls_) return std::nullopt;
    return r.value;
  }

  bool same_precision(Operand value, RegisterId r) const {
    return !value.is_register() || m_.reg(value.as_register()).precision == m_.reg(r).precision;
  }

  // For each register used as a dynamic index: the smallest extent it
  // indexes (vector size, matrix columns, array length).
  // Also counts the Stores through each register (stores_through_).
  void note_index_bounds(const Function& f) {
    visit(f, [&](const BlockVisit&, const Block& b) {
      for (const Instruction& inst : b.instructions) {
        if (inst.opcode == Opcode::Store && !inst.operands.empty() && inst.operands[0].is_register())
          ++stores_through_[inst.operands[0].value()];
        // An Access or Extract whose operand 1 is a value (not a literal) indexes.
        const OpcodeFamily family = info(inst.opcode).family;
        const bool indexes = (family == OpcodeFamily::Access || family == OpcodeFamily::Extract) &&
                             operand_role(inst.opcode, 1) == OperandRole::Value;
        if (!indexes || inst.operands.size() != 2 || !inst.operands[1].is_register()) continue;
        TypeId t = m_.type_of(inst.operands[0]);
        if (!t.valid()) continue;
        if (is_pointer(m_, t)) t = m_.type(t).element;
        const Type& indexed = m_.type(t);
        if (indexed.kind != TypeKind::Vector && indexed.kind != TypeKind::Matrix && indexed.kind != TypeKind::Array)
          continue;
        auto [it, fresh] = index_bound_.emplace(inst.operands[1].value(), indexed.count);
        if (!fresh) it->second = std::min(it->second, indexed.count);
      }
      return VisitAction::VisitSubBlocks;
    });
  }

  // Function locals with an initializer that this function uses only as
  // the pointer of whole Loads (no Store, Access, call argument or update
  // anywhere): every Load gives the initializer, inside loops too, since no
  // back edge can bring another value (the issue's "loads of never-written
  // locals": an inlined `in` parameter bound to a constant, read in a loop).
  void note_only_loaded(const Function& f) {
    for (std::uint32_t v : only_loaded_seen_) only_loaded_[v] = 0;
    only_loaded_seen_.clear();
    visit(f, [&](const BlockVisit&, const Block& b) {
      for (const Instruction& inst : b.instructions)
        for (std::size_t k = 0; k < inst.operands.size(); ++k) {
          const Operand o = inst.operands[k];
          if (!o.is_variable() || o.value() >= candidate_.size() || !candidate_[o.value()] || private_[o.value()] ||
              !m_.variable(o.as_variable()).initializer.valid())
            continue;
          std::uint8_t& mark = only_loaded_[o.value()];
          if (mark == 0) only_loaded_seen_.push_back(o.value());
          mark = inst.opcode == Opcode::Load && k == 0 && mark != kWrittenHere ? kOnlyLoaded : kWrittenHere;
        }
      return VisitAction::VisitSubBlocks;
    });
  }

  // A constant that would index out of range where `r` is used as an index.
  bool out_of_range(Operand value, RegisterId r) const {
    if (!value.is_constant()) return false;
    const auto it = index_bound_.find(r.index());
    if (it == index_bound_.end()) return false;
    const Constant& c = m_.constant(value.as_constant());
    if (c.is_composite() || c.spec_id) return true;
    const bool is_signed = m_.type(c.type).kind == TypeKind::Scalar && m_.type(c.type).scalar == ScalarKind::Int;
    if (is_signed && c.as_int() < 0) return true;
    return c.bits >= it->second;
  }

  void scan(BlockId b) {
    const Block& block = m_.function(fid_).block(b);
    for (VariableId v : block.declarations) {
      if (v.index() >= candidate_.size() || !candidate_[v.index()]) continue;
      ++version_[v.index()];
      const ConstantId init = m_.variable(v).initializer;
      if (init.valid()) record(v, Operand(init));
    }
    for (const Instruction& inst : block.instructions) {
      if (inst.opcode == Opcode::Call) ++calls_;
      lanes_.note(inst);
      for_each_operand(inst, [&](const Operand& o, std::size_t k) {
        const VariableId v = roots_.root(o);
        if (!v.valid() || !candidate_[v.index()]) return;
        if (is_chain_base(inst, k)) {
          const bool multi = inst.opcode == Opcode::AccessVectorComponentMulti;
          if ((multi || inst.opcode == Opcode::AccessVectorComponent) && o.is_variable() && inst.result.valid() &&
              std::all_of(inst.operands.begin() + 1, inst.operands.end(), [](Operand l) { return l.is_literal(); }))
            component_[inst.result.index()] = ComponentAccess{Lanes(inst.operands.begin() + 1, inst.operands.end()), multi};
          return;
        }
        if (k == 0 && inst.opcode == Opcode::Load && inst.result.valid() && o.is_register()) {
          const auto c = component_.find(o.value());
          if (c == component_.end()) return;  // a read of part of it
          if (auto value = known(v)) {
            ExtractRewrite e{c->second.multi ? Opcode::ExtractVectorComponentMulti : Opcode::ExtractVectorComponent,
                             Lanes{*value}};
            e.operands.insert(e.operands.end(), c->second.lanes.begin(), c->second.lanes.end());
            extracts_.emplace(inst.result.index(), std::move(e));
          }
          return;
        }
        if (k == 0 && inst.opcode == Opcode::Store && o.is_register() && inst.operands.size() == 2 &&
            forward_component_store(v, o.as_register(), subst_.resolve(inst.operands[1])))
          return;
        if (k == 0 && inst.opcode == Opcode::Load) {
          if (!o.is_variable() || !inst.result.valid()) return;
          if (auto value = known(v); value && same_precision(*value, inst.result) &&
                                     !out_of_range(*value, inst.result) &&
                                     subst_.replace(inst.result, subst_.resolve(*value)))
            return;
          record(v, Operand(inst.result));
          return;
        }
        if (k == 0 && inst.opcode == Opcode::Store && o.is_variable() && inst.operands.size() == 2) {
          ++version_[v.index()];
          record(v, subst_.resolve(inst.operands[1]));
          return;
        }
        ++version_[v.index()];  // written, or its address taken: what it holds is unknown now
      });
    }
  }

  Module& m_;
  FunctionId fid_;
  std::vector<bool> candidate_, private_;
  static constexpr std::uint8_t kOnlyLoaded = 1, kWrittenHere = 2;
  std::vector<std::uint8_t> only_loaded_;        // per variable, for this function: 0, kOnlyLoaded, kWrittenHere
  std::vector<std::uint32_t> only_loaded_seen_;  // the variables marked, to clear for the next function
  std::vector<std::uint32_t> version_, latest_;
  const PointerRoots roots_;
  std::unordered_map<std::uint32_t, ComponentAccess> component_;  // component access of a variable -> its lanes
  std::unordered_map<std::uint32_t, ExtractRewrite> extracts_;     // Load -> its extract
  std::unordered_map<std::uint32_t, StoreRewrite> stores_;         // component access stored through -> the rewrite
  std::unordered_map<std::uint32_t, std::uint32_t> stores_through_;  // register -> Stores through it
  VectorLanes lanes_;
  std::vector<std::pair<FunctionId, BlockId>> never_entered_;  // Loop conditions false on entry
  std::unordered_map<std::uint32_t, std::uint32_t> index_bound_;  // register used as an index -> extent
  std::vector<Record> records_;
  std::vector<std::pair<VariableId, std::uint32_t>> undo_;  // (variable, its previous latest record)
  std::uint32_t calls_ = 0, epoch_ = 0, barrier_ = 0;
  Substitution subst_;
};

}  // namespace

PassResult forward_stores(Module& m) { return StoreForwarding(m).run(); }

}  // namespace sluice::transform
