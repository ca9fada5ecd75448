// Parsing Amber data types and packing buffer values.
#include "exec/amber_data.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "exec/data_pattern.h"

namespace sluice::exec::amber {
namespace {

Result<DataType> parse_scalar(const std::string& name) {
  struct Entry {
    const char* name;
    ScalarKind kind;
    uint32_t bits;
  };
  static const Entry kScalars[] = {
      {"int8", ScalarKind::Int, 8},     {"int16", ScalarKind::Int, 16},   {"int32", ScalarKind::Int, 32},
      {"int64", ScalarKind::Int, 64},   {"uint8", ScalarKind::Uint, 8},   {"uint16", ScalarKind::Uint, 16},
      {"uint32", ScalarKind::Uint, 32}, {"uint64", ScalarKind::Uint, 64}, {"float16", ScalarKind::Float, 16},
      {"float", ScalarKind::Float, 32}, {"double", ScalarKind::Float, 64},
  };
  for (const auto& e : kScalars)
    if (name == e.name) return DataType{e.kind, e.bits, 1, 1, false};
  return Error{fmt::format("unsupported DATA_TYPE '{}'", name)};
}

// Writes one value of the element's scalar type at `dst`.
void store(const DataType& t, double real, int64_t integer, bool is_integer, uint8_t* dst) {
  const uint32_t bytes = t.bits / 8;
  if (t.kind == ScalarKind::Float) {
    const double v = is_integer ? static_cast<double>(integer) : real;
    if (t.bits == 64) {
      std::memcpy(dst, &v, 8);
    } else if (t.bits == 16) {
      const uint16_t h = float_to_half(static_cast<float>(v));
      std::memcpy(dst, &h, 2);
    } else {
      const float f = static_cast<float>(v);
      std::memcpy(dst, &f, 4);
    }
    return;
  }
  const int64_t v = is_integer ? integer : static_cast<int64_t>(real);
  std::memcpy(dst, &v, bytes);  // little-endian truncation
}

}  // namespace

Result<DataType> parse_data_type(const std::string& full_name) {
  std::string name = full_name;
  bool is_array = false;
  if (name.size() > 2 && name.compare(name.size() - 2, 2, "[]") == 0) {
    is_array = true;
    name.resize(name.size() - 2);
  }
  DataType t;
  const size_t open = name.find('<');
  if (open != std::string::npos) {
    if (name.back() != '>') return Error{fmt::format("malformed DATA_TYPE '{}'", full_name)};
    auto scalar = parse_scalar(name.substr(open + 1, name.size() - open - 2));
    if (!scalar) return scalar;
    t = *scalar;
    const std::string shape = name.substr(0, open);
    if (shape.size() == 4 && shape.compare(0, 3, "vec") == 0 && shape[3] >= '2' && shape[3] <= '4') {
      t.rows = static_cast<uint32_t>(shape[3] - '0');
    } else if (shape.size() == 6 && shape.compare(0, 3, "mat") == 0 && shape[4] == 'x' && shape[3] >= '2' &&
               shape[3] <= '4' && shape[5] >= '2' && shape[5] <= '4') {
      t.columns = static_cast<uint32_t>(shape[3] - '0');
      t.rows = static_cast<uint32_t>(shape[5] - '0');
    } else {
      return Error{fmt::format("unsupported DATA_TYPE '{}'", full_name)};
    }
  } else {
    auto scalar = parse_scalar(name);
    if (!scalar) return scalar;
    t = *scalar;
  }
  t.is_array = is_array;
  return t;
}

uint32_t values_per_element(const DataType& t) { return t.columns * t.rows; }

uint32_t element_stride(const DataType& t, bool std140) {
  const bool pad = t.rows == 3 || (std140 && (t.columns > 1 || t.is_array));
  return t.columns * (pad ? 4 : t.rows) * (t.bits / 8);
}

Result<std::vector<uint8_t>> pack_values(const DataType& t, bool std140, const std::vector<std::string>& tokens) {
  const uint32_t per = values_per_element(t);
  if (tokens.size() % per != 0)
    return Error{fmt::format("{} values do not fill whole elements of {} values each", tokens.size(), per)};
  const uint32_t stride = element_stride(t, std140);
  const uint32_t column_stride = stride / t.columns;
  std::vector<uint8_t> bytes(tokens.size() / per * stride, 0);
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& tok = tokens[i];
    const size_t element = i / per, within = i % per;
    const size_t column = within / t.rows, row = within % t.rows;
    uint8_t* dst = bytes.data() + element * stride + column * column_stride + row * (t.bits / 8);
    errno = 0;
    char* end = nullptr;
    const bool looks_integer = tok.find_first_of(".eEnN") == std::string::npos || tok.rfind("0x", 0) == 0;
    if (t.kind != ScalarKind::Float || looks_integer) {
      const int64_t v = t.kind == ScalarKind::Uint ? static_cast<int64_t>(std::strtoull(tok.c_str(), &end, 0))
                                                   : std::strtoll(tok.c_str(), &end, 0);
      if (end == tok.c_str() || *end != '\0' || errno == ERANGE)
        return Error{fmt::format("'{}' is not a valid {} value", tok, scalar_kind_name(t.kind))};
      store(t, 0.0, v, true, dst);
    } else {
      const double v = std::strtod(tok.c_str(), &end);
      if (end == tok.c_str() || *end != '\0') return Error{fmt::format("'{}' is not a valid float value", tok)};
      store(t, v, 0, false, dst);
    }
  }
  return bytes;
}

Result<std::vector<uint8_t>> pack_series(const DataType& t, bool std140, uint32_t count, double start, double step) {
  const uint32_t per = values_per_element(t);
  const uint32_t stride = element_stride(t, std140);
  const uint32_t column_stride = stride / t.columns;
  std::vector<uint8_t> bytes(static_cast<size_t>(count) * stride, 0);
  for (size_t i = 0; i < size_t(count) * per; ++i) {
    const double v = start + static_cast<double>(i) * step;
    const size_t element = i / per, within = i % per;
    uint8_t* dst = bytes.data() + element * stride + (within / t.rows) * column_stride + (within % t.rows) * (t.bits / 8);
    store(t, v, static_cast<int64_t>(std::llround(v)), t.kind != ScalarKind::Float, dst);
  }
  return bytes;
}

}  // namespace sluice::exec::amber
