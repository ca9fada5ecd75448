#include "ir/opcode.h"

#include <algorithm>
#include <array>
#include <string>
#include <unordered_map>

namespace sluice::ir {
namespace {

constexpr std::array kOpcodeInfo = {
#define OPCODE(name, family, min_ops, max_ops, variadic, rule, effects, roles) \
  OpcodeInfo{#name, OpcodeFamily::family, min_ops, max_ops, variadic, TypeRule::rule, effects, roles},
#include "ir/opcode.def"
#undef OPCODE
};
static_assert(kOpcodeInfo.size() == kOpcodeCount);

constexpr std::optional<OperandRole> role_of(char letter) {
  switch (letter) {
    case 'v': return OperandRole::Value;
    case 'r': return OperandRole::PointerRead;
    case 'w': return OperandRole::PointerWritten;
    case 'u': return OperandRole::PointerUpdated;
    case 'o': return OperandRole::OutPointer;
    case 'a': return OperandRole::Address;
    case 'g': return OperandRole::Argument;
    case 'l': return OperandRole::Literal;
    case 'f': return OperandRole::Callee;
    default: return std::nullopt;
  }
}

// Every row names one known role per operand position.
constexpr bool roles_well_formed() {
  for (const OpcodeInfo& oi : kOpcodeInfo) {
    if (oi.roles.size() != oi.max_operands + (oi.variadic_tail ? 1u : 0u)) return false;
    for (char c : oi.roles)
      if (!role_of(c)) return false;
  }
  return true;
}
static_assert(roles_well_formed(), "opcode.def: a Roles column does not match the operand counts");

}  // namespace

const OpcodeInfo& info(Opcode op) { return kOpcodeInfo[static_cast<std::size_t>(op)]; }

OperandRole operand_role(Opcode op, std::size_t i) {
  const std::string_view roles = info(op).roles;
  if (roles.empty()) return OperandRole::Value;
  return *role_of(roles[std::min(i, roles.size() - 1)]);
}

std::optional<Opcode> opcode_from_name(std::string_view name) {
  // Built once on first use; read-only afterwards, so threads may share it.
  static const std::unordered_map<std::string_view, Opcode> by_name = [] {
    std::unordered_map<std::string_view, Opcode> m;
    for (std::size_t i = 0; i < kOpcodeInfo.size(); ++i) m.emplace(kOpcodeInfo[i].name, static_cast<Opcode>(i));
    return m;
  }();
  auto it = by_name.find(name);
  if (it == by_name.end()) return std::nullopt;
  return it->second;
}

}  // namespace sluice::ir
