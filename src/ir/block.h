// The control-flow tree. A block runs all of its instructions or none; its
// last instruction is the terminator. Divergent terminators (If, Loop,
// DoLoop, Switch, NextBlock) own sub-blocks and a merge block, where control
// reconverges and the enclosing code continues: a function body is a chain of
// blocks linked through their merge blocks, each link possibly a subtree.
//
// Blocks live in their function's block table and refer to each other by
// BlockId, so the tree is a plain value: copying a Function copies its tree,
// and destroying it never recurses, however deep the nesting.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ir/compact_vector.h"
#include "ir/ids.h"
#include "ir/instruction.h"

namespace sluice::ir {

// Where a block sits relative to its parent; traversal callbacks receive it.
enum class BlockKind : std::uint8_t {
  FunctionEntry,
  IfTrue,
  IfFalse,
  LoopCondition,
  LoopBody,
  LoopContinue,
  SwitchCase,
  Merge,
};

const char* to_string(BlockKind k);

struct SwitchCase {
  std::optional<std::uint32_t> value;  // bit pattern of the case label; nullopt = default
  friend bool operator==(const SwitchCase&, const SwitchCase&) = default;
};

// A block per few instructions counts against the IR's memory budget
// (docs/performance.md): the switch-only lists are CompactVectors (8 bytes
// each when empty) and the members are ordered to leave no padding.
struct Block {
  std::vector<VariableId> declarations;  // variables whose lifetime starts here
  std::vector<Instruction> instructions; // the last one is the terminator

  // Sub-blocks, by the terminator:
  //   If:            [true, false]           (false may be invalid: no else)
  //   Loop, DoLoop:  [condition, body, continue] (continue may be invalid)
  //   Switch:        case_blocks, one per entry of `cases`, in order
  CompactVector<BlockId> case_blocks;
  CompactVector<SwitchCase> cases;
  BlockId sub_blocks_storage[3];
  BlockId merge;  // for divergent terminators

  RegisterId merge_input;  // the value Merge (or Break) instructions feed; optional

  const Instruction* terminator() const {
    return instructions.empty() ? nullptr : &instructions.back();
  }
  Instruction* terminator() { return instructions.empty() ? nullptr : &instructions.back(); }
  std::optional<Opcode> terminator_opcode() const {
    if (instructions.empty()) return std::nullopt;
    return instructions.back().opcode;
  }

  // Sub-blocks in execution-order-neutral listing order (true/false,
  // condition/body/continue, cases), skipping absent ones.
  std::vector<BlockId> sub_blocks() const;
  std::vector<std::pair<BlockId, BlockKind>> sub_blocks_with_kind() const;

  BlockId if_true() const { return sub_blocks_storage[0]; }
  BlockId if_false() const { return sub_blocks_storage[1]; }
  BlockId loop_condition() const { return sub_blocks_storage[0]; }
  BlockId loop_body() const { return sub_blocks_storage[1]; }
  BlockId loop_continue() const { return sub_blocks_storage[2]; }
};

static_assert(sizeof(Block) <= 88, "see the memory budget above");

}  // namespace sluice::ir
