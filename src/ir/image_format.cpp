#include "ir/image_format.h"

#include <array>

namespace sluice::ir {
namespace {

constexpr ScalarKind F = ScalarKind::Float, I = ScalarKind::Int, U = ScalarKind::Uint;

constexpr std::array<ImageFormat, 39> kFormats = {{
    {"rgba32f", 1, F, false},       {"rgba16f", 2, F, false},       {"r32f", 3, F, false},
    {"rgba8", 4, F, false},         {"rgba8_snorm", 5, F, false},   {"rg32f", 6, F, true},
    {"rg16f", 7, F, true},          {"r11f_g11f_b10f", 8, F, true}, {"r16f", 9, F, true},
    {"rgba16", 10, F, true},        {"rgb10_a2", 11, F, true},      {"rg16", 12, F, true},
    {"rg8", 13, F, true},           {"r16", 14, F, true},           {"r8", 15, F, true},
    {"rgba16_snorm", 16, F, true},  {"rg16_snorm", 17, F, true},    {"rg8_snorm", 18, F, true},
    {"r16_snorm", 19, F, true},     {"r8_snorm", 20, F, true},      {"rgba32i", 21, I, false},
    {"rgba16i", 22, I, false},      {"rgba8i", 23, I, false},       {"r32i", 24, I, false},
    {"rg32i", 25, I, true},         {"rg16i", 26, I, true},         {"rg8i", 27, I, true},
    {"r16i", 28, I, true},          {"r8i", 29, I, true},           {"rgba32ui", 30, U, false},
    {"rgba16ui", 31, U, false},     {"rgba8ui", 32, U, false},      {"r32ui", 33, U, false},
    {"rgb10_a2ui", 34, U, true},    {"rg32ui", 35, U, true},        {"rg16ui", 36, U, true},
    {"rg8ui", 37, U, true},         {"r16ui", 38, U, true},         {"r8ui", 39, U, true},
}};

}  // namespace

std::span<const ImageFormat> image_formats() { return kFormats; }

const ImageFormat* find_image_format(std::string_view name) {
  for (const ImageFormat& f : kFormats)
    if (f.name == name) return &f;
  return nullptr;
}

const ImageFormat* find_image_format(std::uint32_t spirv) {
  for (const ImageFormat& f : kFormats)
    if (f.spirv == spirv) return &f;
  return nullptr;
}

}  // namespace sluice::ir
