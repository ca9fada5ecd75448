// Common-subexpression elimination of pure instructions over the dominance
// tree: an instruction computing what a dominating one already computed
// (same opcode, flags, result type, precision and operands — operands of
// commutative opcodes in a canonical order) is removed and its uses point at
// the first one. It removes the duplicates λV's inlining leaves.
//
// Pure: no side effects in opcode.def and not reading memory (Load,
// ArrayLength, image loads and atomics are out: a store in between may
// change what they read). Access instructions are pure: they compute
// pointers. Texture sampling is pure: sampled images are read-only. So is
// a Load from memory nothing in the invocation can write — Input, Uniform,
// PushConstant and UniformConstant variables (not volatile), directly or
// through Access chains: its value is the same wherever it is read, so a
// load inside a loop merges with an equal one before it. (NVIDIA's 580
// driver miscompiles some loops whose condition compares with a uniform
// loaded before the loop; its workaround, reload-uniforms-in-loops, loads
// such values again inside the loop: docs/workarounds.md.)
//
// The dominance tree is the IR's own (docs/ir.md; the validator checks
// uses against it): a block dominates the later blocks of its chain and
// everything below it; sibling sub-blocks (If true/false, loop condition /
// body / continue, switch cases) never dominate each other. So a block's
// parent in the tree is the divergent block that owns its chain, or for a
// merge block the divergent block whose merge it is.
//
// Algorithm: build that tree (one walk), then a depth-first walk of it with
// an explicit stack and a scoped hash table (open addressing, no allocation
// per entry): entries a block adds are removed when the walk leaves it. Each instruction looks its operands up
// in the Substitution first, so duplicates of duplicates are found in the
// same walk. One transform walk drops the duplicates and one sweep rewrites
// their uses. Linear (expected, hashing).
#include <algorithm>

#include "ir/structure.h"
#include "ir/traversal.h"
#include "transform/dominance_tree.h"
#include "transform/passes.h"
#include "transform/pointer_roots.h"
#include "transform/substitution.h"
#include "transform/transformer.h"

namespace sluice::transform {

using namespace ir;

namespace {

// Computations (ir::is_pure_computation), address arithmetic and texture
// sampling.
bool is_pure(Opcode op) {
  const OpcodeInfo& oi = info(op);
  return is_pure_computation(op) ||
         (!oi.has_side_effects && (oi.family == OpcodeFamily::Access || oi.family == OpcodeFamily::Texture));
}

bool is_commutative(Opcode op) {
  constexpr Opcode kCommutative[] = {
      Opcode::Add,        Opcode::Mul,        Opcode::LogicalAnd, Opcode::LogicalOr,
      Opcode::LogicalXor, Opcode::Equal,      Opcode::NotEqual,   Opcode::EqualComponentwise,
      Opcode::NotEqualComponentwise, Opcode::BitwiseOr, Opcode::BitwiseXor, Opcode::BitwiseAnd, Opcode::Dot,
  };
  return std::find(std::begin(kCommutative), std::end(kCommutative), op) != std::end(kCommutative);
}

std::uint32_t raw(Operand o) { return (static_cast<std::uint32_t>(o.kind()) << 29) | o.value(); }

// What makes two pure instructions compute the same value.
struct Expression {
  Opcode opcode;
  std::uint16_t aux;
  TypeId type;
  Precision precision;
  std::uint32_t first_operand;  // into ExpressionTable::operands_
  std::uint32_t operand_count;
  RegisterId result;
};

// The scoped hash table: open addressing over a power-of-two array sized
// for every instruction of the function (so the load stays below one half
// whatever is inserted), entries and their operands on stacks, since scopes
// end in the reverse order they begin. Leaving a scope pops its entries and
// leaves tombstones in their slots.
class ExpressionTable {
 public:
  explicit ExpressionTable(std::size_t capacity_for) {
    std::size_t n = 16;
    while (n < 2 * capacity_for + 16) n *= 2;
    slots_.assign(n, kEmpty);
    hashes_.assign(n, 0);
  }

  std::size_t mark() const { return entries_.size(); }
  void release(std::size_t mark) {
    while (entries_.size() > mark) {
      const std::uint32_t e = static_cast<std::uint32_t>(entries_.size() - 1);
      for (std::size_t i = hash_of(entries_[e]) & mask();; i = (i + 1) & mask()) {
        if (slots_[i] == e) {
          slots_[i] = kTombstone;
          break;
        }
      }
      operands_.resize(entries_[e].first_operand);
      entries_.pop_back();
    }
  }

  // The register already computing `x` (whose operands are the last
  // `x.operand_count` pushed with push_operand), or x.result after adding it.
  RegisterId find_or_add(Expression x) {
    const std::size_t h = hash_of(x);
    std::size_t free = slots_.size();
    for (std::size_t i = h & mask();; i = (i + 1) & mask()) {
      const std::uint32_t s = slots_[i];
      if (s == kEmpty) {
        if (free == slots_.size()) free = i;
        break;
      }
      if (s == kTombstone) {
        if (free == slots_.size()) free = i;
        continue;
      }
      if (hashes_[i] == h && same(entries_[s], x)) {
        operands_.resize(x.first_operand);  // the probe's operands are not kept
        return entries_[s].result;
      }
    }
    slots_[free] = static_cast<std::uint32_t>(entries_.size());
    hashes_[free] = h;
    entries_.push_back(x);
    return x.result;
  }

  std::uint32_t operand_top() const { return static_cast<std::uint32_t>(operands_.size()); }
  void push_operand(Operand o) { operands_.push_back(o); }
  Operand* operands_from(std::uint32_t first) { return operands_.data() + first; }

 private:
  static constexpr std::uint32_t kEmpty = ~0u;
  static constexpr std::uint32_t kTombstone = ~0u - 1;
  std::size_t mask() const { return slots_.size() - 1; }

  std::size_t hash_of(const Expression& x) const {
    std::size_t h = static_cast<std::size_t>(x.opcode) * 0x9e3779b97f4a7c15ull;
    auto mix = [&](std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
    mix(x.aux);
    mix(x.type.index());
    mix(static_cast<std::size_t>(x.precision));
    for (std::uint32_t k = 0; k < x.operand_count; ++k) mix(raw(operands_[x.first_operand + k]));
    return h;
  }
  bool same(const Expression& a, const Expression& b) const {
    if (a.opcode != b.opcode || a.aux != b.aux || a.type != b.type || a.precision != b.precision ||
        a.operand_count != b.operand_count)
      return false;
    for (std::uint32_t k = 0; k < a.operand_count; ++k)
      if (operands_[a.first_operand + k] != operands_[b.first_operand + k]) return false;
    return true;
  }

  std::vector<std::uint32_t> slots_;  // entry index, kEmpty or kTombstone
  std::vector<std::size_t> hashes_;
  std::vector<Expression> entries_;
  std::vector<Operand> operands_;
};

class Cse {
 public:
  Cse(Module& m, FunctionId f, const PointerRoots& roots) : m_(m), fid_(f), roots_(roots) {}

  PassResult run() {
    const Function& f = m_.function(fid_);
    const DominanceTree tree = dominance_tree(f);
    std::size_t instructions = 0;
    for (const Block& b : f.blocks) instructions += b.instructions.size();
    ExpressionTable table(instructions);
    struct Frame {
      BlockId block;
      std::uint32_t next_child;
      std::size_t mark;
    };
    std::vector<Frame> stack;
    auto enter = [&](BlockId b) {
      stack.push_back(Frame{b, tree.first[b.index()], table.mark()});
      scan(b, table);
    };
    enter(f.entry);
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.next_child < tree.first[top.block.index() + 1]) {
        enter(tree.children[top.next_child++]);
        continue;
      }
      table.release(top.mark);
      stack.pop_back();
    }
    if (subst_.empty()) return false;
    auto removed = transform_block(m_, fid_, f.entry, [&](InstructionSite&, const Instruction& inst) -> Transforms {
      if (inst.result.valid() && subst_.replaced(inst.result)) return {Transform::remove()};
      return {};
    });
    if (!removed) return removed.failure();
    subst_.apply(m_.function(fid_));
    return true;
  }

 private:
  // A pointer into memory that stays constant for the whole invocation.
  bool constant_pointer(Operand p) const {
    const VariableId v = roots_.root(p);
    return v.valid() && memory_kind(m_, v) == MemoryKind::ReadOnly;
  }

  void scan(BlockId b, ExpressionTable& table) {
    for (const Instruction& inst : m_.function(fid_).block(b).instructions) {
      if (!inst.result.valid()) continue;
      const bool constant_load =
          inst.opcode == Opcode::Load && !inst.operands.empty() && constant_pointer(inst.operands[0]);
      if (!constant_load && !is_pure(inst.opcode)) continue;
      const RegisterInfo& r = m_.reg(inst.result);
      Expression x{inst.opcode, inst.aux, r.type, r.precision, table.operand_top(),
                   static_cast<std::uint32_t>(inst.operands.size()), inst.result};
      for (Operand o : inst.operands) table.push_operand(subst_.resolve(o));
      Operand* ops = table.operands_from(x.first_operand);
      if (is_commutative(inst.opcode) && x.operand_count == 2 && raw(ops[1]) < raw(ops[0])) std::swap(ops[0], ops[1]);
      const RegisterId first = table.find_or_add(x);
      if (first != inst.result) subst_.replace(inst.result, first);
    }
  }

  Module& m_;
  FunctionId fid_;
  Substitution subst_;
  // Computed once for the module: cse adds no registers and keeps each
  // Access result it removes equal to the one that replaces it.
  const PointerRoots& roots_;
};

}  // namespace

PassResult eliminate_common_subexpressions(Module& m) {
  bool changed = false;
  const PointerRoots roots(m);
  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    if (!m.function(FunctionId(i)).entry.valid()) continue;
    auto r = Cse(m, FunctionId(i), roots).run();
    if (!r) return r;
    changed = *r || changed;
  }
  return changed;
}

}  // namespace sluice::transform
