#include "ir/texture.h"

#include <array>
#include <utility>

namespace sluice::ir {
namespace {
constexpr std::array<std::pair<std::string_view, std::uint16_t>, 8> kWords = {{
    {"Proj", kTextureProj},
    {"Fetch", kTextureFetch},
    {"Gather", kTextureGather},
    {"Lod", kTextureLod},
    {"Bias", kTextureBias},
    {"Grad", kTextureGrad},
    {"Compare", kTextureCompare},
    {"Offset", kTextureOffset},
}};
}  // namespace

std::string texture_opcode_name(std::uint16_t flags) {
  std::string s = "Texture";
  for (auto [word, bit] : kWords)
    if (flags & bit) s += word;
  return s;
}

std::optional<std::uint16_t> texture_flags_from_name(std::string_view name) {
  if (!name.starts_with("Texture")) return std::nullopt;
  name.remove_prefix(7);
  std::uint16_t flags = 0;
  for (auto [word, bit] : kWords) {
    if (name.starts_with(word)) {
      flags |= bit;
      name.remove_prefix(word.size());
    }
  }
  if (!name.empty()) return std::nullopt;
  return flags;
}

std::size_t texture_operand_count(std::uint16_t flags) {
  std::size_t n = 2;
  if (flags & kTextureCompare) ++n;
  if (flags & (kTextureLod | kTextureFetch)) ++n;
  if (flags & kTextureBias) ++n;
  if (flags & kTextureGrad) n += 2;
  if (flags & kTextureOffset) ++n;
  if ((flags & kTextureGather) && !(flags & kTextureCompare)) ++n;
  return n;
}

}  // namespace sluice::ir
