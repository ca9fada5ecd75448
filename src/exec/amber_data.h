// Amber's DATA_TYPE names and its buffer layouts. Values are laid out as
// Amber does it: element after element, each column of a vector or matrix
// padded to four components when it has three rows, or in STD140 when the
// type is a matrix or an array (so float[] STD140 has a 16-byte stride and
// float[] STD430 a 4-byte one).
#pragma once

#include <string>
#include <vector>

#include "exec/amber_script.h"

namespace sluice::exec::amber {

// "float", "int32", "vec2<float>", "mat4x4<float>", "int32[]", ...
Result<DataType> parse_data_type(const std::string& name);

// Values per element (columns x rows).
uint32_t values_per_element(const DataType& type);
// Bytes per element in the given layout.
uint32_t element_stride(const DataType& type, bool std140);

// Lays out numeric tokens; the count must be a multiple of
// values_per_element. Errors name the offending token.
Result<std::vector<uint8_t>> pack_values(const DataType& type, bool std140, const std::vector<std::string>& tokens);

// Lays out `count` elements whose k-th value (over all elements) is
// start + k * step (FILL is step 0).
Result<std::vector<uint8_t>> pack_series(const DataType& type, bool std140, uint32_t count, double start,
                                         double step);

}  // namespace sluice::exec::amber
