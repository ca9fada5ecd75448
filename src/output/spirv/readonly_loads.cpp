// Loads of memory the shader cannot write, reused across the dominator
// tree. Uniform, PushConstant and Input memory (but gl_HelperInvocation)
// keeps its value for the whole invocation, so a Load of such a pointer gives what an equal Load before
// it gave: the emitter hands out that earlier value where its node
// dominates the current one, as spirv-opt's redundancy-elimination
// (dominator-based value numbering) does.
//
// The IR's own eliminate-common-subexpressions cannot do this where the
// earlier load is inside a loop and the later one after it (a register
// defined in a loop is not used outside it: ir.md), the commonest case being
// a loop condition `i < u[1]` whose value is read again after the loop.
//
// One restriction, for NVIDIA's driver when its workaround is selected
// (Options::uniform_loads_in_loops; docs/workarounds.md,
// "reload-uniforms-in-loops"): a load inside a loop is not replaced by one
// from outside that loop, since a loop condition comparing with a uniform
// loaded before the loop is the shape that driver miscompiles. So the
// earlier load's node must lie in every loop the current node lies in.
//
// The OpAccessChains of deferred chains are reused the same way
// (materialize_reused()).
//
// Bounded: each key keeps its last kSites sites, so a load costs a hash and
// at most kSites dominance tests (two comparisons each, cfg.h).
#include "output/spirv/function_emitter.h"

namespace sluice::spirv::detail {
namespace {
constexpr std::size_t kSites = 4;
}

std::size_t FunctionEmitter::KeyHash::operator()(const std::vector<std::uint32_t>& k) const {
  std::size_t h = k.size();
  for (std::uint32_t w : k) h = h * 0x9e3779b97f4a7c15ull + w;  // Fibonacci hashing's multiplier
  return h;
}

bool reuses_loads_of(ir::StorageClass s) {
  // Of the memory the shader cannot write (ir::is_read_only), not opaque
  // handles, whose loads the emitter ties to their images. Of the inputs,
  // readonly_load_key() leaves out gl_HelperInvocation.
  return ir::is_read_only(s) && s != ir::StorageClass::UniformConstant;
}

std::vector<std::uint32_t> FunctionEmitter::readonly_load_key(ir::Operand pointer, ir::Precision precision) const {
  std::vector<std::uint32_t> key;
  if (pointer.is_variable()) {
    const ir::VariableId v = pointer.as_variable();
    if (v.index() >= m_.variable_count() || !reuses_loads_of(m_.type(m_.variable(v).type).storage)) return key;
    // gl_HelperInvocation changes when the invocation demotes itself
    // (SPV_EXT_demote_to_helper_invocation; SPIR-V 1.6 requires it Volatile).
    const ir::Decorations& d = m_.variable(v).decorations;
    if (d.volatile_ || d.built_in == "HelperInvocation") return key;
    const std::uint32_t id = mc_.global_ids[v.index()];
    if (id == 0) return key;
    key.push_back(id);
  } else if (const Chain* chain = deferred_chain(pointer)) {
    if (!reuses_loads_of(chain->storage)) return key;
    key.push_back(chain->root);
    key.insert(key.end(), chain->indices.begin(), chain->indices.end());
  } else {
    return key;
  }
  key.push_back(static_cast<std::uint32_t>(precision));
  return key;
}

std::uint32_t FunctionEmitter::reusable_load(const std::vector<std::uint32_t>& key) const {
  const auto it = readonly_loads_.find(key);
  if (it == readonly_loads_.end() || !cfg_.reachable(current_node_)) return 0;
  const std::uint32_t here = cfg_.nodes[current_node_].loop;
  for (const LoadSite& site : it->second)
    if (cfg_.dominates(site.node, current_node_) &&
        (!mc_.options.uniform_loads_in_loops || cfg_.loop_holds(here, cfg_.nodes[site.node].loop)))
      return site.id;
  return 0;
}

void FunctionEmitter::remember_load(std::vector<std::uint32_t> key, std::uint32_t id) {
  if (id == 0 || !cfg_.reachable(current_node_)) return;
  std::vector<LoadSite>& sites = readonly_loads_[std::move(key)];
  if (sites.size() == kSites) sites.erase(sites.begin());
  sites.push_back({current_node_, id});
}

// A deferred chain's OpAccessChain, or an equal one made in a node that
// dominates this one (an address does not change, so no loop rule: the IR's
// own eliminate-common-subexpressions already merges accesses across loops).
// Without it, the loads of one IR access register that stay in their loops
// would each make the chain again.
std::uint32_t FunctionEmitter::materialize_reused(const Chain& chain) {
  std::vector<std::uint32_t> key{chain.root, static_cast<std::uint32_t>(chain.storage), chain.flavour,
                                 chain.pointee.index()};
  key.insert(key.end(), chain.indices.begin(), chain.indices.end());
  const bool reachable = cfg_.reachable(current_node_);
  std::vector<LoadSite>& sites = chains_made_[std::move(key)];
  if (reachable)
    for (const LoadSite& site : sites)
      if (cfg_.dominates(site.node, current_node_)) return site.id;
  const std::uint32_t id = materialize(chain);
  if (reachable) {
    if (sites.size() == kSites) sites.erase(sites.begin());
    sites.push_back({current_node_, id});
  }
  return id;
}

}  // namespace sluice::spirv::detail
