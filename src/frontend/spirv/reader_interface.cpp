// Interpolation a block's members carry (OpMemberDecorate %B i Flat, …),
// which the IR keeps on the variable: the GLSL front end splits a block
// whose members differ (frontend/glsl/interface.cpp, split_block), and
// both outputs write a variable's interpolation for the whole block.
//
// Only fragment inputs are interpolated, and only their decorations count
// (Vulkan 1.3 §15.1.3, "Interface Matching": interpolation decorations of
// an output and an input need not match; the fragment shader's decide), so
// elsewhere member interpolation is left as it is. For a fragment input
// block: members that all agree give the variable their decorations; members
// that differ are refused, never silently interpolated one way.
#include <fmt/format.h>

#include "frontend/spirv/reader_internal.h"

namespace sluice::spirv_in::detail {

void Reader::block_member_interpolation(const Instruction& inst, Id pointee, ir::Decorations& d) {
  if (m_.shader().stage != ir::ShaderStage::Fragment) return;
  const Id block = block_struct(pointee);
  const Instruction* st = sm_.definition(block);
  if (!st || st->opcode != spv::Op::OpTypeStruct || block >= member_decorations_.size()) return;
  const std::size_t members = in_count(*st);
  if (members == 0) return;
  // Per member: bit 0 Flat, 1 NoPerspective, 2 Centroid, 3 Sample.
  std::vector<unsigned> kinds(members, 0);
  for (InstrIndex i : member_decorations_[block]) {
    const Instruction& md = sm_.instructions[i];
    if (md.operands.size() < 3 || md.operand_word(1) >= members) continue;
    switch (static_cast<spv::Decoration>(md.operand_word(2))) {
      case spv::Decoration::Flat: kinds[md.operand_word(1)] |= 1; break;
      case spv::Decoration::NoPerspective: kinds[md.operand_word(1)] |= 2; break;
      case spv::Decoration::Centroid: kinds[md.operand_word(1)] |= 4; break;
      case spv::Decoration::Sample: kinds[md.operand_word(1)] |= 8; break;
      default: break;
    }
  }
  for (std::size_t k = 1; k < members; ++k)
    if (kinds[k] != kinds[0])
      return fail(inst, fmt::format("a fragment input block whose members differ in interpolation (member 0 and "
                                    "member {}): the IR keeps interpolation per variable",
                                    k));
  if (kinds[0] & 1) d.interpolation = ir::Interpolation::Flat;
  if (kinds[0] & 2) d.interpolation = ir::Interpolation::NoPerspective;
  if (kinds[0] & 4) d.centroid = true;
  if (kinds[0] & 8) d.sample = true;
}

}  // namespace sluice::spirv_in::detail
