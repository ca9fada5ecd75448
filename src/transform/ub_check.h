// The `ub-check` pass: run-time checks for undefined behaviour (issue 15,
// docs/ub-check.md). It runs first, on the IR as the front end built it,
// and guards every instruction whose result the specifications leave
// undefined for some operands: the guard reports the condition to a
// findings buffer and hands the instruction a defined operand instead, so
// the instrumented program never executes the undefined operation and,
// where nothing fires, computes exactly what the plain program computes.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "ir/result.h"

namespace sluice::transform {

// Check ids are part of the findings buffer's format (docs/ub-check.md):
// never renumber, only append.
enum class UbCheck : std::uint32_t {
  DivByZero = 1,
  DivOverflow,
  ShiftOutOfRange,
  IndexOutOfBounds,
  FloatToIntOverflow,
  DomainSqrt,
  DomainInverseSqrt,
  DomainLog,
  DomainLog2,
  DomainPow,
  DomainAsin,
  DomainAcos,
  DomainAtan2,
  DomainAcosh,
  DomainAtanh,
  DomainClamp,
  DomainSmoothstep,
  DomainNormalize,
  DomainMod,
  DomainBitfield,
  UninitializedRead,
};
inline constexpr std::uint32_t kUbCheckCount = static_cast<std::uint32_t>(UbCheck::UninitializedRead) + 1;

// "div-by-zero", ...; empty for an id that is no check.
std::string_view ub_check_name(std::uint32_t id);
// What the report says: "integer division by zero", ...
std::string_view ub_check_message(std::uint32_t id);
std::optional<UbCheck> ub_check_from_name(std::string_view name);

// The findings buffer (docs/ub-check.md, "Buffer layout"): a std430
// storage block { uint found; uvec4 records[capacity]; } with `found` at
// byte 0 and record i at byte 16 + 16 i: (check id, location id, x, y).
inline constexpr std::uint32_t kUbHeaderBytes = 16;
inline constexpr std::uint32_t kUbRecordBytes = 16;
// The location id of an instruction the front end gave no location.
inline constexpr std::uint32_t kUbNoLocation = 0xffffffffu;

struct UbCheckOptions {
  // Unset: set = one past the highest set the shader's resources use (0 if
  // none), binding 0. Given, they must not clash with the shader's own.
  std::optional<std::uint32_t> set;
  std::optional<std::uint32_t> binding;
  std::uint32_t capacity = 65536;  // records; `found` counts past it
};

// One instrumented instruction: which check, at which source location.
struct UbSite {
  UbCheck check;
  ir::SourceLocId location;
};

struct UbCheckMap {
  std::uint32_t set = 0;
  std::uint32_t binding = 0;
  std::uint32_t capacity = 0;
  std::vector<UbSite> sites;  // in the order they were instrumented
  std::uint64_t buffer_bytes() const { return kUbHeaderBytes + std::uint64_t{kUbRecordBytes} * capacity; }
};

// Instruments `m` in place (valid IR in, valid IR out). A module where no
// instruction needs a guard is left unchanged, without findings buffer (the
// map then has no sites). Fails (Rejected) when the requested set/binding is the
// shader's own or the capacity is 0 or over 2^24.
Result<UbCheckMap> ub_check(ir::Module& m, const UbCheckOptions& options = {});

}  // namespace sluice::transform
