// See tree_source.h for the algorithm.
#include "flesh/tree_source.h"

#include <string>

#include "flesh/import.h"
#include "flesh/rng.h"
#include "frontend/spirv/module.h"
#include "ir/builder.h"
#include "ir/structure.h"
#include "output/spirv/spirv_output.h"
#include "transform/passes.h"

namespace sluice::flesh {
namespace {

using namespace ir;
using namespace ir::predefined;

// How a chain ends when it does not escape.
enum class End : std::uint8_t { Return, Merge, Continue, LoopIf, Break, Passthrough };

struct Chain {
  BlockId block;  // where the chain goes on
  End end;
  std::uint32_t depth;
};

constexpr std::uint32_t kMaxDepth = 8;

class TreeBuilder {
 public:
  TreeBuilder(std::uint64_t seed, std::uint32_t budget) : rng_(seed), budget_(budget) {}
  Result<Module> build(Coverage& coverage);

 private:
  template <class T>
  T take(Result<T> r) {
    if (r) return std::move(*r);
    if (error_.empty()) error_ = r.error();
    return T{};
  }
  Operand condition();
  Operand selector();
  void fill(const Chain& c);
  void end_chain(const Chain& c);
  void open_switch(const Chain& c);
  void add_escapes();
  void count_shapes(Coverage& coverage) const;
  Function& main() { return m_.function(main_); }
  std::uint32_t blocks() { return static_cast<std::uint32_t>(main().blocks.size()); }

  Module m_{ShaderStage::Fragment};
  Builder b_{m_};
  Rng rng_;
  std::uint32_t budget_;
  FunctionId main_;
  VariableId x_;
  std::vector<Chain> work_;
  std::vector<BlockId> ends_;  // normal ends that may become escapes
  std::string error_;
};

Operand TreeBuilder::condition() {
  static constexpr Opcode kCompare[] = {Opcode::LessThan, Opcode::GreaterThan, Opcode::Equal, Opcode::NotEqual};
  const Operand x = take(b_.load(x_));
  return take(b_.emit(kCompare[rng_.below(4)], {x, m_.int_constant(static_cast<std::int32_t>(rng_.below(8)))}));
}

Operand TreeBuilder::selector() {
  const Operand x = take(b_.load(x_));
  return take(b_.emit(Opcode::BitwiseAnd, {x, m_.int_constant(7)}));
}

void TreeBuilder::end_chain(const Chain& c) {
  switch (c.end) {
    case End::Return: take(b_.terminate(Opcode::Return)); return;
    case End::LoopIf: take(b_.terminate(Opcode::LoopIf, condition())); return;
    case End::Merge: take(b_.terminate(Opcode::Merge)); break;
    case End::Continue: take(b_.terminate(Opcode::Continue)); break;
    case End::Break: take(b_.terminate(Opcode::Break)); break;
    case End::Passthrough: take(b_.terminate(Opcode::Passthrough)); break;
  }
  ends_.push_back(c.block);
}

void TreeBuilder::open_switch(const Chain& c) {
  std::uint32_t labels[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  for (std::uint32_t i = 7; i > 0; --i) std::swap(labels[i], labels[rng_.below(i + 1)]);
  std::vector<SwitchCase> cases;
  const std::uint32_t count = 1 + rng_.below(3);
  for (std::uint32_t i = 0; i < count; ++i) cases.push_back(SwitchCase{labels[i]});
  if (rng_.chance(70)) cases.insert(cases.begin() + rng_.below(count + 1), SwitchCase{std::nullopt});
  const SwitchBlocks s = take(b_.branch_switch(selector(), cases));
  if (!error_.empty()) return;
  work_.push_back({s.merge, c.end, c.depth});
  for (std::size_t k = s.cases.size(); k-- > 0;) {
    const bool last = k + 1 == s.cases.size();
    work_.push_back({s.cases[k], !last && rng_.chance(35) ? End::Passthrough : End::Break, c.depth + 1});
  }
}

void TreeBuilder::fill(const Chain& c) {
  b_.set_block(c.block);
  const bool open = blocks() < budget_ && c.depth < kMaxDepth && rng_.chance(c.depth == 0 ? 95 : c.end == End::LoopIf ? 20 : 65);
  if (!open) {
    end_chain(c);
    return;
  }
  const std::uint32_t roll = rng_.below(100);
  if (roll < 30) {
    const IfBlocks i = take(b_.branch_if(condition(), rng_.chance(65)));
    if (!error_.empty()) return;
    work_.push_back({i.merge, c.end, c.depth});
    if (i.false_block.valid()) work_.push_back({i.false_block, End::Merge, c.depth + 1});
    work_.push_back({i.true_block, End::Merge, c.depth + 1});
  } else if (roll < 65) {
    const bool do_loop = roll >= 50;
    const LoopBlocks l = take(b_.branch_loop(do_loop, rng_.chance(40)));
    if (!error_.empty()) return;
    work_.push_back({l.merge, c.end, c.depth});
    work_.push_back({l.condition, End::LoopIf, c.depth + 1});
    if (l.continue_block.valid()) work_.push_back({l.continue_block, End::Continue, c.depth + 1});
    work_.push_back({l.body, End::Continue, c.depth + 1});
  } else if (roll < 88) {
    open_switch(c);
  } else {
    const BlockId next = take(b_.next_block());
    if (error_.empty()) work_.push_back({next, c.end, c.depth});
  }
}

void TreeBuilder::add_escapes() {
  Function& f = main();
  const auto contexts = compute_block_contexts(f);
  for (BlockId b : ends_) {
    if (!rng_.chance(30)) continue;
    const BlockContext& c = contexts[b.index()];
    // The SPIR-V output cannot express a block nothing reaches inside a
    // continue construct, which an escape there could leave behind.
    if (c.in_any_continue_construct) continue;
    // Legal IR that the SPIR-V output can express (docs/ir.md, "Scopes").
    std::vector<Opcode> legal = {Opcode::Return, Opcode::Discard};
    if (c.break_target.valid() && !c.break_forbidden()) legal.push_back(Opcode::Break);
    if (c.loop.valid()) legal.push_back(Opcode::Continue);
    Instruction* t = f.block(b).terminator();
    t->opcode = legal[rng_.below(static_cast<std::uint32_t>(legal.size()))];
    t->operands = {};
  }
}

void TreeBuilder::count_shapes(Coverage& coverage) const {
  const Function& f = m_.function(main_);
  const auto contexts = compute_block_contexts(f);
  auto reachable = [&](BlockId b) { return b.valid() && contexts[b.index()].reachable; };
  auto divergent = [&](BlockId b) {
    const auto op = f.block(b).terminator_opcode();
    return op == Opcode::If || op == Opcode::Loop || op == Opcode::DoLoop || op == Opcode::Switch ||
           op == Opcode::NextBlock;
  };
  for (std::uint32_t i = 0; i < f.blocks.size(); ++i) {
    const BlockContext& c = contexts[i];
    const ir::Block& k = f.blocks[i];
    if (!c.reachable || !k.terminator_opcode()) continue;
    switch (*k.terminator_opcode()) {
      case Opcode::If:
        coverage.add(k.if_false().valid() ? Shape::Selection : Shape::SelectionWithoutElse);
        // eliminate-unreachable-code emptied a merge nothing enters to Unreachable.
        if (f.block(k.merge).terminator_opcode() == Opcode::Unreachable) coverage.add(Shape::UnreachableMerge);
        if (c.in_continue_construct) coverage.add(Shape::SelectionInContinue);
        break;
      case Opcode::Loop:
      case Opcode::DoLoop: {
        const bool do_loop = k.terminator_opcode() == Opcode::DoLoop;
        coverage.add(do_loop ? Shape::DoWhileLoop : Shape::WhileLoop);
        if (c.loop.valid()) coverage.add(Shape::NestedLoop);
        const BlockId cont = k.loop_continue();
        // A DoLoop's continue construct is its continue chain and its condition.
        if (reachable(cont) && (do_loop || divergent(cont))) coverage.add(Shape::MultiBlockContinue);
        break;
      }
      case Opcode::Switch: {
        coverage.add(Shape::Switch);
        bool has_default = false;
        for (std::size_t n = 0; n < k.cases.size(); ++n)
          if (!k.cases[n].value) {
            has_default = true;
            if (n > 0 && n + 1 < k.cases.size()) coverage.add(Shape::SwitchDefaultMiddle);
          }
        if (!has_default) coverage.add(Shape::SwitchWithoutDefault);
        break;
      }
      case Opcode::Passthrough: coverage.add(Shape::SwitchFallThrough); break;
      case Opcode::Break:
        if (!c.breaks_from_switch) coverage.add(Shape::Break);
        else if (c.chain_kind != BlockKind::SwitchCase) coverage.add(Shape::SwitchBreak);
        break;
      case Opcode::Continue:
        if (c.chain_kind != BlockKind::LoopBody && c.chain_kind != BlockKind::LoopContinue) coverage.add(Shape::Continue);
        break;
      case Opcode::Return:
        if (c.construct.valid()) coverage.add(Shape::EarlyReturn);
        break;
      case Opcode::Discard: coverage.add(Shape::Discard); break;
      case Opcode::NextBlock: coverage.add(Shape::NextBlock); break;
      default: break;
    }
  }
}

Result<Module> TreeBuilder::build(Coverage& coverage) {
  Decorations location;
  location.location = 0;
  x_ = b_.add_global({"x", NameSource::Interface}, kInt, StorageClass::Input, Precision::None, location);
  main_ = b_.begin_function({"main", NameSource::Internal}, kVoid);
  work_.push_back({main().entry, End::Return, 0});
  while (!work_.empty() && error_.empty()) {
    const Chain c = work_.back();
    work_.pop_back();
    fill(c);
  }
  if (!error_.empty()) return internal_error("the random block tree: the builder rejected an instruction: " + error_);
  add_escapes();
  // Drop the code after escapes as front ends do (and so that the shapes
  // counted are the ones that can run).
  if (auto cleaned = transform::eliminate_unreachable_code(m_); !cleaned)
    return internal_error("the random block tree: eliminate-unreachable-code: " + cleaned.error());
  count_shapes(coverage);
  return std::move(m_);
}

}  // namespace

Result<ir::Module> random_block_tree(std::uint64_t seed, const GenerateOptions& options, Coverage& coverage) {
  return TreeBuilder(seed, std::max(2u, options.blocks)).build(coverage);
}

Result<std::vector<std::uint32_t>> block_tree_spirv(const ir::Module& tree) {
  spirv::Options o;
  o.target = spirv::TargetEnv::Vulkan1_0;
  o.debug_names = false;
  return spirv::emit(tree, o);
}

Result<Cfg> tree_cfg(std::uint64_t seed, const GenerateOptions& options, Coverage& coverage) {
  Coverage shapes;
  auto tree = random_block_tree(seed, options, shapes);
  if (!tree) return tree.failure();
  auto words = block_tree_spirv(*tree);
  if (!words) return internal_error("the SPIR-V output rejects a random block tree: " + words.error());
  const auto parsed = spirv_in::parse_binary(*words);
  if (!parsed.ok()) return internal_error("the block tree's SPIR-V does not parse: " + parsed.error().describe());
  auto cfg = import_cfg(parsed.value());
  if (!cfg) return internal_error("the block tree's CFG does not import: " + cfg.error());
  // Loops whose continue target nothing reaches (the body never continues),
  // seen in the CFG itself: the tree's Loop has no block for a latch.
  const auto reach = reachable_blocks(*cfg);
  for (BlockIndex b = 0; b < cfg->size(); ++b)
    if (reach[b] && cfg->blocks[b].merge_kind == MergeKind::Loop && !reach[cfg->blocks[b].continue_target])
      shapes.add(Shape::DoWhileFalse);
  coverage.add(shapes);
  return cfg;
}

}  // namespace sluice::flesh
