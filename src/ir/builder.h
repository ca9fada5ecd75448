// The builder front ends use to make IR. It keeps an insertion point (a
// function and one of its blocks), infers result types and precision from
// the operands, and returns an error value for ill-typed operands instead of
// making invalid IR or aborting.
//
// Control flow: branch_if / branch_loop / branch_switch / next_block end the
// current block with a divergent terminator and hand back its new sub-blocks
// and merge block; the caller fills each (set_block) and ends it with
// terminate(). Afterwards building continues in the merge block.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "ir/module.h"
#include "ir/result.h"

namespace sluice::ir {

struct IfBlocks {
  BlockId true_block, false_block, merge;  // false_block invalid when made without an else
};
struct LoopBlocks {
  BlockId condition, body, continue_block, merge;  // continue_block invalid when not asked for
};
struct SwitchBlocks {
  std::vector<BlockId> cases;
  BlockId merge;
};

class Builder {
 public:
  explicit Builder(Module& m) : m_(m) {}

  Module& module() { return m_; }

  // --- Functions and variables ---
  FunctionId begin_function(Name name, TypeId return_type, Precision return_precision = Precision::None);
  VariableId add_parameter(FunctionId f, Name name, TypeId value_type, ParamDirection dir,
                           Precision precision = Precision::None);
  // A global variable of the given storage class (Input, Output, Uniform, ...).
  VariableId add_global(Name name, TypeId value_type, StorageClass storage, Precision precision = Precision::None,
                        Decorations decorations = {}, ConstantId initializer = {});
  // A Function-storage variable declared in the current block.
  VariableId declare_local(Name name, TypeId value_type, Precision precision = Precision::None,
                           ConstantId initializer = {});

  // --- Insertion point ---
  FunctionId function() const { return function_; }
  BlockId block() const { return block_; }
  void set_function(FunctionId f) { function_ = f; }
  void set_block(BlockId b) { block_ = b; }
  Block& current_block() { return m_.function(function_).block(block_); }
  // True when the current block already ends with a terminator.
  bool terminated() const;
  void set_location(std::optional<SourceLocation> loc) { location_ = loc; }

  // --- Instructions ---
  // Any non-terminator opcode; the result type is inferred (and precision
  // derived from the operands unless given). Returns an invalid RegisterId
  // for instructions without a value.
  Result<RegisterId> emit(Opcode op, std::span<const Operand> operands,
                          std::optional<Precision> precision = std::nullopt, std::uint16_t aux = 0);
  Result<RegisterId> emit(Opcode op, std::initializer_list<Operand> operands,
                          std::optional<Precision> precision = std::nullopt, std::uint16_t aux = 0) {
    return emit(op, std::span<const Operand>(operands.begin(), operands.size()), precision, aux);
  }
  // Constructors and Bitcast: the result type is the caller's.
  Result<RegisterId> construct(Opcode op, TypeId result_type, std::span<const Operand> operands,
                               std::optional<Precision> precision = std::nullopt);
  Result<RegisterId> construct(Opcode op, TypeId result_type, std::initializer_list<Operand> operands,
                               std::optional<Precision> precision = std::nullopt) {
    return construct(op, result_type, std::span<const Operand>(operands.begin(), operands.size()), precision);
  }
  Result<RegisterId> load(Operand pointer) { return emit(Opcode::Load, {pointer}); }
  Result<RegisterId> store(Operand pointer, Operand value) { return emit(Opcode::Store, {pointer, value}); }

  // --- Terminators ---
  // Return, Break, Continue, Passthrough, LoopIf, Merge, Discard, Unreachable.
  // Fails if the current block is already terminated.
  Result<bool> terminate(Opcode op, std::optional<Operand> operand = std::nullopt);
  // If on `condition`. A merge input of `merge_type` is made when given.
  Result<IfBlocks> branch_if(Operand condition, bool with_else = true, TypeId merge_type = {},
                             Precision merge_precision = Precision::None);
  Result<LoopBlocks> branch_loop(bool do_loop = false, bool with_continue = false, TypeId merge_type = {},
                                 Precision merge_precision = Precision::None);
  Result<SwitchBlocks> branch_switch(Operand selector, std::span<const SwitchCase> cases);
  Result<BlockId> next_block();
  RegisterId merge_input(BlockId merge) { return m_.function(function_).block(merge).merge_input; }

 private:
  Result<bool> check_open();
  Instruction make(Opcode op, RegisterId result, std::span<const Operand> operands, std::uint16_t aux = 0);
  BlockId new_block() { return m_.function(function_).add_block(); }
  void push(Instruction inst);

  Module& m_;
  FunctionId function_;
  BlockId block_;
  std::optional<SourceLocation> location_;
};

}  // namespace sluice::ir
