// Output comparison with exact integers and ULP-bounded floats.
#include "exec/compare.h"

#include <cmath>
#include <cstring>
#include <tuple>

#include <fmt/format.h>

#include "exec/data_pattern.h"

namespace sluice::exec {
namespace {

// Maps sign-magnitude IEEE bits onto a line where adjacent values differ by 1.
int64_t ordered(uint64_t v, uint32_t bits) {
  const uint64_t sign = 1ull << (bits - 1);
  const uint64_t magnitude = v & (sign - 1);
  return (v & sign) ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
}

bool is_nan(uint64_t v, uint32_t bits) {
  const uint32_t mantissa_bits = bits == 16 ? 10 : bits == 32 ? 23 : 52;
  const uint64_t exponent_mask = ((1ull << (bits - 1 - mantissa_bits)) - 1) << mantissa_bits;
  return (v & exponent_mask) == exponent_mask && (v & ((1ull << mantissa_bits) - 1)) != 0;
}

double to_double(uint64_t v, uint32_t bits) {
  if (bits == 16) return half_to_float(static_cast<uint16_t>(v));
  if (bits == 32) {
    float f;
    const uint32_t w = static_cast<uint32_t>(v);
    std::memcpy(&f, &w, 4);
    return f;
  }
  double d;
  std::memcpy(&d, &v, 8);
  return d;
}

bool float_bits_match(uint64_t a, uint64_t b, uint32_t bits, const CompareOptions& o) {
  if (a == b) return true;
  const bool a_nan = is_nan(a, bits), b_nan = is_nan(b, bits);
  if (a_nan || b_nan) return a_nan && b_nan;
  if (ulp_distance(a, b, bits) <= o.max_float_ulps) return true;
  return o.float_abs_tolerance > 0 && std::fabs(to_double(a, bits) - to_double(b, bits)) <= o.float_abs_tolerance;
}

std::string float_text(uint64_t v, uint32_t bits) {
  if (bits == 32) return fmt::format("{} ({:#010x})", to_double(v, bits), v);
  return fmt::format("{}", to_double(v, bits));
}

const char kChannel[] = "RGBA";

}  // namespace

std::string Mismatch::describe() const { return fmt::format("{}: expected {}, got {}", where, expected, actual); }

uint64_t ulp_distance(uint64_t a_bits, uint64_t b_bits, uint32_t bits) {
  const int64_t a = ordered(a_bits, bits), b = ordered(b_bits, bits);
  return a > b ? static_cast<uint64_t>(a - b) : static_cast<uint64_t>(b - a);
}

bool floats_match(float a, float b, const CompareOptions& options) {
  uint32_t wa, wb;
  std::memcpy(&wa, &a, 4);
  std::memcpy(&wb, &b, 4);
  return float_bits_match(wa, wb, 32, options);
}

std::optional<Mismatch> compare_images(const Image& e, const Image& a, const CompareOptions& options) {
  const std::string loc = fmt::format("location {}", e.location);
  if (e.width != a.width || e.height != a.height)
    return Mismatch{loc + " size", fmt::format("{}x{}", e.width, e.height), fmt::format("{}x{}", a.width, a.height)};
  if (e.kind != a.kind)
    return Mismatch{loc + " component type", scalar_kind_name(e.kind), scalar_kind_name(a.kind)};
  const bool integer = e.kind == ScalarKind::Int || e.kind == ScalarKind::Uint;
  for (uint32_t y = 0; y < e.height; ++y)
    for (uint32_t x = 0; x < e.width; ++x)
      for (uint32_t c = 0; c < 4; ++c) {
        const size_t i = (size_t(y) * e.width + x) * 4 + c;
        const std::string where = fmt::format("{}, pixel ({}, {}), channel {}", loc, x, y, kChannel[c]);
        if (integer) {
          if (e.integer_rgba[i] != a.integer_rgba[i]) {
            auto text = [&](uint32_t w) {
              return e.kind == ScalarKind::Int ? std::to_string(static_cast<int32_t>(w)) : std::to_string(w);
            };
            return Mismatch{where, text(e.integer_rgba[i]), text(a.integer_rgba[i])};
          }
        } else if (!floats_match(e.rgba[i], a.rgba[i], options)) {
          uint32_t we, wa;
          std::memcpy(&we, &e.rgba[i], 4);
          std::memcpy(&wa, &a.rgba[i], 4);
          return Mismatch{where, float_text(we, 32), float_text(wa, 32)};
        }
      }
  return std::nullopt;
}

std::optional<Mismatch> compare_buffers(const BufferData& e, const BufferData& a, const CompareOptions& options) {
  const std::string name = fmt::format("storage buffer '{}' (set {}, binding {}{})", e.name, e.set, e.binding,
                                       e.array_element ? fmt::format(", element {}", e.array_element) : "");
  if (e.bytes.size() != a.bytes.size())
    return Mismatch{name + " size", std::to_string(e.bytes.size()), std::to_string(a.bytes.size())};
  for (size_t i = 0; i < e.slots.size(); ++i) {
    const ScalarSlot& s = e.slots[i];
    if (size_t(s.offset) + s.bytes > e.bytes.size()) continue;
    uint64_t ve = 0, va = 0;
    std::memcpy(&ve, e.bytes.data() + s.offset, s.bytes);
    std::memcpy(&va, a.bytes.data() + s.offset, s.bytes);
    const uint32_t bits = s.bytes * 8u;
    const std::string where = fmt::format("{}, scalar {} at byte {} ({})", name, i, s.offset, scalar_kind_name(s.kind));
    if (s.kind == ScalarKind::Float) {
      if (!float_bits_match(ve, va, bits, options)) return Mismatch{where, float_text(ve, bits), float_text(va, bits)};
    } else if (ve != va) {
      auto text = [&](uint64_t v) {
        if (s.kind != ScalarKind::Int) return std::to_string(v);
        const int64_t sv = bits == 64 ? static_cast<int64_t>(v)
                                      : static_cast<int64_t>(v << (64 - bits)) >> (64 - bits);
        return std::to_string(sv);
      };
      return Mismatch{where, text(ve), text(va)};
    }
  }
  return std::nullopt;
}

std::optional<Mismatch> compare_outputs(const RunOutput& e, const RunOutput& a, const CompareOptions& options) {
  if (e.images.size() != a.images.size())
    return Mismatch{"number of output images", std::to_string(e.images.size()), std::to_string(a.images.size())};
  for (size_t i = 0; i < e.images.size(); ++i) {
    if (e.images[i].location != a.images[i].location)
      return Mismatch{"output locations", std::to_string(e.images[i].location), std::to_string(a.images[i].location)};
    if (auto m = compare_images(e.images[i], a.images[i], options)) return m;
  }
  // Both lists are sorted by (set, binding, element). A buffer only one
  // side declares must be one that side's run did not write: a variant may
  // leave out a buffer its shader never uses (remove-unused-interface).
  auto key = [](const BufferData& b) { return std::tie(b.set, b.binding, b.array_element); };
  auto binding_text = [](const BufferData& b) {
    return fmt::format("storage buffer '{}' (set {}, binding {}{})", b.name, b.set, b.binding,
                       b.array_element ? fmt::format(", element {}", b.array_element) : "");
  };
  std::size_t i = 0, j = 0;
  while (i < e.storage_buffers.size() || j < a.storage_buffers.size()) {
    const BufferData* be = i < e.storage_buffers.size() ? &e.storage_buffers[i] : nullptr;
    const BufferData* ba = j < a.storage_buffers.size() ? &a.storage_buffers[j] : nullptr;
    if (be && ba && key(*be) == key(*ba)) {
      if (auto m = compare_buffers(*be, *ba, options)) return m;
      ++i, ++j;
    } else if (be && (!ba || key(*be) < key(*ba))) {
      if (be->written) return Mismatch{binding_text(*be), "written", "not declared"};
      ++i;
    } else {
      if (ba->written) return Mismatch{binding_text(*ba), "not declared", "written"};
      ++j;
    }
  }
  return std::nullopt;
}

}  // namespace sluice::exec
