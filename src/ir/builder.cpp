#include "ir/builder.h"

#include <algorithm>

#include <fmt/format.h>

#include "ir/typing.h"

namespace sluice::ir {

FunctionId Builder::begin_function(Name name, TypeId return_type, Precision return_precision) {
  Function f;
  f.name = std::move(name);
  f.return_type = return_type;
  f.return_precision = return_precision;
  if (location_) f.location = m_.add_location(*location_);
  f.entry = f.add_block();
  function_ = m_.add_function(std::move(f));
  block_ = m_.function(function_).entry;
  return function_;
}

VariableId Builder::add_parameter(FunctionId f, Name name, TypeId value_type, ParamDirection dir,
                                  Precision precision) {
  Variable v;
  v.name = std::move(name);
  v.type = m_.pointer_type(value_type, StorageClass::Function);
  v.precision = precision;
  VariableId id = m_.add_variable(std::move(v));
  m_.function(f).params.push_back(FunctionParam{id, dir});
  return id;
}

VariableId Builder::add_global(Name name, TypeId value_type, StorageClass storage, Precision precision,
                               Decorations decorations, ConstantId initializer) {
  Variable v;
  v.name = std::move(name);
  v.type = m_.pointer_type(value_type, storage);
  v.precision = precision;
  v.decorations = std::move(decorations);
  v.initializer = initializer;
  if (location_) v.location = m_.add_location(*location_);
  VariableId id = m_.add_variable(std::move(v));
  m_.globals().push_back(id);
  return id;
}

VariableId Builder::declare_local(Name name, TypeId value_type, Precision precision, ConstantId initializer) {
  Variable v;
  v.name = std::move(name);
  v.type = m_.pointer_type(value_type, StorageClass::Function);
  v.precision = precision;
  v.initializer = initializer;
  if (location_) v.location = m_.add_location(*location_);
  VariableId id = m_.add_variable(std::move(v));
  current_block().declarations.push_back(id);
  return id;
}

bool Builder::terminated() const {
  const Block& b = m_.function(function_).block(block_);
  return !b.instructions.empty() && is_terminator(b.instructions.back().opcode);
}

Result<bool> Builder::check_open() {
  if (!function_.valid() || !block_.valid()) return Error{"no insertion point"};
  if (terminated()) return Error{"the current block is already terminated"};
  return true;
}

Instruction Builder::make(Opcode op, RegisterId result, std::span<const Operand> operands, std::uint16_t aux) {
  Instruction inst;
  inst.opcode = op;
  inst.aux = aux;
  inst.result = result;
  inst.operands.assign(operands.begin(), operands.end());
  if (location_) inst.location = m_.add_location(*location_);
  return inst;
}

void Builder::push(Instruction inst) {
  std::vector<Instruction>& list = current_block().instructions;
  // Starting at 8 skips the reallocations at 1, 2 and 4 instructions; the
  // vector is fitted to its size below anyway.
  if (list.capacity() == 0) list.reserve(8);
  list.push_back(std::move(inst));
  // A terminated block takes no more instructions: give back the growth
  // slack, up to half of the vector (the IR's memory budget is 64 bytes per
  // instruction, docs/performance.md).
  if (is_terminator(list.back().opcode) && list.capacity() != list.size()) list.shrink_to_fit();
}

Result<RegisterId> Builder::emit(Opcode op, std::span<const Operand> operands, std::optional<Precision> precision,
                                 std::uint16_t aux) {
  if (auto open = check_open(); !open) return open.failure();
  if (is_terminator(op)) return Error{fmt::format("{} is a terminator; use terminate() or branch_*()", name(op))};
  auto type = infer_result_type(m_, op, aux, operands);
  if (!type) return type.failure();
  RegisterId result;
  if (*type != predefined::kVoid) result = m_.new_register(*type, result_precision(m_, *type, operands, precision));
  push(make(op, result, operands, aux));
  return result;
}

Result<RegisterId> Builder::construct(Opcode op, TypeId result_type, std::span<const Operand> operands,
                                      std::optional<Precision> precision) {
  if (auto open = check_open(); !open) return open.failure();
  auto type = infer_result_type(m_, op, 0, operands, result_type);
  if (!type) return type.failure();
  RegisterId result = m_.new_register(*type, result_precision(m_, *type, operands, precision));
  push(make(op, result, operands));
  return result;
}

Result<bool> Builder::terminate(Opcode op, std::optional<Operand> operand) {
  if (auto open = check_open(); !open) return open;
  if (!is_terminator(op) || is_divergent(op))
    return Error{fmt::format("{} is not a simple terminator", name(op))};
  const OpcodeInfo& oi = info(op);
  const std::size_t n = operand ? 1 : 0;
  if (n < oi.min_operands || n > oi.max_operands)
    return Error{fmt::format("{}: takes {} operand(s), {} given", name(op), oi.max_operands, n)};
  if (op == Opcode::LoopIf && m_.type_of(*operand) != predefined::kBool)
    return Error{"LoopIf: condition must be a bool"};
  Operand ops[1];
  if (operand) ops[0] = *operand;
  push(make(op, RegisterId{}, std::span<const Operand>(ops, n)));
  return true;
}

Result<IfBlocks> Builder::branch_if(Operand condition, bool with_else, TypeId merge_type, Precision merge_precision) {
  if (auto open = check_open(); !open) return open.failure();
  if (m_.type_of(condition) != predefined::kBool) return Error{"If: condition must be a bool"};
  IfBlocks r;
  r.true_block = new_block();
  if (with_else) r.false_block = new_block();
  r.merge = new_block();
  Function& f = m_.function(function_);
  if (merge_type.valid()) f.block(r.merge).merge_input = m_.new_register(merge_type, merge_precision);
  Block& b = f.block(block_);
  b.sub_blocks_storage[0] = r.true_block;
  b.sub_blocks_storage[1] = r.false_block;
  b.merge = r.merge;
  const Operand ops[] = {condition};
  push(make(Opcode::If, RegisterId{}, ops));
  return r;
}

Result<LoopBlocks> Builder::branch_loop(bool do_loop, bool with_continue, TypeId merge_type,
                                        Precision merge_precision) {
  if (auto open = check_open(); !open) return open.failure();
  LoopBlocks r;
  r.condition = new_block();
  r.body = new_block();
  if (with_continue) r.continue_block = new_block();
  r.merge = new_block();
  Function& f = m_.function(function_);
  if (merge_type.valid()) f.block(r.merge).merge_input = m_.new_register(merge_type, merge_precision);
  Block& b = f.block(block_);
  b.sub_blocks_storage[0] = r.condition;
  b.sub_blocks_storage[1] = r.body;
  b.sub_blocks_storage[2] = r.continue_block;
  b.merge = r.merge;
  push(make(do_loop ? Opcode::DoLoop : Opcode::Loop, RegisterId{}, {}));
  return r;
}

Result<SwitchBlocks> Builder::branch_switch(Operand selector, std::span<const SwitchCase> cases) {
  if (auto open = check_open(); !open) return open.failure();
  TypeId t = m_.type_of(selector);
  if (t != predefined::kInt && t != predefined::kUint) return Error{"Switch: selector must be an int or uint"};
  SwitchBlocks r;
  for (std::size_t i = 0; i < cases.size(); ++i) r.cases.push_back(new_block());
  r.merge = new_block();
  Block& b = m_.function(function_).block(block_);
  b.case_blocks.assign(r.cases.begin(), r.cases.end());
  b.cases.assign(cases.begin(), cases.end());
  b.merge = r.merge;
  const Operand ops[] = {selector};
  push(make(Opcode::Switch, RegisterId{}, ops));
  return r;
}

Result<BlockId> Builder::next_block() {
  if (auto open = check_open(); !open) return open.failure();
  BlockId merge = new_block();
  current_block().merge = merge;
  push(make(Opcode::NextBlock, RegisterId{}, {}));
  return merge;
}

}  // namespace sluice::ir
