// Deterministic fill data for buffers and textures (see data_pattern.h).
#include "exec/data_pattern.h"

#include <cstring>

namespace sluice::exec {

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

uint64_t descriptor_stream(uint32_t set, uint32_t binding, uint32_t array_element) {
  return splitmix64((static_cast<uint64_t>(set) << 48) ^ (static_cast<uint64_t>(binding) << 24) ^ array_element);
}

uint64_t push_constant_stream() { return splitmix64(0x7075736863ull); }  // "pushc"

void fill_scalar_pattern(std::span<uint8_t> bytes, std::span<const ScalarSlot> slots, uint64_t seed,
                         uint64_t stream) {
  for (size_t i = 0; i < slots.size(); ++i) {
    const ScalarSlot& s = slots[i];
    if (static_cast<size_t>(s.offset) + s.bytes > bytes.size()) continue;
    const uint64_t h = splitmix64(seed ^ stream ^ i);
    const int64_t centred = static_cast<int64_t>(h % 33) - 16;
    uint8_t* dst = bytes.data() + s.offset;
    switch (s.kind) {
      case ScalarKind::Float: {
        const double v = static_cast<double>(centred) / 8.0;
        if (s.bytes == 8) {
          std::memcpy(dst, &v, 8);
        } else if (s.bytes == 2) {
          const uint16_t half = float_to_half(static_cast<float>(v));
          std::memcpy(dst, &half, 2);
        } else {
          const float f = static_cast<float>(v);
          std::memcpy(dst, &f, 4);
        }
        break;
      }
      case ScalarKind::Int:
      case ScalarKind::Uint:
      case ScalarKind::Bool: {
        const int64_t v = s.kind == ScalarKind::Int ? centred
                          : s.kind == ScalarKind::Uint ? static_cast<int64_t>(h % 33)
                                                       : static_cast<int64_t>(h % 2);
        // Little-endian truncation gives the two's-complement value in any width.
        std::memcpy(dst, &v, s.bytes);
        break;
      }
    }
  }
}

std::array<double, 4> texel_pattern(uint32_t x, uint32_t y, uint32_t z, uint32_t w, uint32_t h, uint32_t d,
                                    bool integer) {
  if (integer) return {double(x), double(y), double(z), 1.0};
  auto norm = [](uint32_t v, uint32_t size) { return size > 1 ? double(v) / double(size - 1) : 0.0; };
  return {norm(x, w), norm(y, h), norm(z, d), 1.0};
}

double depth_texel_pattern(uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
  const uint32_t span = w + h - 2;
  return span ? double(x + y) / double(span) : 0.0;
}

uint16_t float_to_half(float value) {
  uint32_t f;
  std::memcpy(&f, &value, 4);
  const uint32_t sign = (f >> 16) & 0x8000;
  const int32_t exponent = static_cast<int32_t>((f >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = f & 0x7fffff;
  if (((f >> 23) & 0xff) == 0xff) return static_cast<uint16_t>(sign | 0x7c00 | (mantissa ? 0x200 : 0));
  if (exponent >= 31) return static_cast<uint16_t>(sign | 0x7c00);
  if (exponent <= 0) {
    if (exponent < -10) return static_cast<uint16_t>(sign);
    mantissa |= 0x800000;
    const uint32_t shift = static_cast<uint32_t>(14 - exponent);
    uint32_t half = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(exponent) << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) ++half;  // may carry into the exponent: still correct
  return static_cast<uint16_t>(sign | half);
}

float half_to_float(uint16_t value) {
  const uint32_t sign = (value & 0x8000u) << 16;
  uint32_t exponent = (value >> 10) & 0x1f;
  uint32_t mantissa = value & 0x3ff;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {
      exponent = 127 - 15 + 1;
      while (!(mantissa & 0x400)) {
        mantissa <<= 1;
        --exponent;
      }
      bits = sign | (exponent << 23) | ((mantissa & 0x3ff) << 13);
    }
  } else {
    bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

}  // namespace sluice::exec
