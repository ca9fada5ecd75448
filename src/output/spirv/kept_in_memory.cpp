// fall-through-in-memory, a driver workaround (docs/workarounds.md): which
// variables the SSA promotion leaves in memory (Options::fall_through_in_memory).
//
// lavapipe (Mesa 22.3.6, llvmpipe) runs a valid module wrongly when an OpPhi
// sits in a switch case entered by fall-through, the switch is inside a
// loop, and the invocations leave the loop in different iterations: after
// the loop, an invocation that left early sees the phi's value as a later
// iteration of the others recomputed it (docs/workarounds.md has the reduced
// module, the experiments and the evidence). The same program with the
// variable in Function memory (OpVariable/OpLoad/OpStore, which Mesa turns
// into SSA itself) runs right.
//
// Algorithm: find the case nodes entered by fall-through (a predecessor
// other than their own switch's header) of the switches inside a loop of
// the function, or of every switch when the function is not the entry point
// (a caller may run it in a loop, and the driver inlines it). Place phis for
// every variable the output would promote, as Ssa (ssa.h) places them for
// the real emission (pruned SSA, so only where the variable is live), and
// keep in memory each variable that gets a phi at one of those nodes. The
// rest of the function is unchanged; without such a switch nothing is
// computed twice.
#include "output/spirv/function_emitter.h"

#include "ir/typing.h"

namespace sluice::spirv::detail {

std::vector<std::uint8_t> FunctionEmitter::fall_through_phi_locals() const {
  std::vector<std::uint8_t> kept(locals_.size(), 0);
  const bool every_switch = fid_ != mc_.entry;
  std::vector<std::uint32_t> targets;  // case nodes entered by fall-through
  for (std::uint32_t s = 0; s < cfg_.switches.size(); ++s) {
    const CfgSwitch& sw = cfg_.switches[s];
    if (!sw.in_loop && !every_switch) continue;
    for (std::uint32_t c : sw.case_nodes)
      for (std::uint32_t p : cfg_.preds_of(c))
        if (cfg_.nodes[p].exit != Exit::Switch || cfg_.nodes[p].switch_index != s) {
          targets.push_back(c);
          break;
        }
  }
  if (targets.empty()) return kept;

  // The variables collect_variables() would promote, densely numbered.
  std::vector<std::uint32_t> index_of(locals_.size(), kNone), local_of;
  for (std::size_t i = 0; i < locals_.size(); ++i) {
    const Local& l = locals_[i];
    if (l.pointer_param || l.escapes || ir::is_opaque(m_.type(l.type))) continue;
    index_of[i] = static_cast<std::uint32_t>(local_of.size());
    local_of.push_back(static_cast<std::uint32_t>(i));
  }
  if (local_of.empty()) return kept;
  Ssa probe(cfg_, static_cast<std::uint32_t>(local_of.size()));
  feed_events(probe, index_of);
  probe.place_phis([](std::uint32_t, std::uint32_t) { return std::uint32_t{1}; });  // ids are not needed
  for (std::uint32_t c : targets)
    for (const auto& [var, id] : probe.phis_at(c)) kept[local_of[var]] = 1;
  return kept;
}

}  // namespace sluice::spirv::detail
