// Storage image formats: the names GLSL's format layout qualifiers spell
// (GLSL 4.60 §4.4.7) with the SPIR-V Image Format enumerant of each (SPIR-V
// spec 3.11) and whether Vulkan needs StorageImageExtendedFormats for it.
// One table for the validator, the SPIR-V reader and the SPIR-V output;
// ImageDescriptor::format holds the name.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "ir/type.h"

namespace sluice::ir {

struct ImageFormat {
  std::string_view name;    // "rgba8", "r32ui", ...
  std::uint32_t spirv = 0;  // SPIR-V's Image Format value (Rgba8 = 4)
  ScalarKind kind = ScalarKind::Float;  // of its components: f / i / ui
  bool extended = false;    // needs the StorageImageExtendedFormats capability
};

std::span<const ImageFormat> image_formats();
// nullptr when the name or value is no format of the table ("unknown" and
// "" are the absence of a format, not formats).
const ImageFormat* find_image_format(std::string_view name);
const ImageFormat* find_image_format(std::uint32_t spirv);

}  // namespace sluice::ir
