// Texture sampling variants. One Texture opcode covers GLSL's texture*
// family; its aux field holds these flags, which also say which operands
// follow the sampled image and coordinate, in this order:
//   [dref if Compare] [lod if Lod or Fetch] [bias if Bias] [dx dy if Grad]
//   [offset if Offset] [component if Gather and not Compare]
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <optional>

namespace sluice::ir {

enum TextureFlags : std::uint16_t {
  kTextureProj = 1 << 0,
  kTextureLod = 1 << 1,
  kTextureBias = 1 << 2,
  kTextureGrad = 1 << 3,
  kTextureOffset = 1 << 4,
  kTextureGather = 1 << 5,
  kTextureFetch = 1 << 6,
  kTextureCompare = 1 << 7,
};

// "Texture" followed by the flag words in a fixed order:
// Proj, Fetch, Gather, Lod, Bias, Grad, Compare, Offset. E.g. TextureProjLodOffset.
std::string texture_opcode_name(std::uint16_t flags);
std::optional<std::uint16_t> texture_flags_from_name(std::string_view name);
std::size_t texture_operand_count(std::uint16_t flags);

}  // namespace sluice::ir
