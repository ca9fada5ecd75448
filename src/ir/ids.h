// Strong id types for the entities of a module. An id is an index into one of
// the module's flat tables; ids of different kinds do not convert into each
// other, so a TypeId can never be passed where a RegisterId is expected.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>

namespace sluice::ir {

template <class Tag>
class Id {
 public:
  static constexpr std::uint32_t kInvalid = std::numeric_limits<std::uint32_t>::max();

  constexpr Id() = default;
  constexpr explicit Id(std::uint32_t index) : index_(index) {}

  constexpr std::uint32_t index() const { return index_; }
  constexpr bool valid() const { return index_ != kInvalid; }
  constexpr explicit operator bool() const { return valid(); }

  friend constexpr bool operator==(Id, Id) = default;
  friend constexpr auto operator<=>(Id, Id) = default;

 private:
  std::uint32_t index_ = kInvalid;
};

using TypeId = Id<struct TypeTag>;
using ConstantId = Id<struct ConstantTag>;
using VariableId = Id<struct VariableTag>;
using FunctionId = Id<struct FunctionTag>;
using RegisterId = Id<struct RegisterTag>;
// Blocks live in their function's block table; a BlockId is meaningful only
// together with the function that owns it.
using BlockId = Id<struct BlockTag>;
// Index into the module's table of source locations; invalid means "none".
using SourceLocId = Id<struct SourceLocTag>;

}  // namespace sluice::ir

template <class Tag>
struct std::hash<sluice::ir::Id<Tag>> {
  std::size_t operator()(sluice::ir::Id<Tag> id) const noexcept {
    return std::hash<std::uint32_t>{}(id.index());
  }
};
