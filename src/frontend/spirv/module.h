// The parsed-module layer of the SPIR-V front end: a SPIR-V binary (or its
// assembly text, assembled by SPIRV-Tools) as plain values.
//
//   ParseResult r = parse_binary(words);          // or parse_assembly(text)
//   if (!r.ok()) print(r.error().describe());      // word offset / instruction index / line:col
//   const Module& m = r.value();
//   for (const Function& f : m.functions)
//     for (const Block& b : f.blocks) {
//       const Instruction& term = m.instructions[b.terminator];
//       for (BlockIndex s : b.successors) ...      // targets of the terminator, as block indices
//       if (b.merge) ... b.merge_block, b.continue_target (block indices)
//     }
//
// Every instruction keeps its opcode, result type and result ids (0 = none),
// its operand words and, from spvBinaryParse, the kind of each operand, so
// that ids, literal numbers, strings and enumerants are told apart.
// Module::def gives the defining instruction of an id. Functions are split
// into blocks: a block is OpLabel .. terminator, with its merge instruction
// (OpSelectionMerge / OpLoopMerge, which must immediately precede the
// terminator, SPIR-V spec §2.11) and the successor targets of its terminator
// resolved to blocks of the same function.
//
// Parsing never aborts: malformed input (truncated instructions, ids out of
// the bound or defined twice, blocks without terminators, instructions
// outside functions, branches to ids that are no label of the function)
// gives a ParseError value. Control-flow *rules* (dominance, constructs) are
// not checked here; that is src/frontend/spirv/cfg.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <spirv-tools/libspirv.h>
#include <spirv/unified1/spirv.hpp11>

namespace sluice::spirv_in {

using Id = std::uint32_t;                  // a SPIR-V result id; 0 is "none"
using InstrIndex = std::uint32_t;          // index into Module::instructions
using BlockIndex = std::uint32_t;          // index into Function::blocks
inline constexpr std::uint32_t kNone = 0xffffffffu;

// What an operand is, coarsely (spv_operand_type_t keeps the detail).
enum class OperandClass : std::uint8_t {
  TypeId,     // the result type
  ResultId,   // the result id
  IdRef,      // a reference to an id (incl. memory-semantics / scope ids)
  Number,     // a literal number (one or more words)
  String,     // a literal string (nul-terminated, padded to words)
  Enum,       // an enumerant or mask (storage class, decoration, ...)
};

struct Operand {
  OperandClass cls;
  std::uint32_t spv_type;    // spv_operand_type_t of SPIRV-Tools
  std::uint16_t first_word;  // index into Instruction::words
  std::uint16_t num_words;
};

struct Instruction {
  spv::Op opcode = spv::Op::OpNop;
  Id type_id = 0;                     // 0 when the instruction has no result type
  Id result_id = 0;                   // 0 when the instruction has no result
  std::vector<std::uint32_t> words;   // every word after the opcode word
  std::vector<Operand> operands;      // all operands, type and result ids included
  std::uint32_t word_offset = 0;      // offset of the opcode word in the binary

  std::uint32_t word(const Operand& o) const { return words[o.first_word]; }
  // The i-th operand (counting the type and result ids when present).
  std::uint32_t operand_word(std::size_t i) const { return words[operands[i].first_word]; }
  std::string operand_string(std::size_t i) const;
  // Operands after the type and result ids, which is how the spec numbers them.
  std::size_t first_in_operand() const { return (type_id ? 1 : 0) + (result_id ? 1 : 0); }
};

enum class MergeKind : std::uint8_t { None, Selection, Loop };

struct Block {
  Id label = 0;
  InstrIndex label_index = 0;    // the OpLabel
  InstrIndex terminator = 0;     // last instruction of the block
  InstrIndex merge = kNone;      // the OpSelectionMerge / OpLoopMerge, if any
  MergeKind merge_kind = MergeKind::None;
  BlockIndex merge_block = kNone;      // its merge block (block index)
  BlockIndex continue_target = kNone;  // OpLoopMerge only
  // Targets of the terminator in operand order (OpBranchConditional: true,
  // false; OpSwitch: default, then the case targets). Repeats are kept.
  std::vector<BlockIndex> successors;
  // OpSwitch only: the literal of each case target (successors[i + 1]); the
  // low word for 64-bit selectors.
  std::vector<std::uint64_t> case_literals;
};

struct Function {
  Id id = 0;
  InstrIndex begin = 0;          // the OpFunction
  InstrIndex end = 0;            // the OpFunctionEnd
  std::vector<InstrIndex> parameters;
  std::vector<Block> blocks;     // in module order; blocks[0] is the entry
  // Block of a label id of this function, or kNone.
  BlockIndex block_of(Id label) const;
  std::vector<std::pair<Id, BlockIndex>> label_to_block;  // sorted by id
};

struct Module {
  std::vector<std::uint32_t> binary;  // the words parsed (assembly text: as assembled)
  std::uint32_t version = 0;     // the header's version word
  std::uint32_t generator = 0;
  std::uint32_t bound = 0;
  std::vector<Instruction> instructions;
  std::vector<InstrIndex> def;   // id -> defining instruction, kNone when undefined (size bound)
  std::vector<Function> functions;

  const Instruction* definition(Id id) const {
    return id < def.size() && def[id] != kNone ? &instructions[def[id]] : nullptr;
  }
  // The OpName of an id, or "" when it has none.
  std::string_view name(Id id) const;
  // "%12" or "%12 (name)" for messages.
  std::string describe(Id id) const;

  std::vector<std::pair<Id, std::string>> names;  // sorted by id
};

struct ParseError {
  std::string message;
  std::uint32_t word_offset = kNone;        // in the binary, when known
  InstrIndex instruction = kNone;           // instruction index, when known
  std::uint32_t line = 0, column = 0;       // in assembly text, when known (1-based)
  // True when the words are well-formed SPIR-V but functions/blocks are not
  // (no terminator, branch to a non-label, ...): a module a validator would
  // read and reject, as opposed to bytes that are no SPIR-V at all.
  bool structural = false;
  // "line 3:5: message", "word 120 (instruction 17): message", ...
  std::string describe() const;
};

class [[nodiscard]] ParseResult {
 public:
  ParseResult(Module m) : v_(std::move(m)) {}
  ParseResult(ParseError e) : v_(std::move(e)) {}
  bool ok() const { return v_.index() == 0; }
  const Module& value() const& { return std::get<0>(v_); }
  Module&& value() && { return std::get<0>(std::move(v_)); }
  const ParseError& error() const { return std::get<1>(v_); }

 private:
  std::variant<Module, ParseError> v_;
};

ParseResult parse_binary(const std::vector<std::uint32_t>& words);
// Assembles with spvtools::SpirvTools (SPIR-V 1.6 universal environment).
ParseResult parse_assembly(std::string_view text);
// Assembly text when `bytes` does not start with the SPIR-V magic number
// (either byte order), else the binary.
ParseResult parse_bytes(std::string_view bytes);
// Reads FILE and calls parse_bytes; a file that cannot be read is an error
// with the file's name.
ParseResult parse_file(const std::string& path);

// spirv-val's verdict on the module for `env`, as SPIRV-Tools' messages
// (empty: valid). A module whose version is newer than `env` allows is
// checked in the environment of the same family for its version (a SPIR-V
// 1.3 module under vulkan1.0: vulkan1.1), so a reader asked for an older
// target still gets the target's rules, not a version complaint.
struct InputVerdict {
  spv_target_env env;                 // the environment checked
  std::vector<std::string> messages;  // "word N: message"
};
InputVerdict validate(const Module& module, spv_target_env env);

bool is_terminator(spv::Op op);
bool is_function_termination(spv::Op op);  // OpReturn*, OpKill, OpUnreachable, OpTerminate*...

}  // namespace sluice::spirv_in
