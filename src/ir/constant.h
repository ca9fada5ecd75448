// Constants: a type paired with a value. Scalars keep their bit pattern
// (floats as IEEE-754 binary32 bits, doubles as binary64 bits split in two
// words, so 0.0 and -0.0 stay distinct and no value is ever rounded through
// another width); composites list their components.
// The module interns constants, so equal constants share one ConstantId.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ir/ids.h"

namespace sluice::ir {

// Operations of a specialization-constant expression (SPIR-V
// OpSpecConstantOp): what array lengths written with gl_WorkGroupSize or
// other specialization constants need.
enum class SpecOp : std::uint8_t { None, CompositeExtract, IAdd, ISub, IMul, UDiv, SDiv };
const char* to_string(SpecOp op);
std::optional<SpecOp> spec_op_from_string(std::string_view s);

struct Constant {
  TypeId type;
  std::uint32_t bits = 0;                 // scalar value
  std::vector<ConstantId> components;     // composite value (vector, matrix, array, struct)
  std::optional<std::uint32_t> spec_id;   // specialization constant (its default is the value)
  // A specialization-constant expression when not None: spec_op applied to
  // `operands` (earlier constants; CompositeExtract's second operand is the
  // index, a uint constant). `bits` is its value with every specialization
  // constant at its default. Only array lengths (Type::length) use them.
  SpecOp spec_op = SpecOp::None;
  std::vector<ConstantId> operands{};
  // The high word of a 64-bit scalar (a double); `bits` is the low word,
  // the order of SPIR-V's 64-bit literals. 0 for 32-bit scalars.
  std::uint32_t high_bits = 0;

  bool is_composite() const { return !components.empty(); }
  float as_float() const { return std::bit_cast<float>(bits); }
  double as_double() const { return std::bit_cast<double>((std::uint64_t{high_bits} << 32) | bits); }
  std::int32_t as_int() const { return static_cast<std::int32_t>(bits); }
  std::uint32_t as_uint() const { return bits; }
  bool as_bool() const { return bits != 0; }

  friend bool operator==(const Constant&, const Constant&) = default;
};

std::size_t hash_value(const Constant& c);

}  // namespace sluice::ir
