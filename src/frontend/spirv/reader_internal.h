// The reader's shared state (reader.h is the interface). One Reader reads
// one module: reader_types.cpp makes types, constants and global variables,
// reader_control.cpp rebuilds each function's block tree,
// reader_instructions.cpp / reader_glsl450.cpp translate the instructions of
// a block, reader_stages.cpp reads what is particular to the geometry
// and tessellation stages, and reader_locations.cpp gives each instruction
// its source location.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frontend/spirv/module.h"
#include "frontend/spirv/reader.h"
#include "ir/builder.h"

namespace sluice::spirv_in::detail {

// What a SPIR-V id stands for in the IR.
struct IdValue {
  enum class Kind : std::uint8_t {
    None,
    Type,
    Constant,
    Variable,
    Register,
    Function,
    GlslStd450,    // the OpExtInstImport of GLSL.std.450
    BuiltinBlock,  // a gl_PerVertex-like variable, or a fragment input block whose members differ in
                   // interpolation, split into one variable per member
    TexelPointer,  // OpImageTexelPointer: resolved by the atomic that uses it
    SpecOp,        // OpSpecConstantOp: an instruction wherever a function uses it
  };
  Kind kind = Kind::None;
  std::uint32_t index = 0;
};

// Failure while reading: the message names the id and instruction.
struct ReadError {
  std::string message;
};

// An entry of the construct stack the control-flow walk keeps: the
// enclosing selections, switch cases and loops of the block being read,
// innermost last, as a linked list in one vector (entries are never freed,
// so work items can keep an index into it).
struct Construct {
  // Premerge: the two arms of a branch whose paths meet in a block before
  // the selection's merge (the premerge, `merge` here); reader_control.cpp.
  enum class Kind : std::uint8_t { If, Case, Loop, Premerge } kind = Kind::If;
  BlockIndex merge = kNone;
  BlockIndex continue_target = kNone;  // Loop
  BlockIndex header = kNone;           // Loop
  BlockIndex next_case = kNone;        // Case: the block a Passthrough reaches
  std::uint32_t switch_index = 0;      // Case: into Reader::switches_
  bool in_continue = false;            // Loop: inside its continue construct
  bool do_loop = false;                // Loop: read as a DoLoop (conditional back edge)
  std::int32_t parent = -1;
  BlockIndex outer_merge = kNone;      // Premerge: the selection's declared merge (kNone: none)
  std::uint32_t premerge_index = 0;    // Premerge: its state in the walk
  bool tail = false;                   // If: its IR If is closed; the merge is read in place
};

struct SwitchState {
  ir::VariableId break_flag;  // made when a case leaves the enclosing loop
  BlockIndex loop_merge = kNone;
};

class Reader {
 public:
  Reader(const Module& sm, ir::Module& m, const ReadOptions& options) : sm_(sm), m_(m), b_(m), options_(options) {}
  std::optional<ReadError> run();

  // --- reader_types.cpp ---
  std::optional<ReadError> read_globals();
  ir::TypeId type(Id id, ir::BlockLayout layout = ir::BlockLayout::None);
  ir::ConstantId zero_constant(ir::TypeId t);
  ir::Precision precision_of(Id id) const;
  bool has_decoration(Id id, spv::Decoration d) const;
  std::optional<std::uint32_t> decoration(Id id, spv::Decoration d) const;
  bool has_member_decoration(Id struct_id, spv::Decoration d) const;  // on any member
  Id block_struct(Id type_id) const;  // the element type through arrays (the type itself otherwise)
  std::string name_of(Id id) const;

  // --- reader_locations.cpp ---
  // The source location of every instruction (locations_), from the OpLine
  // in effect or, without one, the instruction's own position.
  void read_locations();
  // Makes instruction i's location the builder's, for what it emits next.
  void locate(InstrIndex i);

  // --- reader_control.cpp ---
  std::optional<ReadError> read_function(const Function& f, ir::FunctionId fid);

  // --- reader_instructions.cpp ---
  // Translates one non-control instruction into the current block.
  void instruction(const Instruction& inst);
  ir::Operand value(Id id);
  void define(Id id, ir::RegisterId r);
  bool failed() const { return error_.has_value(); }
  void fail(const Instruction& inst, const std::string& message);
  void fail(const std::string& message);

  // --- reader_glsl450.cpp, reader_images.cpp ---
  void glsl_std_450(const Instruction& inst);
  bool image_instruction(const Instruction& inst);  // false: not an image instruction

  // --- reader_stages.cpp ---
  // The stage of the entry point's execution model (false: refused).
  bool entry_stage(const Instruction& inst, std::uint32_t model);
  // A geometry or tessellation execution mode (false: not one of the stage's).
  bool stage_execution_mode(const Instruction& inst, std::uint32_t mode, std::uint32_t operand);
  bool stage_instruction(const Instruction& inst);  // false: not a geometry instruction

  // --- reader_interface.cpp ---
  // A fragment input block's member interpolation onto its variable's `d`.
  // A fragment input block's member interpolation: when the members agree,
  // set on `d` (and nothing returned); when they differ, each member's
  // (bit 0 Flat, 1 NoPerspective, 2 Centroid, 3 Sample), for
  // split_interpolated_block.
  std::vector<unsigned> block_member_interpolation(Id pointee, ir::Decorations& d);
  void split_interpolated_block(const Instruction& inst, ir::TypeId block_type, Id pointee, const ir::Decorations& d,
                                const std::vector<unsigned>& kinds);

  // Instruction helpers shared by the translation files.
  std::uint32_t in(const Instruction& inst, std::size_t k) const {
    return inst.operand_word(inst.first_in_operand() + k);
  }
  std::size_t in_count(const Instruction& inst) const { return inst.operands.size() - inst.first_in_operand(); }
  ir::RegisterId emit(const Instruction& inst, ir::Opcode op, std::vector<ir::Operand> operands, std::uint16_t aux = 0);
  ir::RegisterId emit_typed(const Instruction& inst, ir::Opcode op, ir::TypeId t, std::vector<ir::Operand> operands);
  ir::Operand convert_kind(const Instruction& inst, ir::Operand v, ir::ScalarKind k);
  ir::Operand fit(const Instruction& inst, ir::Operand v, ir::TypeId want);
  // An image instruction's coordinate as the IR takes it: exactly the
  // components `op` (with Texture's `flags`) needs for `image`'s type. SPIR-V
  // allows more (spirv-val checks "at least"; the rest are ignored, and a
  // projective lookup's q is the last needed one, SPIR-V 1.6 §3.3.10).
  ir::Operand exact_coordinate(const Instruction& inst, ir::Operand image, ir::Operand coordinate, ir::Opcode op,
                               std::uint16_t flags = 0);
  void set(const Instruction& inst, ir::Operand v);  // the instruction's result is v
  void scope_push(ir::RegisterId r);

  const Module& sm_;
  ir::Module& m_;
  ir::Builder b_;
  const ReadOptions& options_;
  std::optional<ReadError> error_;

  std::vector<IdValue> ids_;
  std::vector<std::vector<InstrIndex>> decorations_;         // by target id: OpDecorate
  std::vector<std::vector<InstrIndex>> member_decorations_;  // by struct id: OpMemberDecorate
  std::vector<std::vector<std::pair<std::uint32_t, std::string>>> member_names_;
  std::vector<std::pair<std::pair<Id, ir::BlockLayout>, ir::TypeId>> layout_types_;
  std::vector<std::vector<ir::VariableId>> builtin_blocks_;  // members of BuiltinBlock ids
  std::vector<ir::FunctionId> functions_;                    // by Module::functions index
  std::uint32_t type_depth_ = 0;
  std::vector<ir::SourceLocation> locations_;                // by instruction index (read_locations)
  std::optional<std::uint32_t> own_file_;                    // the input file in the module's source files

  // Per function (reader_control.cpp).
  const Function* fn_ = nullptr;
  std::vector<BlockIndex> def_block_;       // id -> defining block, kNone outside the function
  std::vector<ir::VariableId> spill_;       // id -> Function variable carrying it across blocks
  std::vector<ir::VariableId> phi_var_;     // OpPhi result id -> its variable
  std::vector<std::uint8_t> spill_cross_;   // id -> used outside its block (needs a spill variable)
  std::vector<std::uint8_t> visible_;       // register -> defined on the path to here
  std::vector<ir::RegisterId> scope_;       // registers defined, in order (marks index it)
  std::vector<Construct> constructs_;
  std::vector<SwitchState> switches_;
  std::uint32_t remat_depth_ = 0;
  ir::VariableId local(ir::TypeId t, const std::string& name, ir::Precision p = ir::Precision::None);
};

}  // namespace sluice::spirv_in::detail
