// reload-uniforms-in-loops, a driver workaround (docs/workarounds.md,
// "reload-uniforms-in-loops"): a value loaded from uniform memory outside a
// loop and used inside it is loaded again, in the block of the loop that
// uses it.
//
// NVIDIA's 580 driver miscompiles a loop whose exit test compares its
// counter with a uniform value loaded before the loop when the body also
// updates a local array (GraphicsFuzz's
// cov-function-loop-switch-increment-array-element-return, reduced in
// docs/workarounds.md); the same module with the load inside the loop
// condition runs right. Sluice's eliminate-common-subexpressions merges such
// loads (a load inside a loop with an equal one before it), and shaders
// written with `const int one = u[1];` before the loop hoist it
// themselves; this rewrite undoes both, for the devices that need it, and
// the SPIR-V output (spirv::Options::uniform_loads_in_loops) then keeps
// such loads where they are instead of reusing the one outside.
//
// Loads it repeats: of Input, Uniform and PushConstant memory
// (transform::MemoryKind::ReadOnly, which no invocation writes, so the value
// is the same wherever it is loaded: the rewrite never changes what a
// program computes), not of opaque handles (UniformConstant).
//
// Algorithm, per function: one walk over its blocks records, for each
// register defined by such a Load, the innermost loop of its block; a second
// walk, over the blocks inside a loop, finds operands that are such
// registers from another (outer) loop or from none, and puts a copy of the
// Load before the first instruction of the block that uses it (one per block
// and register), pointing the uses at the copy. The pointer operand of the
// Load is a variable or a register that dominated the original Load, so it
// dominates the copy. Linear.
#include <algorithm>

#include "ir/structure.h"
#include "transform/passes.h"
#include "transform/pointer_roots.h"

namespace sluice::transform {

using namespace ir;

namespace {

bool reloadable(const Module& m, const PointerRoots& roots, const Instruction& inst) {
  if (inst.opcode != Opcode::Load || !inst.result.valid() || inst.operands.empty()) return false;
  const VariableId v = roots.root(inst.operands[0]);
  if (!v.valid() || memory_kind(m, v) != MemoryKind::ReadOnly) return false;
  return m.type(m.variable(v).type).storage != StorageClass::UniformConstant;
}

struct LoadSite {
  BlockId loop;           // the innermost loop of the Load's block; invalid outside loops
  std::uint32_t load = ~0u;  // into the function's copies of its Loads; ~0u: not such a register
};

bool reload_in(Module& m, FunctionId fid, const PointerRoots& roots) {
  const std::vector<BlockContext> contexts = compute_block_contexts(m.function(fid));
  std::vector<LoadSite> site(m.register_count());
  std::vector<Instruction> loads;  // copies: blocks are rewritten below
  bool any_in_loop = false;
  {
    const Function& f = m.function(fid);
    for (std::uint32_t b = 0; b < f.blocks.size(); ++b) {
      if (!contexts[b].reachable) continue;
      any_in_loop = any_in_loop || contexts[b].loop.valid();
      const auto& insts = f.blocks[b].instructions;
      for (std::uint32_t i = 0; i < insts.size(); ++i) {
        if (reloadable(m, roots, insts[i])) {
          site[insts[i].result.index()] = LoadSite{contexts[b].loop, static_cast<std::uint32_t>(loads.size())};
          loads.push_back(insts[i]);
        }
      }
    }
  }
  if (!any_in_loop) return false;
  bool changed = false;
  std::vector<std::pair<RegisterId, RegisterId>> reloaded;  // this block's: original -> copy
  for (std::uint32_t b = 0; b < m.function(fid).blocks.size(); ++b) {
    const BlockId loop = contexts[b].loop;
    if (!contexts[b].reachable || !loop.valid()) continue;
    reloaded.clear();
    std::vector<Instruction> out;
    std::vector<Instruction>& insts = m.function(fid).blocks[b].instructions;
    for (Instruction& inst : insts) {
      for (Operand& op : inst.operands) {
        if (!op.is_register() || op.value() >= site.size()) continue;
        const LoadSite& s = site[op.value()];
        if (s.load == ~0u || s.loop == loop) continue;
        const RegisterId original = op.as_register();
        auto it = std::find_if(reloaded.begin(), reloaded.end(), [&](const auto& p) { return p.first == original; });
        if (it == reloaded.end()) {
          Instruction copy = loads[s.load];
          const RegisterInfo info = m.reg(original);
          copy.result = m.new_register(info.type, info.precision);
          copy.location = inst.location;
          out.push_back(std::move(copy));
          reloaded.emplace_back(original, out.back().result);
          it = reloaded.end() - 1;
        }
        op = Operand(it->second);
      }
      out.push_back(std::move(inst));
    }
    if (out.size() != m.function(fid).blocks[b].instructions.size()) changed = true;
    m.function(fid).blocks[b].instructions = std::move(out);
  }
  return changed;
}

}  // namespace

PassResult reload_uniforms_in_loops(Module& m) {
  const PointerRoots roots(m);  // the copies add no Access results: computed once
  bool changed = false;
  for (std::uint32_t i = 0; i < m.function_count(); ++i)
    if (m.function(FunctionId(i)).entry.valid()) changed = reload_in(m, FunctionId(i), roots) || changed;
  return changed;
}

}  // namespace sluice::transform
