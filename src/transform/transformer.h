// Traversal and rewriting helpers every pass uses (the ANGLE IR's
// traverser::transformer). A pass never walks the block tree by hand: it
// hands callbacks to these helpers, which keep their own stack on the heap
// (100,000 nested Ifs cost memory, never native stack) and which never hold a
// reference into a table a callback may grow.
//
// Blocks:       for_each_block calls `before` when it reaches a block and
//               `after` once the block's sub-blocks are done. `before`
//               returns the block to go on from: the block itself (visit its
//               sub-blocks) or a later block of its merge chain (skip to it;
//               that block is then reached like any other). `after` returns
//               the block whose merge block comes next, normally itself.
// Instructions: transform_block / for_each_instruction call back for every
//               instruction, terminators included, in pre-order (a register
//               is always seen defined before it is seen used), and apply the
//               Transform list the callback returns; see Transform below.
//
// Algorithm of the instruction rewriting: a block's instruction vector is
// moved out before the first callback and rebuilt from the transforms, so no
// callback ever sees a list that is being modified, and the instruction
// handed to it stays valid even when it adds blocks to the function.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "ir/module.h"
#include "ir/result.h"

namespace sluice::transform {

struct Ok {};
using Status = Result<Ok>;
inline Status ok() { return Ok{}; }

// One action the instruction callback asks for. An empty list keeps the
// instruction; a non-empty list replaces it with exactly what the list says.
class Transform {
 public:
  enum class Kind : std::uint8_t {
    Keep,             // the original instruction, unchanged
    Remove,           // nothing (for a list that only drops the instruction)
    Add,              // a new non-terminator instruction
    AddBlock,         // a block of the same function; see add_block()
    DeclareVariable,  // a variable (already in the module) declared by the current block
  };

  static Transform keep() { return Transform(Kind::Keep); }
  static Transform remove() { return Transform(Kind::Remove); }
  static Transform add(ir::Instruction inst) {
    Transform t(Kind::Add);
    t.instruction_ = std::move(inst);
    return t;
  }
  // `block` is the head of a merge chain the callback built in the current
  // function. Its declarations and instructions are appended to the current
  // block. If it ends with a divergent terminator, the current block takes
  // that terminator and its sub-blocks, and the last block of the chain —
  // which must be open, i.e. not yet terminated — becomes the current block:
  // the remaining instructions of the original block (and its terminator and
  // sub-blocks) go there. The blocks the callback built are not traversed.
  static Transform add_block(ir::BlockId block) {
    Transform t(Kind::AddBlock);
    t.block_ = block;
    return t;
  }
  static Transform declare_variable(ir::VariableId v) {
    Transform t(Kind::DeclareVariable);
    t.variable_ = v;
    return t;
  }

  Kind kind() const { return kind_; }
  const ir::Instruction& instruction() const { return instruction_; }
  ir::Instruction& instruction() { return instruction_; }
  ir::BlockId block() const { return block_; }
  ir::VariableId variable() const { return variable_; }

 private:
  explicit Transform(Kind k) : kind_(k) {}
  Kind kind_;
  ir::BlockId block_;
  ir::VariableId variable_;
  ir::Instruction instruction_;
};

using Transforms = boost::container::small_vector<Transform, 2>;

// Where the instruction being transformed sits.
struct InstructionSite {
  ir::Module& module;
  ir::FunctionId function;
  ir::BlockId block;  // the block the output goes into (a later one after an AddBlock split)
  bool is_terminator = false;
};

// The terminator may not be replaced, only prepended to: a list for a
// terminator must end with Keep. Anything else is reported as an error.
using InstructionCallback = std::function<Transforms(InstructionSite&, const ir::Instruction&)>;

struct BlockSite {
  ir::FunctionId function;
  ir::BlockId block;
  ir::BlockKind kind;
  std::uint32_t depth;  // 0 for the function's top-level chain
};
using BlockCallback = std::function<ir::BlockId(const BlockSite&)>;

// Walks the chain starting at `start` and everything below it.
void for_each_block(ir::Module& m, ir::FunctionId f, ir::BlockId start, ir::BlockKind start_kind,
                    const BlockCallback& before, const BlockCallback& after);
// From the function's entry block.
void for_each_block(ir::Module& m, ir::FunctionId f, const BlockCallback& before, const BlockCallback& after);

// prepare(FunctionId) -> bool: false skips the function; transform(FunctionId,
// BlockId entry) -> Status: transforms its blocks. Stops at the first error.
Status for_each_function(ir::Module& m, const std::function<bool(ir::FunctionId)>& prepare,
                         const std::function<Status(ir::FunctionId, ir::BlockId)>& transform);

// Runs `callback` for every instruction of the chain at `start` and below.
Status transform_block(ir::Module& m, ir::FunctionId f, ir::BlockId start, const InstructionCallback& callback);
// Runs `callback` for every instruction of every function.
Status for_each_instruction(ir::Module& m, const InstructionCallback& callback);

// --- Making instructions (ANGLE's instruction::make! and make_with_result_id!) ---

// A non-terminator instruction with a new result register (none for void
// opcodes); the type is inferred and checked, the precision is the highest
// of the operands' unless given. `explicit_type` is for constructors.
Result<ir::Instruction> make(ir::Module& m, ir::Opcode op, std::span<const ir::Operand> operands,
                             ir::TypeId explicit_type = {}, std::optional<ir::Precision> precision = std::nullopt,
                             std::uint16_t aux = 0);
// An instruction whose result is the existing register `result`, so that the
// rest of the IR keeps using that id. Fails unless the operands give a value
// of the register's type.
Result<ir::Instruction> make_with_result_id(ir::Module& m, ir::Opcode op, ir::RegisterId result,
                                            std::span<const ir::Operand> operands, std::uint16_t aux = 0);
// `result = Alias value`: the result is the value itself; dealias removes it.
Result<ir::Instruction> make_alias(ir::Module& m, ir::RegisterId result, ir::Operand value);
// Gives `inst` a new register of the same type and precision and returns it;
// the old register is then free to be defined by a later instruction.
ir::RegisterId assign_new_register_to_instruction(ir::Module& m, ir::Instruction& inst);

// --- Block surgery ---

// Moves everything that follows the terminator (sub-blocks, cases, merge)
// from one block to another, leaving `from` with none.
void move_structure(ir::Block& from, ir::Block& to);
// Appends to `out` the chain at `start` and every block below it, skipping
// blocks already marked in `claimed` (and marking the ones it takes; the
// caller sizes `claimed` to the block table once, so repeated calls on
// disjoint sub-trees stay linear in total).
void collect_subtree(const ir::Function& f, ir::BlockId start, std::vector<bool>& claimed,
                     std::vector<ir::BlockId>& out);
// Drops blocks no longer reachable from the entry and renumbers the rest in
// pre-order. Returns whether anything was dropped or renumbered.
bool compact_blocks(ir::Function& f);
void compact_blocks(ir::Module& m);

}  // namespace sluice::transform
