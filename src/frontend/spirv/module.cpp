// Parsing SPIR-V into spirv_in::Module: spvBinaryParse (SPIRV-Tools' C API)
// splits the words into instructions and types every operand; this file
// then indexes ids and splits functions into blocks (SPIR-V spec §2.4
// "Logical Layout", §2.2.5 "Control Flow": a block is an OpLabel followed by
// instructions and ending with a termination instruction).
#include "frontend/spirv/module.h"


#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

#include <spirv-tools/libspirv.h>
#include <spirv-tools/libspirv.hpp>

namespace sluice::spirv_in {
namespace {

OperandClass classify(spv_operand_type_t t) {
  switch (t) {
    case SPV_OPERAND_TYPE_TYPE_ID: return OperandClass::TypeId;
    case SPV_OPERAND_TYPE_RESULT_ID: return OperandClass::ResultId;
    case SPV_OPERAND_TYPE_ID:
    case SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID:
    case SPV_OPERAND_TYPE_SCOPE_ID:
    case SPV_OPERAND_TYPE_OPTIONAL_ID:
    case SPV_OPERAND_TYPE_VARIABLE_ID: return OperandClass::IdRef;
    case SPV_OPERAND_TYPE_LITERAL_STRING:
    case SPV_OPERAND_TYPE_OPTIONAL_LITERAL_STRING: return OperandClass::String;
    case SPV_OPERAND_TYPE_LITERAL_INTEGER:
    case SPV_OPERAND_TYPE_EXTENSION_INSTRUCTION_NUMBER:
    case SPV_OPERAND_TYPE_SPEC_CONSTANT_OP_NUMBER:
    case SPV_OPERAND_TYPE_TYPED_LITERAL_NUMBER:
    case SPV_OPERAND_TYPE_OPTIONAL_LITERAL_INTEGER:
    case SPV_OPERAND_TYPE_OPTIONAL_LITERAL_NUMBER:
    case SPV_OPERAND_TYPE_OPTIONAL_TYPED_LITERAL_INTEGER:
    case SPV_OPERAND_TYPE_VARIABLE_LITERAL_INTEGER: return OperandClass::Number;
    default: return OperandClass::Enum;
  }
}

struct ParseState {
  Module module;
  std::optional<ParseError> error;
  std::size_t word_count = 0;
};

spv_result_t on_header(void* user, spv_endianness_t, uint32_t, uint32_t version, uint32_t generator,
                       uint32_t bound, uint32_t) {
  auto& s = *static_cast<ParseState*>(user);
  s.module.version = version;
  s.module.generator = generator;
  s.module.bound = bound;
  // SPIR-V 1.6 §2.17 (universal limits): the Result <id> bound is at most
  // 4,194,303, as spirv-val's default --max-id-bound says; past it the id
  // tables below would be the size the header asks for (gigabytes for a
  // 20-byte input).
  constexpr std::uint32_t kMaxBound = 4194303;
  if (bound > kMaxBound) {
    s.error = ParseError{"the id bound " + std::to_string(bound) + " is over SPIR-V's limit of 4194303"};
    s.error->word_offset = 3;
    return SPV_ERROR_INVALID_BINARY;
  }
  // Every id is defined by an instruction of at least two words, so a bound
  // far above the module's size only makes the id tables (here and in the
  // reader, a few per id) large: a 100-byte module with the largest legal
  // bound costs seconds under ASan. Real modules have bounds below their
  // word counts.
  const std::size_t sensible = std::max<std::size_t>(65536, 8 * s.word_count);
  if (bound > sensible) {
    s.error = ParseError{"the id bound " + std::to_string(bound) + " is too large for a module of " +
                         std::to_string(s.word_count) + " words (Sluice reads bounds up to " +
                         std::to_string(sensible) + ": 8 per word, at least 65536)"};
    s.error->word_offset = 3;
    return SPV_ERROR_INVALID_BINARY;
  }
  s.module.def.assign(bound, kNone);
  return SPV_SUCCESS;
}

spv_result_t on_instruction(void* user, const spv_parsed_instruction_t* in) {
  auto& s = *static_cast<ParseState*>(user);
  Module& m = s.module;
  Instruction inst;
  inst.opcode = static_cast<spv::Op>(in->opcode);
  inst.type_id = in->type_id;
  inst.result_id = in->result_id;
  inst.word_offset = 0;  // set by the caller from the running offset
  inst.words.assign(in->words + 1, in->words + in->num_words);
  inst.operands.reserve(in->num_operands);
  for (uint16_t i = 0; i < in->num_operands; ++i) {
    const spv_parsed_operand_t& o = in->operands[i];
    inst.operands.push_back(Operand{classify(o.type), static_cast<uint32_t>(o.type),
                                    static_cast<uint16_t>(o.offset - 1), o.num_words});
  }
  const auto index = static_cast<InstrIndex>(m.instructions.size());
  if (inst.result_id != 0) {
    if (inst.result_id >= m.def.size()) {
      s.error = ParseError{"id %" + std::to_string(inst.result_id) + " is not below the id bound " +
                               std::to_string(m.bound),
                           kNone, index};
      return SPV_ERROR_INVALID_ID;
    }
    if (m.def[inst.result_id] != kNone) {
      s.error = ParseError{"id %" + std::to_string(inst.result_id) + " is defined twice", kNone, index};
      return SPV_ERROR_INVALID_ID;
    }
    m.def[inst.result_id] = index;
  }
  m.instructions.push_back(std::move(inst));
  return SPV_SUCCESS;
}

// Every instruction's word offset: header is 5 words, then each instruction
// is as long as its word-count field says (already checked by the parser).
void set_word_offsets(Module& m) {
  uint32_t offset = 5;
  for (Instruction& inst : m.instructions) {
    inst.word_offset = offset;
    offset += static_cast<uint32_t>(inst.words.size()) + 1;
  }
}

ParseError at(const Module& m, InstrIndex i, std::string message) {
  ParseError e{std::move(message), m.instructions[i].word_offset, i};
  e.structural = true;
  return e;
}

std::string op_name(spv::Op op) {
  const char* n = spvOpcodeString(static_cast<uint32_t>(op));
  return n ? n : "Op?";
}

// Splits the instructions between OpFunction and OpFunctionEnd into blocks.
std::optional<ParseError> build_functions(Module& m) {
  std::optional<Function> fn;
  std::optional<Block> block;
  for (InstrIndex i = 0; i < m.instructions.size(); ++i) {
    const Instruction& inst = m.instructions[i];
    const spv::Op op = inst.opcode;
    if (op == spv::Op::OpFunction) {
      if (fn) return at(m, i, "OpFunction inside the function %" + std::to_string(fn->id));
      fn = Function{};
      fn->id = inst.result_id;
      fn->begin = i;
      continue;
    }
    if (!fn) {
      if (op == spv::Op::OpLabel || op == spv::Op::OpFunctionEnd || op == spv::Op::OpFunctionParameter ||
          is_terminator(op) || op == spv::Op::OpSelectionMerge || op == spv::Op::OpLoopMerge || op == spv::Op::OpPhi)
        return at(m, i, op_name(op) + " outside a function");
      continue;
    }
    if (op == spv::Op::OpFunctionEnd) {
      if (block) return at(m, i, "block %" + std::to_string(block->label) + " has no terminator before OpFunctionEnd");
      fn->end = i;
      m.functions.push_back(std::move(*fn));
      fn.reset();
      continue;
    }
    if (op == spv::Op::OpFunctionParameter) {
      if (!fn->blocks.empty() || block) return at(m, i, "OpFunctionParameter after the first block");
      fn->parameters.push_back(i);
      continue;
    }
    if (op == spv::Op::OpLabel) {
      if (block)
        return at(m, i, "block %" + std::to_string(block->label) + " has no terminator before the label %" +
                            std::to_string(inst.result_id));
      block = Block{};
      block->label = inst.result_id;
      block->label_index = i;
      continue;
    }
    if (!block) return at(m, i, op_name(op) + " outside a block of function %" + std::to_string(fn->id));
    if (op == spv::Op::OpSelectionMerge || op == spv::Op::OpLoopMerge) {
      if (i + 1 >= m.instructions.size() || !is_terminator(m.instructions[i + 1].opcode))
        return at(m, i, op_name(op) + " in block %" + std::to_string(block->label) +
                            " does not immediately precede the block's terminator");
      block->merge = i;
      block->merge_kind = op == spv::Op::OpLoopMerge ? MergeKind::Loop : MergeKind::Selection;
      continue;
    }
    if (is_terminator(op)) {
      block->terminator = i;
      fn->blocks.push_back(std::move(*block));
      block.reset();
    }
  }
  if (fn) {
    ParseError e{"function %" + std::to_string(fn->id) + " has no OpFunctionEnd"};
    e.structural = true;
    return e;
  }
  return std::nullopt;
}

// The label operands of a terminator / merge instruction, in operand order.
std::vector<Id> label_operands(const Instruction& inst, std::vector<std::uint64_t>* case_literals) {
  std::vector<Id> ids;
  const std::size_t first = inst.first_in_operand();
  switch (inst.opcode) {
    case spv::Op::OpBranch:
    case spv::Op::OpSelectionMerge: ids.push_back(inst.operand_word(first)); break;
    case spv::Op::OpLoopMerge: ids = {inst.operand_word(first), inst.operand_word(first + 1)}; break;
    case spv::Op::OpBranchConditional:
      ids = {inst.operand_word(first + 1), inst.operand_word(first + 2)};
      break;
    case spv::Op::OpSwitch:
      ids.push_back(inst.operand_word(first + 1));
      for (std::size_t k = first + 2; k + 1 < inst.operands.size(); k += 2) {
        if (case_literals) case_literals->push_back(inst.operand_word(k));
        ids.push_back(inst.operand_word(k + 1));
      }
      break;
    default: break;
  }
  return ids;
}

std::optional<ParseError> resolve_targets(Module& m, Function& f) {
  f.label_to_block.reserve(f.blocks.size());
  for (BlockIndex b = 0; b < f.blocks.size(); ++b) f.label_to_block.emplace_back(f.blocks[b].label, b);
  std::sort(f.label_to_block.begin(), f.label_to_block.end());
  for (std::size_t k = 1; k < f.label_to_block.size(); ++k)
    if (f.label_to_block[k].first == f.label_to_block[k - 1].first)
      return at(m, f.blocks[f.label_to_block[k].second].label_index,
                "label %" + std::to_string(f.label_to_block[k].first) + " is defined twice");
  for (Block& b : f.blocks) {
    const auto resolve = [&](Id target, InstrIndex where, BlockIndex& out) -> std::optional<ParseError> {
      out = f.block_of(target);
      if (out == kNone)
        return at(m, where, op_name(m.instructions[where].opcode) + " in block %" + std::to_string(b.label) +
                                " names %" + std::to_string(target) + ", which is no block of function %" +
                                std::to_string(f.id));
      return std::nullopt;
    };
    for (Id t : label_operands(m.instructions[b.terminator], &b.case_literals)) {
      BlockIndex s = kNone;
      if (auto e = resolve(t, b.terminator, s)) return e;
      b.successors.push_back(s);
    }
    if (b.merge != kNone) {
      const std::vector<Id> ids = label_operands(m.instructions[b.merge], nullptr);
      if (auto e = resolve(ids[0], b.merge, b.merge_block)) return e;
      if (ids.size() > 1)
        if (auto e = resolve(ids[1], b.merge, b.continue_target)) return e;
    }
  }
  return std::nullopt;
}

void collect_names(Module& m) {
  for (const Instruction& inst : m.instructions)
    if (inst.opcode == spv::Op::OpName && inst.operands.size() >= 2)
      m.names.emplace_back(inst.operand_word(0), inst.operand_string(1));
  std::stable_sort(m.names.begin(), m.names.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
}

}  // namespace

std::string Instruction::operand_string(std::size_t i) const {
  const Operand& o = operands[i];
  std::string s;
  for (std::uint16_t w = 0; w < o.num_words; ++w) {
    const std::uint32_t word = words[o.first_word + w];
    for (int byte = 0; byte < 4; ++byte) {
      const char c = static_cast<char>((word >> (8 * byte)) & 0xff);
      if (c == 0) return s;
      s.push_back(c);
    }
  }
  return s;
}

BlockIndex Function::block_of(Id label) const {
  auto it = std::lower_bound(label_to_block.begin(), label_to_block.end(), std::pair<Id, BlockIndex>{label, 0});
  return it != label_to_block.end() && it->first == label ? it->second : kNone;
}

std::string_view Module::name(Id id) const {
  auto it = std::lower_bound(names.begin(), names.end(), id, [](const auto& p, Id v) { return p.first < v; });
  return it != names.end() && it->first == id ? std::string_view(it->second) : std::string_view();
}

std::string Module::describe(Id id) const {
  std::string s = "%" + std::to_string(id);
  const std::string_view n = name(id);
  if (!n.empty()) s += " (" + std::string(n) + ")";
  return s;
}

std::string ParseError::describe() const {
  std::ostringstream out;
  if (line != 0)
    out << "line " << line << ":" << column << ": ";
  else if (word_offset != kNone && instruction != kNone)
    out << "word " << word_offset << " (instruction " << instruction << "): ";
  else if (word_offset != kNone)
    out << "word " << word_offset << ": ";
  else if (instruction != kNone)
    out << "instruction " << instruction << ": ";
  out << message;
  return out.str();
}

bool is_terminator(spv::Op op) {
  switch (op) {
    case spv::Op::OpBranch:
    case spv::Op::OpBranchConditional:
    case spv::Op::OpSwitch: return true;
    default: return is_function_termination(op);
  }
}

bool is_function_termination(spv::Op op) {
  switch (op) {
    case spv::Op::OpReturn:
    case spv::Op::OpReturnValue:
    case spv::Op::OpKill:
    case spv::Op::OpUnreachable:
    case spv::Op::OpTerminateInvocation:
    case spv::Op::OpIgnoreIntersectionKHR:
    case spv::Op::OpTerminateRayKHR:
    case spv::Op::OpEmitMeshTasksEXT: return true;
    default: return false;
  }
}

ParseResult parse_binary(const std::vector<std::uint32_t>& words) {
  ParseState state;
  state.word_count = words.size();
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  spv_diagnostic diagnostic = nullptr;
  const spv_result_t rc =
      spvBinaryParse(context, &state, words.data(), words.size(), on_header, on_instruction, &diagnostic);
  std::optional<ParseError> error = std::move(state.error);
  if (rc != SPV_SUCCESS && !error) {
    error = ParseError{diagnostic && diagnostic->error ? diagnostic->error : "malformed SPIR-V binary"};
    if (diagnostic) error->word_offset = static_cast<std::uint32_t>(diagnostic->position.index);
  }
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  if (error) {
    if (error->instruction != kNone && error->word_offset == kNone) {
      set_word_offsets(state.module);
      std::uint32_t offset = 5;  // the failing instruction follows the last one stored
      if (!state.module.instructions.empty())
        offset = state.module.instructions.back().word_offset +
                 static_cast<std::uint32_t>(state.module.instructions.back().words.size()) + 1;
      error->word_offset = offset;
    }
    return *error;
  }
  Module& m = state.module;
  set_word_offsets(m);
  if (auto e = build_functions(m)) return *e;
  for (Function& f : m.functions)
    if (auto e = resolve_targets(m, f)) return *e;
  collect_names(m);
  m.binary = words;
  return std::move(state.module);
}

namespace {

// The environments of SPIRV-Tools a reader is asked for, with their
// SPIR-V version, by family in increasing version.
struct Environment {
  spv_target_env env;
  std::uint32_t version;
  bool vulkan;
};
constexpr Environment kEnvironments[] = {
    {SPV_ENV_VULKAN_1_0, 0x00010000, true},     {SPV_ENV_VULKAN_1_1, 0x00010300, true},
    {SPV_ENV_VULKAN_1_2, 0x00010500, true},     {SPV_ENV_VULKAN_1_3, 0x00010600, true},
    {SPV_ENV_UNIVERSAL_1_0, 0x00010000, false}, {SPV_ENV_UNIVERSAL_1_1, 0x00010100, false},
    {SPV_ENV_UNIVERSAL_1_2, 0x00010200, false}, {SPV_ENV_UNIVERSAL_1_3, 0x00010300, false},
    {SPV_ENV_UNIVERSAL_1_4, 0x00010400, false}, {SPV_ENV_UNIVERSAL_1_5, 0x00010500, false},
    {SPV_ENV_UNIVERSAL_1_6, 0x00010600, false},
};

// The environment of env's family (Vulkan or universal) whose SPIR-V
// version is the smallest at least `version`; env itself when it allows
// `version` already, is none of the above, or no environment of the family
// is new enough.
spv_target_env environment_for_version(spv_target_env env, std::uint32_t version) {
  const Environment* given = nullptr;
  for (const Environment& e : kEnvironments)
    if (e.env == env) given = &e;
  if (!given || version <= given->version) return env;
  for (const Environment& e : kEnvironments)
    if (e.vulkan == given->vulkan && e.version >= version) return e.env;
  return env;
}

}  // namespace

InputVerdict validate(const Module& module, spv_target_env env) {
  InputVerdict verdict{environment_for_version(env, module.version), {}};
  spvtools::SpirvTools tools(verdict.env);
  tools.SetMessageConsumer([&](spv_message_level_t level, const char*, const spv_position_t& pos, const char* msg) {
    if (level <= SPV_MSG_ERROR) verdict.messages.push_back("word " + std::to_string(pos.index) + ": " + (msg ? msg : ""));
  });
  if (!tools.Validate(module.binary) && verdict.messages.empty())
    verdict.messages.push_back("spirv-val rejected the module without a message");
  return verdict;
}

ParseResult parse_assembly(std::string_view text) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::optional<ParseError> error;
  tools.SetMessageConsumer([&](spv_message_level_t level, const char*, const spv_position_t& pos, const char* msg) {
    if (level > SPV_MSG_ERROR || error) return;
    error = ParseError{msg};
    error->line = static_cast<std::uint32_t>(pos.line + 1);
    error->column = static_cast<std::uint32_t>(pos.column + 1);
  });
  std::vector<std::uint32_t> binary;
  if (!tools.Assemble(text.data(), text.size(), &binary, SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS)) {
    if (!error) error = ParseError{"the assembly text does not assemble"};
    return *error;
  }
  return parse_binary(binary);
}

ParseResult parse_bytes(std::string_view bytes) {
  constexpr std::uint32_t kMagic = 0x07230203, kSwapped = 0x03022307;
  std::uint32_t first = 0;
  if (bytes.size() >= 4) std::memcpy(&first, bytes.data(), 4);
  if (first != kMagic && first != kSwapped) return parse_assembly(bytes);
  if (bytes.size() % 4 != 0)
    return ParseError{"a SPIR-V binary of " + std::to_string(bytes.size()) + " bytes, not a whole number of words"};
  std::vector<std::uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return parse_binary(words);
}

ParseResult parse_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return ParseError{"cannot open " + path};
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return ParseError{"cannot read " + path};
  return parse_bytes(buffer.str());
}

}  // namespace sluice::spirv_in
