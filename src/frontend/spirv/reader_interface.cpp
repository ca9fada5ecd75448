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
// that differ split the block into one variable per member, each with its
// own interpolation and location (SPIR-V 2.16.2, "Location Assignment": a
// member without a Location takes the one after the previous member's),
// as the GLSL front end's split_block does; access chains into the block
// then name the member's variable (reader_instructions.cpp).
#include <fmt/format.h>

#include "frontend/spirv/reader_internal.h"
#include "ir/stage_interface.h"

namespace sluice::spirv_in::detail {

namespace {

constexpr unsigned kFlat = 1, kNoPerspective = 2, kCentroid = 4, kSample = 8;

void apply_interpolation(unsigned kind, ir::Decorations& d) {
  if (kind & kFlat) d.interpolation = ir::Interpolation::Flat;
  if (kind & kNoPerspective) d.interpolation = ir::Interpolation::NoPerspective;
  if (kind & kCentroid) d.centroid = true;
  if (kind & kSample) d.sample = true;
}

}  // namespace

std::vector<unsigned> Reader::block_member_interpolation(Id pointee, ir::Decorations& d) {
  if (m_.shader().stage != ir::ShaderStage::Fragment) return {};
  const Id block = block_struct(pointee);
  const Instruction* st = sm_.definition(block);
  if (!st || st->opcode != spv::Op::OpTypeStruct || block >= member_decorations_.size()) return {};
  const std::size_t members = in_count(*st);
  if (members == 0) return {};
  // Per member: bit 0 Flat, 1 NoPerspective, 2 Centroid, 3 Sample.
  std::vector<unsigned> kinds(members, 0);
  for (InstrIndex i : member_decorations_[block]) {
    const Instruction& md = sm_.instructions[i];
    if (md.operands.size() < 3 || md.operand_word(1) >= members) continue;
    switch (static_cast<spv::Decoration>(md.operand_word(2))) {
      case spv::Decoration::Flat: kinds[md.operand_word(1)] |= kFlat; break;
      case spv::Decoration::NoPerspective: kinds[md.operand_word(1)] |= kNoPerspective; break;
      case spv::Decoration::Centroid: kinds[md.operand_word(1)] |= kCentroid; break;
      case spv::Decoration::Sample: kinds[md.operand_word(1)] |= kSample; break;
      default: break;
    }
  }
  for (std::size_t k = 1; k < members; ++k)
    if (kinds[k] != kinds[0]) return kinds;
  apply_interpolation(kinds[0], d);
  return {};
}

void Reader::split_interpolated_block(const Instruction& inst, ir::TypeId block_type, Id pointee,
                                      const ir::Decorations& d, const std::vector<unsigned>& kinds) {
  if (m_.type(block_type).kind != ir::TypeKind::Struct)
    return fail(inst, "an array of fragment input blocks whose members differ in interpolation: the IR keeps "
                      "interpolation per variable");
  const Id block = block_struct(pointee);
  std::vector<std::optional<std::uint32_t>> components(kinds.size());
  for (InstrIndex i : member_decorations_[block]) {
    const Instruction& md = sm_.instructions[i];
    if (md.operands.size() >= 4 && md.operand_word(1) < kinds.size() &&
        static_cast<spv::Decoration>(md.operand_word(2)) == spv::Decoration::Component)
      components[md.operand_word(1)] = md.operand_word(3);
  }
  // A copy: add_global interns pointer types, which may move the type table.
  const std::vector<ir::StructMember> members = m_.type(block_type).members;
  std::string prefix = name_of(inst.result_id);
  if (prefix.empty()) prefix = fmt::format("v{}", inst.result_id);
  std::vector<ir::VariableId> vars;
  std::uint32_t next = d.location.value_or(0);
  for (std::size_t k = 0; k < members.size(); ++k) {
    ir::Decorations md;
    md.location = members[k].location.value_or(next);
    md.component = components[k];
    apply_interpolation(kinds[k], md);
    next = *md.location + ir::location_slots(m_, members[k].type);
    const std::string member = members[k].name.empty() ? fmt::format("m{}", k) : members[k].name;
    vars.push_back(b_.add_global(ir::Name{prefix + "_" + member, ir::NameSource::Internal}, members[k].type,
                                 ir::StorageClass::Input, members[k].precision, std::move(md)));
  }
  ids_[inst.result_id] = IdValue{IdValue::Kind::BuiltinBlock, static_cast<std::uint32_t>(builtin_blocks_.size())};
  builtin_blocks_.push_back(std::move(vars));
}

}  // namespace sluice::spirv_in::detail
