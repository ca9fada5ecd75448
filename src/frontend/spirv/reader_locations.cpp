// Source locations of the instructions read, for the IR's location table
// (ir::Module::location): what ub-check reports and `compile -g` writes back
// (docs/ub-check.md, "SPIR-V input").
//
// Algorithm: one pass over the module's instructions in order, keeping the
// OpLine in effect. SPIR-V 1.6 §3.49.2 (OpLine): its position "applies to
// the following instructions up to the first occurrence of any of: the next
// end of block, the next OpLine instruction, or the next OpNoLine
// instruction". An instruction under an OpLine gets the OpLine's file (its
// OpString, glslang -g / `sluice compile -g`), line and column; any other
// instruction gets its own position in the module: the input file, line N
// for the module's N-th instruction, which is line N of `spirv-dis
// --no-header FILE` (one instruction per line), column 0. The input file
// enters the module's source files only when a block's instruction or
// terminator without OpLine is read, so a module whose code is all under
// OpLines names no extra file.
#include <optional>

#include "frontend/spirv/reader_internal.h"

namespace sluice::spirv_in::detail {

void Reader::read_locations() {
  const std::size_t n = sm_.instructions.size();
  locations_.assign(n, ir::SourceLocation{});
  std::vector<std::pair<Id, std::uint32_t>> files;  // OpString id -> source file, as met
  auto file_of = [&](Id id) -> std::optional<std::uint32_t> {
    for (const auto& [string_id, file] : files)
      if (string_id == id) return file;
    // Input that skipped validation may name anything; only an OpString is a file.
    const Instruction* s = sm_.definition(id);
    if (!s || s->opcode != spv::Op::OpString || s->operands.size() < 2) return std::nullopt;
    files.emplace_back(id, m_.add_source_file(s->operand_string(1)));
    return files.back().second;
  };
  std::optional<ir::SourceLocation> line;
  for (std::size_t i = 0; i < n; ++i) {
    const Instruction& inst = sm_.instructions[i];
    if (inst.opcode == spv::Op::OpLine) {
      line.reset();
      if (inst.operands.size() >= 3)
        if (auto file = file_of(inst.operand_word(0))) line = ir::SourceLocation{*file, inst.operand_word(1), inst.operand_word(2)};
      continue;
    }
    if (inst.opcode == spv::Op::OpNoLine) {
      line.reset();
      continue;
    }
    // kNone: the instruction's own position (locate).
    locations_[i] = line ? *line : ir::SourceLocation{kNone, static_cast<std::uint32_t>(i + 1), 0};
    if (is_terminator(inst.opcode) || inst.opcode == spv::Op::OpFunctionEnd) line.reset();
  }
}

void Reader::locate(InstrIndex i) {
  if (i >= locations_.size()) return;
  ir::SourceLocation l = locations_[i];
  if (l.file == kNone) {
    if (!own_file_) own_file_ = m_.add_source_file(options_.file_name);
    l.file = *own_file_;
  }
  b_.set_location(l);
}

}  // namespace sluice::spirv_in::detail
