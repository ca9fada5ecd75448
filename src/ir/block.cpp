#include "ir/block.h"

namespace sluice::ir {

const char* to_string(BlockKind k) {
  switch (k) {
    case BlockKind::FunctionEntry: return "FunctionEntry";
    case BlockKind::IfTrue: return "IfTrue";
    case BlockKind::IfFalse: return "IfFalse";
    case BlockKind::LoopCondition: return "LoopCondition";
    case BlockKind::LoopBody: return "LoopBody";
    case BlockKind::LoopContinue: return "LoopContinue";
    case BlockKind::SwitchCase: return "SwitchCase";
    case BlockKind::Merge: return "Merge";
  }
  return "?";
}

std::vector<std::pair<BlockId, BlockKind>> Block::sub_blocks_with_kind() const {
  std::vector<std::pair<BlockId, BlockKind>> out;
  auto op = terminator_opcode();
  if (!op) return out;
  auto add = [&](BlockId b, BlockKind k) {
    if (b.valid()) out.emplace_back(b, k);
  };
  switch (*op) {
    case Opcode::If:
      add(if_true(), BlockKind::IfTrue);
      add(if_false(), BlockKind::IfFalse);
      break;
    case Opcode::Loop:
    case Opcode::DoLoop:
      add(loop_condition(), BlockKind::LoopCondition);
      add(loop_body(), BlockKind::LoopBody);
      add(loop_continue(), BlockKind::LoopContinue);
      break;
    case Opcode::Switch:
      for (BlockId b : case_blocks) add(b, BlockKind::SwitchCase);
      break;
    default:
      break;
  }
  return out;
}

std::vector<BlockId> Block::sub_blocks() const {
  std::vector<BlockId> out;
  for (auto [b, k] : sub_blocks_with_kind()) out.push_back(b);
  return out;
}

}  // namespace sluice::ir
