// Comparison of run outputs, as `sluice xcheck` uses it: integers and
// booleans must be equal exactly; floats may differ by at most
// CompareOptions::max_float_ulps units in the last place (default 4), where
// +0 and -0 are equal and any NaN equals any NaN. Bytes of a buffer that no
// scalar covers (padding) are not compared. A mismatch names the first
// differing pixel or element with both values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "exec/runner.h"

namespace sluice::exec {

struct CompareOptions {
  uint32_t max_float_ulps = 4;
  // Floats also match when |a - b| <= this; 0 (the default) turns it off.
  double float_abs_tolerance = 0.0;
};

struct Mismatch {
  std::string where;     // e.g. "location 0, pixel (3, 7), channel G"
  std::string expected;  // the value in the first output
  std::string actual;    // the value in the second output
  std::string describe() const;  // "<where>: expected <expected>, got <actual>"
};

// Distance between two IEEE values of `bits` width (16, 32 or 64) given as
// raw bit patterns, counted in representable values; 0 for +0 and -0.
uint64_t ulp_distance(uint64_t a_bits, uint64_t b_bits, uint32_t bits);
bool floats_match(float a, float b, const CompareOptions& options = {});

std::optional<Mismatch> compare_images(const Image& expected, const Image& actual, const CompareOptions& options = {});
std::optional<Mismatch> compare_buffers(const BufferData& expected, const BufferData& actual,
                                        const CompareOptions& options = {});
// Images by location, then storage buffers by (set, binding, element).
std::optional<Mismatch> compare_outputs(const RunOutput& expected, const RunOutput& actual,
                                        const CompareOptions& options = {});

}  // namespace sluice::exec
