// Access chains combined from the root: the IR addresses one level per
// Access instruction (`r1 = AccessStructField buf 0; r2 = AccessArrayElement
// r1 i`), which emitted one by one gives an OpAccessChain per level and a
// pointer type for every intermediate level. spirv-opt -O's
// combine-access-chains folds such chains into one instruction per final
// pointer; so does this emitter, at no extra pass:
//
//  1. collect_variables()' scan over every instruction calls
//     note_pointer_use() for each register operand: a pointer register read
//     other than as operand 0 of a (non-swizzle) access — by a Load, Store,
//     call, atomic, swizzle, Alias, terminator — is marked needed, except
//     by a Load of Uniform or PushConstant memory, which materializes the
//     chain where it loads (or reuses an equal load: readonly_loads.cpp).
//  2. emit_access() builds the chain of each access: a deferred base's root
//     and indices, plus this level's index. A needed access is emitted as
//     one OpAccessChain of the whole chain where the IR defines it; another
//     is only recorded (chain_of_) for the accesses built on it.
//
// The combined instruction sits where the IR's last access does; its
// operands (the root and the index values) are defined before every access
// of the chain, so they dominate it. Linear: each access copies its base's
// index list once (chains are as deep as the types are nested).
#include "output/spirv/function_emitter.h"

#include "ir/typing.h"

namespace sluice::spirv::detail {

void FunctionEmitter::note_pointer_use(const ir::Instruction& inst, std::size_t i) {
  const ir::Operand op = inst.operands[i];
  if (!op.is_register() || op.value() >= m_.register_count()) return;
  const bool chain_base = i == 0 && ir::info(inst.opcode).family == ir::OpcodeFamily::Access &&
                          inst.opcode != ir::Opcode::AccessVectorComponentMulti;
  if (chain_base) return;
  const ir::TypeId t = m_.reg(ir::RegisterId(op.value())).type;
  if (!ir::is_pointer(m_, t)) return;
  // A Load of read-only memory materializes the chain itself, at the load,
  // unless an equal load before it is reused (readonly_loads.cpp).
  if (inst.opcode == ir::Opcode::Load && reuses_loads_of(m_.type(t).storage)) return;
  pointer_needed_.set(op.value(), 1);
}

const FunctionEmitter::Chain* FunctionEmitter::deferred_chain(ir::Operand op) const {
  if (!op.is_register()) return nullptr;
  const std::uint32_t* c = chain_of_.find(op.value());
  return c ? &chains_[*c - 1] : nullptr;
}

void FunctionEmitter::emit_chain(const ir::Instruction& inst, std::uint32_t root, std::vector<std::uint32_t> indices,
                                 Flavour flavour) {
  const std::uint32_t r = inst.result.index();
  const ir::Type& result = m_.type(m_.reg(inst.result).type);
  Chain chain{root, std::move(indices), result.element, result.storage, flavour};
  if (!pointer_needed_.find(r)) {
    // Its pointer type is declared only if a use ever materializes it.
    chains_.push_back(std::move(chain));
    chain_of_.set(r, static_cast<std::uint32_t>(chains_.size()));
    return;
  }
  set_result(inst, materialize(chain));
}

std::uint32_t FunctionEmitter::materialize(const Chain& chain) {
  std::vector<std::uint32_t> args;
  args.reserve(chain.indices.size() + 1);
  args.push_back(chain.root);
  args.insert(args.end(), chain.indices.begin(), chain.indices.end());
  return op(spv::Op::OpAccessChain, mc_.pointer_type(chain.pointee, chain.storage, chain.flavour), args);
}

}  // namespace sluice::spirv::detail
