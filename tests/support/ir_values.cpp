// Flattened values (ir_values.h). Types are walked with an explicit stack,
// so a deeply nested type costs heap, not native stack.
#include "ir_values.h"

#include <bit>

#include <fmt/format.h>

#include "ir/typing.h"

namespace sluice::testing {
namespace {

// The scalar kind of each word of a value of type `t`; nullopt for a type
// with no flat value.
std::optional<std::vector<ir::ScalarKind>> kinds_of(const ir::Module& m, ir::TypeId t) {
  std::vector<ir::ScalarKind> out;
  std::vector<ir::TypeId> stack{t};
  while (!stack.empty()) {
    const ir::TypeId top = stack.back();
    stack.pop_back();
    if (!top.valid()) return std::nullopt;
    const ir::Type& ty = m.type(top);
    switch (ty.kind) {
      case ir::TypeKind::Scalar:
        if (ty.width != 32) return std::nullopt;
        out.push_back(ty.scalar);
        break;
      case ir::TypeKind::Vector:
      case ir::TypeKind::Matrix:
      case ir::TypeKind::Array:
        for (std::uint32_t i = 0; i < ty.count; ++i) stack.push_back(ty.element);
        break;
      case ir::TypeKind::Struct:
        for (std::size_t i = ty.members.size(); i-- > 0;) stack.push_back(ty.members[i].type);
        break;
      default: return std::nullopt;
    }
  }
  return out;
}

}  // namespace

std::optional<std::uint32_t> flat_size(const ir::Module& m, ir::TypeId t) {
  auto kinds = kinds_of(m, t);
  if (!kinds) return std::nullopt;
  return static_cast<std::uint32_t>(kinds->size());
}

std::optional<Part> part_of(const ir::Module& m, ir::TypeId t, std::uint32_t index) {
  if (!t.valid()) return std::nullopt;
  const ir::Type& ty = m.type(t);
  switch (ty.kind) {
    case ir::TypeKind::Vector:
    case ir::TypeKind::Matrix:
    case ir::TypeKind::Array: {
      if (index >= ty.count) return std::nullopt;
      auto size = flat_size(m, ty.element);
      if (!size) return std::nullopt;
      return Part{index * *size, ty.element};
    }
    case ir::TypeKind::Struct: {
      if (index >= ty.members.size()) return std::nullopt;
      std::uint32_t offset = 0;
      for (std::uint32_t i = 0; i < index; ++i) {
        auto size = flat_size(m, ty.members[i].type);
        if (!size) return std::nullopt;
        offset += *size;
      }
      return Part{offset, ty.members[index].type};
    }
    default: return std::nullopt;
  }
}

Words words_of(const ir::Module& m, ir::ConstantId c) {
  Words out;
  std::vector<ir::ConstantId> stack{c};
  while (!stack.empty()) {
    const ir::Constant& k = m.constant(stack.back());
    stack.pop_back();
    if (!k.is_composite()) {
      out.push_back(m.type(k.type).scalar == ir::ScalarKind::Bool ? (k.bits != 0 ? 1u : 0u) : k.bits);
      continue;
    }
    for (std::size_t i = k.components.size(); i-- > 0;) stack.push_back(k.components[i]);
  }
  return out;
}

std::uint32_t float_word(float f) { return std::bit_cast<std::uint32_t>(f); }

std::string text_of(const ir::Module& m, ir::TypeId t, const Words& w) {
  auto kinds = kinds_of(m, t);
  if (!kinds || kinds->size() != w.size()) return "?";
  std::string out;
  for (std::size_t i = 0; i < w.size(); ++i) {
    switch ((*kinds)[i]) {
      case ir::ScalarKind::Float: out += fmt::format("{:a}", std::bit_cast<float>(w[i])); break;
      case ir::ScalarKind::Int: out += std::to_string(static_cast<std::int32_t>(w[i])); break;
      case ir::ScalarKind::Uint: out += std::to_string(w[i]); break;
      case ir::ScalarKind::Bool: out += w[i] ? "true" : "false"; break;
    }
    out += ",";
  }
  return w.size() == 1 ? out.substr(0, out.size() - 1) : "(" + out + ")";
}

std::vector<float> floats_of(const ir::Module& m, ir::TypeId t, const Words& w) {
  std::vector<float> out;
  auto kinds = kinds_of(m, t);
  if (!kinds || kinds->size() != w.size()) return out;
  for (std::size_t i = 0; i < w.size(); ++i) {
    switch ((*kinds)[i]) {
      case ir::ScalarKind::Float: out.push_back(std::bit_cast<float>(w[i])); break;
      case ir::ScalarKind::Int: out.push_back(static_cast<float>(static_cast<std::int32_t>(w[i]))); break;
      case ir::ScalarKind::Uint: out.push_back(static_cast<float>(w[i])); break;
      case ir::ScalarKind::Bool: out.push_back(w[i] ? 1.0f : 0.0f); break;
    }
  }
  return out;
}

}  // namespace sluice::testing
