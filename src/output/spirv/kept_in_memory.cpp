// Which variables the SSA promotion leaves in memory for a driver
// workaround (docs/workarounds.md); the rest of the function is unchanged,
// and with neither option set nothing is computed.
//
// fall-through-in-memory (Options::fall_through_in_memory): lavapipe (Mesa
// 22.3.6, llvmpipe) runs a valid module wrongly when an OpPhi sits in a
// switch case entered by fall-through, the switch is inside a loop, and the
// invocations leave the loop in different iterations: after the loop, an
// invocation that left early sees the phi's value as a later iteration of
// the others recomputed it. The same program with the variable in Function
// memory (OpVariable/OpLoad/OpStore, which Mesa turns into SSA itself) runs
// right.
//
// loop-vectors-in-memory (Options::loop_vectors_in_memory): the same
// driver runs a loop whose vector variable is carried as a vector OpPhi in
// the loop header up to 1.5x slower than the same loop with the vector in
// Function memory (bench/gpu/mandelbrot.comp's `vec2 z`: glslang -V's
// memory form against Sluice's and spirv-opt's phi form; nbody.comp's
// `vec3 acc` once its loop has a latch, loop-latch; the tables in
// docs/workarounds.md). Vector variables that would get a phi in a loop
// header stay in memory; scalars are promoted as before.
//
// Algorithm: the targets are the case nodes entered by fall-through (a
// predecessor other than their own switch's header) of the switches inside
// a loop of the function, or of every switch when the function is not the
// entry point (a caller may run it in a loop, and the driver inlines it),
// and the loop headers. Place phis for every variable the output would
// promote, as Ssa (ssa.h) places them for the real emission (pruned SSA, so
// only where the variable is live), and keep in memory each variable that
// gets a phi at a fall-through target, and each vector variable that gets
// one at a loop header.
#include "output/spirv/function_emitter.h"

#include "ir/typing.h"

namespace sluice::spirv::detail {

std::vector<std::uint8_t> FunctionEmitter::locals_kept_in_memory() const {
  std::vector<std::uint8_t> kept(locals_.size(), 0);
  if (!mc_.options.promote_to_ssa) return kept;
  std::vector<std::uint32_t> fall_through;  // case nodes entered by fall-through
  if (mc_.options.fall_through_in_memory) {
    const bool every_switch = fid_ != mc_.entry;
    for (std::uint32_t s = 0; s < cfg_.switches.size(); ++s) {
      const CfgSwitch& sw = cfg_.switches[s];
      if (!sw.in_loop && !every_switch) continue;
      for (std::uint32_t c : sw.case_nodes)
        for (std::uint32_t p : cfg_.preds_of(c))
          if (cfg_.nodes[p].exit != Exit::Switch || cfg_.nodes[p].switch_index != s) {
            fall_through.push_back(c);
            break;
          }
    }
  }
  const bool loop_vectors = mc_.options.loop_vectors_in_memory && !cfg_.loops.empty();
  if (fall_through.empty() && !loop_vectors) return kept;

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
  for (std::uint32_t c : fall_through)
    for (const auto& [var, id] : probe.phis_at(c)) kept[local_of[var]] = 1;
  if (loop_vectors)
    for (const CfgLoop& loop : cfg_.loops)
      for (const auto& [var, id] : probe.phis_at(loop.header))
        if (m_.type(locals_[local_of[var]].type).kind == ir::TypeKind::Vector) kept[local_of[var]] = 1;
  return kept;
}

}  // namespace sluice::spirv::detail
