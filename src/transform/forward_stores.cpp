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
// (the back edge would bring values the walk has not seen yet).
// A Load of one component of a vector variable (`Load (AccessVectorComponent
// v k)`) whose whole value x is known becomes `ExtractVectorComponent x k`.
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
#include <unordered_map>

#include "ir/operands.h"
#include "ir/traversal.h"
#include "ir/typing.h"
#include "transform/dominance_tree.h"
#include "transform/passes.h"
#include "transform/pointer_roots.h"
#include "transform/substitution.h"
#include "transform/transformer.h"

namespace sluice::transform {

using namespace ir;

namespace {

constexpr std::uint32_t kNone = ~0u;

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
        version_(m.variable_count()), latest_(m.variable_count(), kNone), roots_(m) {
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
      const std::size_t before = subst_.size() + extracts_.size();
      walk();
      touched[i] = subst_.size() + extracts_.size() != before;
    }
    if (subst_.empty() && extracts_.empty()) return false;
    for (std::uint32_t i = 0; i < m_.function_count(); ++i) {
      if (!touched[i]) continue;
      const FunctionId fid(i);
      auto removed = transform_block(m_, fid, m_.function(fid).entry, [&](InstructionSite&, const Instruction& inst) -> Transforms {
        if (!inst.result.valid()) return {};
        if (subst_.replaced(inst.result)) return {Transform::remove()};
        if (inst.opcode != Opcode::Load) return {};
        const auto it = extracts_.find(inst.result.index());
        if (it == extracts_.end()) return {};
        const Operand operands[] = {subst_.resolve(it->second.first), it->second.second};
        auto extract = make_with_result_id(m_, Opcode::ExtractVectorComponent, inst.result, operands);
        if (!extract) return {};
        return {Transform::add(std::move(*extract))};
      });
      if (!removed) return removed.failure();
    }
    subst_.apply(m_);
    return true;
  }

 private:
  // One function's dominance-tree walk. The per-variable tables are the
  // module's, left as they were (every record undone) when it ends; the
  // per-function maps start empty.
  void walk() {
    const Function& f = m_.function(fid_);
    records_.clear();
    index_bound_ = {};
    barrier_ = epoch_ = 0;
    note_index_bounds(f);
    const DominanceTree tree = dominance_tree(f);
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
        const bool in_loop = op && (*op == Opcode::Loop || *op == Opcode::DoLoop) && child != parent.merge;
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
    if (r.version != version_[v.index()] || r.epoch < barrier_) return std::nullopt;
    if (private_[v.index()] && r.calls != calls_) return std::nullopt;
    return r.value;
  }

  bool same_precision(Operand value, RegisterId r) const {
    return !value.is_register() || m_.reg(value.as_register()).precision == m_.reg(r).precision;
  }

  // For each register used as a dynamic index: the smallest extent it
  // indexes (vector size, matrix columns, array length).
  void note_index_bounds(const Function& f) {
    visit(f, [&](const BlockVisit&, const Block& b) {
      for (const Instruction& inst : b.instructions) {
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
      for_each_operand(inst, [&](const Operand& o, std::size_t k) {
        const VariableId v = roots_.root(o);
        if (!v.valid() || !candidate_[v.index()]) return;
        if (is_chain_base(inst, k)) {
          if (inst.opcode == Opcode::AccessVectorComponent && o.is_variable() && inst.operands[1].is_literal())
            component_[inst.result.index()] = inst.operands[1];
          return;
        }
        if (k == 0 && inst.opcode == Opcode::Load && inst.result.valid() && o.is_register()) {
          const auto c = component_.find(o.value());
          if (c == component_.end()) return;  // a read of part of it
          if (auto value = known(v)) extracts_.emplace(inst.result.index(), std::make_pair(*value, c->second));
          return;
        }
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
  std::vector<std::uint32_t> version_, latest_;
  const PointerRoots roots_;
  std::unordered_map<std::uint32_t, Operand> component_;  // AccessVectorComponent of a variable: its literal
  std::unordered_map<std::uint32_t, std::pair<Operand, Operand>> extracts_;  // Load -> (vector value, literal)
  std::unordered_map<std::uint32_t, std::uint32_t> index_bound_;  // register used as an index -> extent
  std::vector<Record> records_;
  std::vector<std::pair<VariableId, std::uint32_t>> undo_;  // (variable, its previous latest record)
  std::uint32_t calls_ = 0, epoch_ = 0, barrier_ = 0;
  Substitution subst_;
};

}  // namespace

PassResult forward_stores(Module& m) { return StoreForwarding(m).run(); }

}  // namespace sluice::transform
