// Textures, storage images and texel buffers for a shader's image bindings,
// created in a format that fits the SPIR-V image type and filled with the
// texel pattern of data_pattern.h.
#pragma once

#include <array>
#include <cstdint>

#include <vulkan/vulkan.h>

#include "exec/resource_arena.h"
#include "exec/shader_interface.h"

namespace sluice::exec {

struct TexelFormat {
  VkFormat format = VK_FORMAT_UNDEFINED;
  uint32_t components = 4;
  enum Encoding { F32, Unorm8, Snorm8, I32, U32, D32 } encoding = F32;
  uint32_t bytes_per_texel = 16;
};

// The format for a sampled image / combined sampler / uniform texel buffer
// (storage == false) or a storage image / storage texel buffer.
Result<TexelFormat> texel_format_for(const ImageShape& shape, bool storage);

// Writes one texel in the format's encoding.
void encode_texel(const TexelFormat& format, const std::array<double, 4>& value, uint8_t* dst);

// Creates the image, records its upload into `cmd`, and leaves it in
// SHADER_READ_ONLY_OPTIMAL (sampled) or GENERAL (storage) layout for
// `consumer_stages`.
Result<DeviceImage> create_pattern_image(ResourceArena& arena, VkCommandBuffer cmd, const ImageShape& shape,
                                         bool storage, uint32_t size, VkPipelineStageFlags consumer_stages);

// A texel buffer of size*size texels holding the 1D texel pattern.
Result<VkBufferView> create_pattern_texel_buffer(ResourceArena& arena, const ImageShape& shape, bool storage,
                                                 uint32_t size);

}  // namespace sluice::exec
