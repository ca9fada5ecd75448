// What the statement emitter needs to know about one function before it
// writes anything: where each register is defined and used (counting a use
// through an inlined pointer as a use of the pointer's operands), which
// uses GLSL scoping could not see, which Load/op/Store triples print as a
// compound assignment, and where local variables are best declared.
//
// Everything is computed by loops over ir::visit's pre-order; nothing
// recurses along the block tree.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/structure.h"
#include "output/glsl/context.h"

namespace sluice::glsl_out {

inline constexpr std::int32_t kBlockEntry = -1;  // the "instruction index" of a merge input

struct Site {
  ir::BlockId block;
  std::int32_t index = kBlockEntry;
};

inline constexpr std::uint8_t kSplitVector = 1, kSplitUncounted = 2;  // RegisterFacts::split_coordinate

// Per-register facts, indexed by RegisterId over the whole module (each
// register belongs to one function).
struct RegisterFacts {
  std::vector<Site> def;
  std::vector<std::uint8_t> uses;      // effective uses, saturating at 2
  std::vector<Site> first_use;
  std::vector<std::uint8_t> must_inline;  // pointers, opaque values and aliases: never named
  // Load L; V = L op X; Store P V with nothing effectful between: L is not
  // spelled, V prints as "P op= X" (compound_value), L as part of it.
  std::vector<std::uint8_t> compound_load;
  std::vector<std::uint8_t> compound_value;
  // Registers stored by consecutive Stores (`a = b = value`): the number of
  // those Stores; the last one writes them all as one chained assignment.
  std::vector<std::uint8_t> chained_stores;
  std::vector<std::uint32_t> def_sequence;  // definition order, to refuse cyclic definitions
  // source_forms.h: splats spelled as their scalar, and the Loads of the
  // copies in and back of arguments written in place (no text of their
  // own, nor of the Stores of them).
  std::vector<std::uint8_t> implicit_splat;
  std::vector<std::uint8_t> folded;
  // source_forms.h: the Extracts that take a sampling's coordinate (and
  // depth reference) apart from one vector, written by none: the sampling
  // spells the vector. The vector's one use is the later Extract's
  // (kSplitVector), the earlier one's is not counted (kSplitUncounted).
  std::vector<std::uint8_t> split_coordinate;
  // An operand of some instruction of the block that defines it (so not an
  // access chain nothing uses: statements.cpp, unused_constant_access).
  std::vector<std::uint8_t> used_in_def_block;

  explicit RegisterFacts(std::size_t n)
      : def(n), uses(n, 0), first_use(n), must_inline(n, 0), compound_load(n, 0), compound_value(n, 0),
        chained_stores(n, 0), def_sequence(n, 0), implicit_splat(n, 0), folded(n, 0), split_coordinate(n, 0),
        used_in_def_block(n, 0) {}
};

// Per-variable facts about locals and parameters, indexed by VariableId.
struct VariableFacts {
  std::vector<ir::BlockId> declared_in;    // the block whose Declare list holds it
  std::vector<std::uint8_t> is_parameter;
  std::vector<std::uint32_t> first_order, last_order;  // pre-order positions of the first and last use
  std::vector<Site> first_use;             // the first instruction that names it (pre-order, then index)
  std::vector<std::uint8_t> first_use_is_store;  // ...and it is `Store v value` of the whole variable
  std::vector<std::int32_t> declare_at_store;    // declare at this Store of its block (index), or -1
  std::vector<std::uint8_t> declared;            // the emitter has written its declaration
  std::vector<ir::BlockId> for_init_of;          // the Loop block whose for-init declares it
  // A copy-back temporary (source_forms.h): the argument written in its place.
  std::vector<std::optional<ir::Operand>> argument_target;
  // glslang's temporary for the value of a call with converted out
  // arguments (source_forms.h): the call's result, which its Load stands
  // for; neither its Store nor its Load names it.
  std::vector<ir::RegisterId> return_temporary;

  explicit VariableFacts(std::size_t n)
      : declared_in(n), is_parameter(n, 0), first_order(n, UINT32_MAX), last_order(n, 0), first_use(n),
        first_use_is_store(n, 0), declare_at_store(n, -1), declared(n, 0), for_init_of(n), argument_target(n),
        return_temporary(n) {}
};

// The call's result that a Load of glslang's return temporary stands for
// (source_forms.h); invalid for any other instruction.
inline ir::RegisterId loaded_call_value(const VariableFacts& vars, const ir::Instruction& inst) {
  if (inst.opcode != ir::Opcode::Load || !inst.operands[0].is_variable()) return {};
  return vars.return_temporary[inst.operands[0].value()];
}

struct FunctionAnalysis {
  std::vector<ir::BlockContext> contexts;  // by BlockId
  std::vector<std::uint32_t> order;        // pre-order position; UINT32_MAX when unreachable
  std::vector<std::uint32_t> scope_end;    // a block's definitions are visible up to (excluding) this position
  std::vector<ir::BlockId> reachable;      // in pre-order
  std::vector<ir::VariableId> locals;      // declared locals, in pre-order
  // By BlockId: the variable a Loop declares in its for-init, either one
  // with a constant initializer or one whose first use is a Store just
  // before the Loop (VariableFacts::for_init_of points back).
  std::vector<ir::VariableId> loop_init;

  bool same_chain(ir::BlockId a, ir::BlockId b) const {
    return contexts[a.index()].chain_head == contexts[b.index()].chain_head;
  }
};

// Analyses `f`, filling the register facts of its registers. Fails (through
// ctx) on IR the output cannot express: malformed blocks, registers used
// where GLSL scoping cannot see their definition, cyclic definitions.
FunctionAnalysis analyse_function(EmitContext& ctx, const ir::Function& f, RegisterFacts& regs,
                                  VariableFacts& vars);

}  // namespace sluice::glsl_out
