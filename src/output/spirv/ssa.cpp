// SSA construction (algorithm in ssa.h). Unreachable nodes (stubs) take no
// part: they have no dominator, no phis, and phi operands coming from them
// are undefined.
#include "output/spirv/ssa.h"

#include <algorithm>

namespace sluice::spirv::detail {

Ssa::Ssa(const Cfg& cfg, std::uint32_t variable_count)
    : cfg_(cfg),
      variable_count_(variable_count),
      last_def_node_(variable_count, kNone),
      last_use_node_(variable_count, kNone),
      phi_start_(cfg.nodes.size() + 1, 0),
      initial_(variable_count, 0),
      current_value_(variable_count, 0),
      current_stamp_(variable_count, 0),
      written_stamp_(variable_count, 0),
      end_start_(cfg.nodes.size(), 0),
      end_count_(cfg.nodes.size(), 0),
      memoized_(cfg.nodes.size(), 0) {}

const std::uint32_t* Ssa::end_value(std::uint32_t node, std::uint32_t var) const {
  const auto* begin = end_pairs_.data() + end_start_[node];
  for (const auto* p = begin; p != begin + end_count_[node]; ++p)
    if (p->first == var) return &p->second;
  return nullptr;
}

const std::uint32_t* Ssa::phi(std::uint32_t node, std::uint32_t var) const {
  for (std::uint32_t k = phi_start_[node]; k < phi_start_[node + 1]; ++k)
    if (phis_[k].first == var) return &phis_[k].second;
  return nullptr;
}

namespace {

// Groups (key, value) pairs by key into CSR form: start[k]..start[k + 1]
// index the values of key k, in the order the pairs came.
template <class V>
void group_by(std::size_t keys, const std::vector<std::pair<std::uint32_t, V>>& pairs, std::vector<std::uint32_t>& start,
              std::vector<V>& values) {
  start.assign(keys + 1, 0);
  for (const auto& p : pairs) ++start[p.first + 1];
  for (std::size_t k = 0; k < keys; ++k) start[k + 1] += start[k];
  values.resize(pairs.size());
  std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
  for (const auto& p : pairs) values[fill[p.first]++] = p.second;
}

}  // namespace

// Events come node by node, so a node repeats only at the back of a list.
void Ssa::add_def(std::uint32_t var, std::uint32_t node) {
  if (last_def_node_[var] == node) return;
  last_def_node_[var] = node;
  def_events_.emplace_back(var, node);
}

void Ssa::add_upward_use(std::uint32_t var, std::uint32_t node) {
  if (last_use_node_[var] == node) return;
  last_use_node_[var] = node;
  use_events_.emplace_back(var, node);
}

void Ssa::compute_frontiers() {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;  // (runner, join)
  std::vector<std::uint32_t> last_join(cfg_.nodes.size(), kNone);
  for (std::uint32_t n : cfg_.rpo) {
    const auto preds = cfg_.preds_of(n);
    std::uint32_t reachable_preds = 0;
    for (std::uint32_t p : preds) reachable_preds += cfg_.rpo_index[p] != kNone;
    if (reachable_preds < 2) continue;
    for (std::uint32_t p : preds) {
      if (cfg_.rpo_index[p] == kNone) continue;
      for (std::uint32_t runner = p; runner != cfg_.idom[n]; runner = cfg_.idom[runner]) {
        // A runner reached from two predecessors records the join once.
        if (last_join[runner] != n) pairs.emplace_back(runner, n);
        last_join[runner] = n;
        if (runner == 0) break;  // the entry dominates everything
      }
    }
  }
  group_by(cfg_.nodes.size(), pairs, frontier_start_, frontier_);
}

void Ssa::place_phis(const std::function<std::uint32_t(std::uint32_t, std::uint32_t)>& new_phi) {
  compute_frontiers();
  const std::size_t count = cfg_.nodes.size();
  std::vector<std::uint32_t> live(count, 0), defined(count, 0), placed(count, 0), queued(count, 0);
  std::vector<std::uint32_t> work;
  std::vector<std::pair<std::uint32_t, std::pair<std::uint32_t, std::uint32_t>>> placed_phis;  // (node, (var, id))
  std::vector<std::uint32_t> def_start, def_nodes, use_start, use_nodes;
  group_by(variable_count_, def_events_, def_start, def_nodes);
  group_by(variable_count_, use_events_, use_start, use_nodes);
  for (std::uint32_t v = 0; v < variable_count_; ++v) {
    const std::span<const std::uint32_t> defs(def_nodes.data() + def_start[v], def_nodes.data() + def_start[v + 1]);
    const std::span<const std::uint32_t> uses(use_nodes.data() + use_start[v], use_nodes.data() + use_start[v + 1]);
    if (defs.empty() || uses.empty()) continue;  // no def, or no read that could see a phi
    const std::uint32_t stamp = v + 1;
    for (std::uint32_t d : defs) defined[d] = stamp;
    // Live-in blocks: back from each upward-exposed read until a write.
    work.clear();
    for (std::uint32_t u : uses) {
      if (live[u] != stamp) {
        live[u] = stamp;
        work.push_back(u);
      }
    }
    while (!work.empty()) {
      const std::uint32_t n = work.back();
      work.pop_back();
      for (std::uint32_t p : cfg_.preds_of(n)) {
        if (cfg_.rpo_index[p] == kNone || live[p] == stamp || defined[p] == stamp) continue;
        live[p] = stamp;
        work.push_back(p);
      }
    }
    // Iterated frontier of the writes, kept to live blocks.
    work.assign(defs.begin(), defs.end());
    for (std::uint32_t d : work) queued[d] = stamp;
    while (!work.empty()) {
      const std::uint32_t d = work.back();
      work.pop_back();
      for (std::uint32_t k = frontier_start_[d]; k < frontier_start_[d + 1]; ++k) {
        const std::uint32_t f = frontier_[k];
        if (placed[f] == stamp || live[f] != stamp) continue;
        placed[f] = stamp;
        placed_phis.push_back({f, {v, new_phi(f, v)}});
        if (queued[f] != stamp) {
          queued[f] = stamp;
          work.push_back(f);
        }
      }
    }
  }
  group_by(count, placed_phis, phi_start_, phis_);  // variables stay in order within a node
}

std::uint32_t Ssa::read(std::uint32_t var) {
  if (current_stamp_[var] == current_ + 1) return current_value_[var];
  // Later reads in this node find the value without a lookup.
  current_stamp_[var] = current_ + 1;
  return current_value_[var] = value_at_entry(current_, var);
}

void Ssa::write(std::uint32_t var, std::uint32_t id) {
  current_stamp_[var] = current_ + 1;
  if (written_stamp_[var] != current_ + 1) {
    written_stamp_[var] = current_ + 1;
    written_here_.push_back(var);
  }
  current_value_[var] = id;
}

void Ssa::end_node() {
  end_start_[current_] = static_cast<std::uint32_t>(end_pairs_.size());
  end_count_[current_] = static_cast<std::uint32_t>(written_here_.size());
  for (std::uint32_t v : written_here_) end_pairs_.emplace_back(v, current_value_[v]);
  written_here_.clear();
  current_ = kNone;
}

std::uint32_t Ssa::value_at_entry(std::uint32_t node, std::uint32_t var) {
  if (!cfg_.reachable(node)) return initial_[var];
  // Up the dominator tree until a phi, a write or a memoized value. Per-node
  // data is scanned directly (a node has few phis and writes); long walks
  // are memoized for every node they pass (path compression), so a deep
  // chain is walked once per variable.
  path_.clear();
  std::uint32_t result = 0;
  for (std::uint32_t x = node;;) {
    if (const std::uint32_t* p = phi(x, var)) {
      result = *p;
      break;
    }
    if (x != node && memoized_[x])
      if (const std::uint32_t* memo = entry_values_.find(pack_key(x, var))) {
        result = *memo;
        break;
      }
    path_.push_back(x);
    const std::uint32_t up = cfg_.idom[x];
    if (up == x || up == kNone) {
      result = initial_[var];
      break;
    }
    if (const std::uint32_t* end = end_value(up, var)) {
      result = *end;
      break;
    }
    x = up;
  }
  constexpr std::size_t kLongWalk = 4;
  if (path_.size() >= kLongWalk)
    for (std::size_t k = 1; k < path_.size(); ++k) {
      entry_values_.set(pack_key(path_[k], var), result);
      memoized_[path_[k]] = 1;
    }
  return result;
}

std::uint32_t Ssa::value_at_end(std::uint32_t node, std::uint32_t var) {
  if (cfg_.rpo_index[node] == kNone) return 0;  // an unreachable predecessor: undefined
  if (const std::uint32_t* end = end_value(node, var)) return *end;
  return value_at_entry(node, var);
}

}  // namespace sluice::spirv::detail
