#include "ir/opcode.h"

#include <array>
#include <string>
#include <unordered_map>

namespace sluice::ir {
namespace {

constexpr std::array kOpcodeInfo = {
#define OPCODE(name, family, min_ops, max_ops, variadic, rule, effects) \
  OpcodeInfo{#name, OpcodeFamily::family, min_ops, max_ops, variadic, TypeRule::rule, effects},
#include "ir/opcode.def"
#undef OPCODE
};

}  // namespace

const OpcodeInfo& info(Opcode op) { return kOpcodeInfo[static_cast<std::size_t>(op)]; }

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
