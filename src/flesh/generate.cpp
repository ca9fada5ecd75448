#include "flesh/generate.h"

#include <algorithm>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "flesh/rng.h"

namespace sluice::flesh {

const char* to_string(Shape s) {
  switch (s) {
    case Shape::Selection: return "selection";
    case Shape::SelectionWithoutElse: return "selection-without-else";
    case Shape::UnreachableMerge: return "unreachable-merge";
    case Shape::WhileLoop: return "while-loop";
    case Shape::DoWhileLoop: return "do-while-loop";
    case Shape::InfiniteLoop: return "infinite-loop";
    case Shape::SelfContinueLoop: return "self-continue-loop";
    case Shape::DoWhileFalse: return "do-while-false";
    case Shape::MultiBlockContinue: return "multi-block-continue";
    case Shape::SelectionInContinue: return "selection-in-continue";
    case Shape::NestedLoop: return "nested-loop";
    case Shape::Switch: return "switch";
    case Shape::SwitchFallThrough: return "switch-fall-through";
    case Shape::SwitchDefaultMiddle: return "switch-default-middle";
    case Shape::SwitchDefaultShared: return "switch-default-shared";
    case Shape::SwitchWithoutDefault: return "switch-without-default";
    case Shape::Break: return "break";
    case Shape::SwitchBreak: return "switch-break";
    case Shape::Continue: return "continue";
    case Shape::EarlyReturn: return "early-return";
    case Shape::StructurallyUnreachable: return "structurally-unreachable";
    case Shape::Discard: return "discard";
    case Shape::NextBlock: return "next-block";
    case Shape::Count: break;
  }
  return "?";
}

void Coverage::add(const Coverage& other) {
  for (std::size_t i = 0; i < kShapeCount; ++i) counts[i] += other.counts[i];
}

std::string Coverage::line() const {
  std::string s;
  for (std::size_t i = 0; i < kShapeCount; ++i)
    s += fmt::format("{}{} {}", i ? ", " : "", to_string(static_cast<Shape>(i)), counts[i]);
  return s;
}

namespace {

// Where a region's early exits may go.
struct Context {
  BlockIndex loop_merge = kNoBlock;
  BlockIndex loop_continue = kNoBlock;  // kNoBlock also inside a do-while(false) body
  BlockIndex break_target = kNoBlock;   // the innermost loop's or switch's merge
  bool break_is_switch = false;
  bool in_continue = false;             // a continue construct: no early exits, loops or switches
  std::uint32_t loop_depth = 0;
};

struct Region {
  BlockIndex entry;
  BlockIndex exit;
  Context context;
  std::uint32_t budget;
};

class Generator {
 public:
  Generator(std::uint64_t seed, const GenerateOptions& options) : rng_(seed), options_(options) {}

  Cfg run(Coverage& coverage) {
    const BlockIndex entry = fresh(), body = fresh(), exit = fresh();
    branch(entry, body);
    cfg_.blocks[exit].terminator = Terminator::Return;
    const std::uint32_t budget = options_.blocks > 3 ? options_.blocks - 3 : 1;
    work_.push_back({body, exit, Context{}, budget});
    while (!work_.empty()) {
      const Region r = work_.back();
      work_.pop_back();
      expand(r);
    }
    drop_unreferenced();
    if (rng_.chance(20)) add_unreachable_chain();
    compute_layout(cfg_);
    for (auto [block, shape] : events_)
      if (block != kNoBlock) coverage.add(shape);
    return std::move(cfg_);
  }

 private:
  BlockIndex fresh() {
    cfg_.blocks.emplace_back();
    return static_cast<BlockIndex>(cfg_.blocks.size() - 1);
  }
  void branch(BlockIndex b, BlockIndex t) {
    cfg_.blocks[b].terminator = Terminator::Branch;
    cfg_.blocks[b].targets = {t};
  }
  void conditional(BlockIndex b, BlockIndex t, BlockIndex f) {
    cfg_.blocks[b].terminator = Terminator::Conditional;
    cfg_.blocks[b].targets = {t, f};
  }
  void selection_merge(BlockIndex b, BlockIndex m) {
    cfg_.blocks[b].merge_kind = MergeKind::Selection;
    cfg_.blocks[b].merge = m;
  }
  void note(BlockIndex b, Shape s) { events_.emplace_back(b, s); }

  // Splits `budget` into `parts` random non-negative pieces.
  std::vector<std::uint32_t> split(std::uint32_t budget, std::uint32_t parts) {
    std::vector<std::uint32_t> cuts;
    for (std::uint32_t i = 0; i + 1 < parts; ++i) cuts.push_back(rng_.below(budget + 1));
    std::sort(cuts.begin(), cuts.end());
    std::vector<std::uint32_t> out;
    std::uint32_t prev = 0;
    for (std::uint32_t c : cuts) {
      out.push_back(c - prev);
      prev = c;
    }
    out.push_back(budget - prev);
    return out;
  }

  bool can_leave_early(const Context& c) const { return !c.in_continue; }

  // Ends `b` with an early exit allowed in `c`: return, break or continue.
  void leave_early(BlockIndex b, const Context& c) {
    std::vector<int> options{0};
    if (c.break_target != kNoBlock) options.push_back(1);
    if (c.loop_continue != kNoBlock) options.push_back(2);
    switch (options[rng_.below(static_cast<std::uint32_t>(options.size()))]) {
      case 0:
        cfg_.blocks[b].terminator = Terminator::Return;
        note(b, Shape::EarlyReturn);
        break;
      case 1:
        branch(b, c.break_target);
        note(b, c.break_is_switch ? Shape::SwitchBreak : Shape::Break);
        break;
      default:
        branch(b, c.loop_continue);
        note(b, Shape::Continue);
        break;
    }
  }

  void expand(const Region& r) {
    if (r.budget == 0) {
      branch(r.entry, r.exit);
      return;
    }
    if (r.budget == 1) {
      const BlockIndex mid = fresh();
      branch(r.entry, mid);
      branch(mid, r.exit);
      return;
    }
    // Weights: sequence, selection, loop, switch.
    std::array<std::uint32_t, 4> w{3, 4, 3, 2};
    if (r.budget < 3) w = {1, 0, 0, 0};
    if (r.context.in_continue) w[2] = w[3] = 0;
    const std::uint32_t total = w[0] + w[1] + w[2] + w[3];
    std::uint32_t pick = rng_.below(total), kind = 0;
    while (pick >= w[kind]) pick -= w[kind++];
    switch (kind) {
      case 0: {
        const BlockIndex mid = fresh();
        const auto parts = split(r.budget - 1, 2);
        work_.push_back({mid, r.exit, r.context, parts[1]});
        work_.push_back({r.entry, mid, r.context, parts[0]});
        break;
      }
      case 1:
        if (r.budget >= 6 && can_leave_early(r.context) && rng_.chance(10)) unreachable_merge(r);
        else selection(r);
        break;
      case 2: loop(r); break;
      default: switch_(r); break;
    }
  }

  void selection(const Region& r) {
    const BlockIndex merge = fresh();
    selection_merge(r.entry, merge);
    note(r.entry, r.context.in_continue ? Shape::SelectionInContinue : Shape::Selection);
    const auto parts = split(r.budget - 2, 3);
    if (rng_.chance(30)) {
      const BlockIndex arm = fresh();
      if (rng_.chance(50)) conditional(r.entry, arm, merge);
      else conditional(r.entry, merge, arm);
      note(r.entry, Shape::SelectionWithoutElse);
      if (can_leave_early(r.context) && rng_.chance(35)) {
        leave_early(arm, r.context);
        work_.push_back({merge, r.exit, r.context, parts[0] + parts[1] + parts[2]});
      } else {
        work_.push_back({arm, merge, r.context, parts[0]});
        work_.push_back({merge, r.exit, r.context, parts[1] + parts[2]});
      }
      return;
    }
    const BlockIndex t = fresh(), f = fresh();
    conditional(r.entry, t, f);
    bool t_left = false;
    std::uint32_t merge_budget = parts[2];
    if (can_leave_early(r.context) && rng_.chance(25)) {
      leave_early(t, r.context);
      t_left = true;
      merge_budget += parts[0];
    } else {
      work_.push_back({t, merge, r.context, parts[0]});
    }
    // Both arms leaving would orphan everything after the merge: the
    // unreachable merge has its own construct (unreachable_merge).
    if (!t_left && can_leave_early(r.context) && rng_.chance(25)) {
      leave_early(f, r.context);
      merge_budget += parts[1];
    } else {
      work_.push_back({f, merge, r.context, parts[1]});
    }
    work_.push_back({merge, r.exit, r.context, merge_budget});
  }

  // if (c1) { if (c2) leave; else leave; /* unreachable merge */ }: the
  // inner selection's merge is OpUnreachable; the outer one keeps the rest
  // of the region reachable.
  void unreachable_merge(const Region& r) {
    const BlockIndex outer_merge = fresh(), inner = fresh(), inner_merge = fresh(), t = fresh(), f = fresh();
    selection_merge(r.entry, outer_merge);
    if (rng_.chance(50)) conditional(r.entry, inner, outer_merge);
    else conditional(r.entry, outer_merge, inner);
    selection_merge(inner, inner_merge);
    conditional(inner, t, f);
    leave_early(t, r.context);
    leave_early(f, r.context);
    cfg_.blocks[inner_merge].terminator = Terminator::Unreachable;
    note(inner_merge, Shape::UnreachableMerge);
    note(r.entry, Shape::Selection);
    note(inner, Shape::Selection);
    work_.push_back({outer_merge, r.exit, r.context, r.budget > 6 ? r.budget - 6 : 0});
  }

  void loop(const Region& r) {
    const BlockIndex header = r.entry, merge = fresh();
    Block& h = cfg_.blocks[header];
    h.merge_kind = MergeKind::Loop;
    h.merge = merge;
    if (r.context.loop_depth > 0) note(header, Shape::NestedLoop);
    Context inner = r.context;
    inner.loop_merge = inner.break_target = merge;
    inner.break_is_switch = false;
    inner.loop_depth++;
    const auto parts = split(r.budget - 2, 3);
    const std::uint32_t kind = rng_.below(5);
    if (kind == 3) {  // the header is its own continue target and back-edge block
      cfg_.blocks[header].continue_target = header;
      if (rng_.chance(50)) conditional(header, header, merge);
      else conditional(header, merge, header);
      note(header, Shape::SelfContinueLoop);
      work_.push_back({merge, r.exit, r.context, parts[0] + parts[1] + parts[2]});
      return;
    }
    const BlockIndex cont = fresh(), body = fresh();
    cfg_.blocks[header].continue_target = cont;
    inner.loop_continue = cont;
    work_.push_back({merge, r.exit, r.context, parts[2]});
    if (kind == 4) {  // do { ... } while (false): the continue target is never reached
      branch(header, body);
      branch(cont, header);
      inner.loop_continue = kNoBlock;
      note(header, Shape::DoWhileFalse);
      work_.push_back({body, merge, inner, parts[0] + parts[1]});
      return;
    }
    // The continue construct: one block, or a region of several ending in
    // the back-edge block.
    BlockIndex back_edge = cont;
    if (parts[1] >= 2 && rng_.chance(50)) {
      back_edge = fresh();
      Context c = inner;
      c.in_continue = true;
      c.loop_continue = c.loop_merge = c.break_target = kNoBlock;
      work_.push_back({cont, back_edge, c, parts[1]});
      note(header, Shape::MultiBlockContinue);
    }
    BlockIndex body_exit = cont;
    if (kind == 0) {  // while (c) { ... }
      conditional(header, body, merge);
      branch(back_edge, header);
      note(header, Shape::WhileLoop);
    } else if (kind == 1) {  // do { ... } while (c)
      branch(header, body);
      conditional(back_edge, header, merge);
      note(header, Shape::DoWhileLoop);
    } else {  // while (true) { if (c) break; ... }
      branch(header, body);
      branch(back_edge, header);
      const BlockIndex rest = fresh();
      selection_merge(body, rest);
      conditional(body, merge, rest);
      note(header, Shape::InfiniteLoop);
      note(body, Shape::Break);
      work_.push_back({rest, body_exit, inner, parts[0]});
      return;
    }
    work_.push_back({body, body_exit, inner, parts[0]});
  }

  void switch_(const Region& r) {
    const BlockIndex merge = fresh();
    selection_merge(r.entry, merge);
    note(r.entry, Shape::Switch);
    const std::uint32_t cases = 1 + rng_.below(3);
    std::vector<BlockIndex> order;  // the case (and default) blocks in OpSwitch and layout order
    for (std::uint32_t i = 0; i < cases; ++i) order.push_back(fresh());
    // The default: the merge, one of the cases, or a block of its own among them.
    BlockIndex default_target = merge;
    const std::uint32_t d = rng_.below(3);
    if (d == 0) {
      note(r.entry, Shape::SwitchWithoutDefault);
    } else if (d == 1) {
      default_target = order[rng_.below(cases)];
      note(r.entry, Shape::SwitchDefaultShared);
    } else {
      default_target = fresh();
      const std::uint32_t at = rng_.below(cases + 1);
      order.insert(order.begin() + at, default_target);
      if (at > 0 && at < cases) note(r.entry, Shape::SwitchDefaultMiddle);
    }
    Block& s = cfg_.blocks[r.entry];
    s.terminator = Terminator::Switch;
    s.targets = {default_target};
    std::vector<bool> used(64, false);
    for (BlockIndex t : order) {
      if (t == default_target && d == 2) continue;
      const std::uint32_t literals = rng_.chance(20) ? 2 : 1;
      for (std::uint32_t k = 0; k < literals; ++k) {
        std::uint32_t v = rng_.below(64);
        while (used[v]) v = (v + 1) % 64;
        used[v] = true;
        s.targets.push_back(t);
        s.case_literals.push_back(v);
      }
    }
    s.default_selector = 64 + rng_.below(64);
    Context inner = r.context;
    inner.break_target = merge;
    inner.break_is_switch = true;
    const auto parts = split(r.budget - 2, static_cast<std::uint32_t>(order.size()) + 1);
    bool all_left = true;
    std::uint32_t spare = 0;  // the budgets of cases that left early go to the merge
    for (std::size_t i = 0; i < order.size(); ++i) {
      const bool last = i + 1 == order.size();
      // The last case stays if all others left (the merge stays reachable).
      if (can_leave_early(inner) && !(last && all_left && default_target != merge) && rng_.chance(15)) {
        leave_early(order[i], inner);
        spare += parts[i];
        continue;
      }
      all_left = false;
      BlockIndex exit = merge;
      if (!last && rng_.chance(30)) {
        exit = order[i + 1];
        note(r.entry, Shape::SwitchFallThrough);
      }
      work_.push_back({order[i], exit, inner, parts[i]});
    }
    work_.push_back({merge, r.exit, r.context, parts.back() + spare});
  }

  // Removes the blocks that no branch, merge or continue edge reaches from
  // the entry, renumbering the rest in order.
  void drop_unreferenced() {
    const std::uint32_t n = cfg_.size();
    std::vector<bool> seen(n, false);
    std::vector<BlockIndex> work{0};
    seen[0] = true;
    while (!work.empty()) {
      const BlockIndex b = work.back();
      work.pop_back();
      const Block& k = cfg_.blocks[b];
      auto visit = [&](BlockIndex t) {
        if (t != kNoBlock && !seen[t]) {
          seen[t] = true;
          work.push_back(t);
        }
      };
      for (BlockIndex t : k.targets) visit(t);
      visit(k.merge);
      visit(k.continue_target);
    }
    std::vector<BlockIndex> renumber(n, kNoBlock);
    std::vector<Block> kept;
    for (BlockIndex b = 0; b < n; ++b)
      if (seen[b]) {
        renumber[b] = static_cast<BlockIndex>(kept.size());
        kept.push_back(std::move(cfg_.blocks[b]));
      }
    auto map = [&](BlockIndex& t) {
      if (t != kNoBlock) t = renumber[t];
    };
    for (Block& k : kept) {
      for (BlockIndex& t : k.targets) map(t);
      map(k.merge);
      map(k.continue_target);
    }
    cfg_.blocks = std::move(kept);
    for (auto& e : events_) e.first = renumber[e.first];
  }

  // A short chain no edge reaches: code after a return in a source
  // language, which SPIR-V keeps as structurally unreachable blocks.
  void add_unreachable_chain() {
    const BlockIndex first = fresh(), last = fresh();
    branch(first, last);
    cfg_.blocks[last].terminator = Terminator::Return;
    note(first, Shape::StructurallyUnreachable);
  }

  Rng rng_;
  GenerateOptions options_;
  Cfg cfg_;
  std::vector<Region> work_;
  std::vector<std::pair<BlockIndex, Shape>> events_;
};

}  // namespace

Cfg generate_cfg(std::uint64_t seed, const GenerateOptions& options, Coverage& coverage) {
  return Generator(seed, options).run(coverage);
}

}  // namespace sluice::flesh
