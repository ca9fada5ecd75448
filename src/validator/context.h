// What the validator's files share during one validate() run: the module, the
// problems found so far, and per-entity facts the module-level checks compute
// (is this type well formed, is this variable a global, ...) that the
// function checks rely on to stay within bounds on garbage input. Internal to
// src/validator.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/module.h"
#include "validator/validator.h"

namespace sluice::validator::detail {

inline constexpr std::uint32_t kNone = 0xFFFFFFFFu;

// "t5", "r12", ...; "<none>" for an invalid id.
std::string id_text(char prefix, std::uint32_t index);

// Where a problem is: function, block, instruction index (-1: the block).
struct Where {
  ir::FunctionId function;
  ir::BlockId block;
  std::int32_t instruction = -1;
};

// A use of a register whose definition did not dominate it. The message is
// chosen once all functions are walked, when it is known whether and where
// the register is defined.
struct PendingUse {
  std::size_t problem;  // index in Context::problems
  ir::RegisterId reg;
};

struct Context {
  Context(const ir::Module& module, const Options& options);

  const ir::Module& m;
  Options options;
  // main(), found once: Module::entry_point() searches by name, which per
  // function would make validation quadratic in the function count.
  ir::FunctionId entry;
  std::vector<Problem> problems;

  // Adds a problem; returns its index, or kNone once max_problems is reached.
  std::size_t report(std::string message, const Where& where = {});

  // --- Facts from the module-level checks (1 = usable) ---
  std::vector<std::uint8_t> type_ok;      // well formed, refers only to usable earlier types
  std::vector<std::uint8_t> constant_ok;  // its type is usable
  std::vector<std::uint8_t> variable_ok;  // its type is a usable pointer
  std::vector<std::uint8_t> register_ok;  // its type is usable and not void
  std::vector<std::uint8_t> function_ok;  // return type and parameters usable
  std::vector<std::uint8_t> is_global;    // per variable
  std::vector<std::uint32_t> param_of;    // per variable: function index whose parameter it is, or kNone
  // Per variable: already declared (as a global, a parameter or in a block).
  std::vector<std::uint8_t> variable_declared;

  // --- Filled while walking the functions ---
  std::vector<std::uint32_t> register_defined_in;  // function index, or kNone
  std::vector<std::uint8_t> register_visible;      // defined on the tree path to the walk's position
  std::vector<std::uint8_t> variable_visible;      // declared on that path
  std::vector<PendingUse> pending_uses;
  std::vector<std::vector<std::uint32_t>> callees;  // call graph, by function index

  // Safe spellings for messages: describe_type() for usable types, "tN" (or
  // "<no type>") otherwise.
  std::string type_name(ir::TypeId t) const;
  std::string function_name(ir::FunctionId f) const;
  // The type of a value operand whose id and type are usable; invalid otherwise.
  ir::TypeId usable_operand_type(ir::Operand op) const;
  const ir::Type* usable_type(ir::TypeId t) const {
    return t.valid() && t.index() < type_ok.size() && type_ok[t.index()] ? &m.type(t) : nullptr;
  }
  // The storage class of a usable variable's pointer type.
  ir::StorageClass storage_of(ir::VariableId v) const { return m.type(m.variable(v).type).storage; }
};

// --- module_checks.cpp ---
void check_types(Context& ctx);
void check_types_interned(Context& ctx);
void check_constants(Context& ctx);
void check_registers(Context& ctx);
void check_variables(Context& ctx);
void check_globals(Context& ctx);
void check_function_signatures(Context& ctx);
void check_entry_point(Context& ctx);
void check_no_recursion(Context& ctx);
// stage_checks.cpp: execution modes, patch and stream variables, and where
// EmitVertex & co. and ControlBarrier may stand, per shader stage.
void check_stage(Context& ctx);
// memory_checks.cpp: no writes into variables declared readonly.
void check_read_only_variables(Context& ctx);

// --- structure_checks.cpp: walks one function's block tree, running the
// structure, terminator, instruction and dominance checks on the way ---
void check_function_body(Context& ctx, ir::FunctionId f);

// --- dominance.cpp ---
void resolve_pending_uses(Context& ctx);

}  // namespace sluice::validator::detail
