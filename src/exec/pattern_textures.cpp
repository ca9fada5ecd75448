// Creation and upload of pattern-filled images and texel buffers.
#include "exec/pattern_textures.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "exec/data_pattern.h"
#include "exec/vulkan_error.h"

namespace sluice::exec {
namespace {

// SPIR-V ImageFormat operands the runner can create storage images for.
Result<TexelFormat> storage_format(uint32_t spirv_format, ScalarKind sampled) {
  using T = TexelFormat;
  switch (spirv_format) {
    case 0:  // Unknown: the widest format of the sampled type
      if (sampled == ScalarKind::Int) return T{VK_FORMAT_R32G32B32A32_SINT, 4, T::I32, 16};
      if (sampled == ScalarKind::Uint) return T{VK_FORMAT_R32G32B32A32_UINT, 4, T::U32, 16};
      return T{VK_FORMAT_R32G32B32A32_SFLOAT, 4, T::F32, 16};
    case 1: return T{VK_FORMAT_R32G32B32A32_SFLOAT, 4, T::F32, 16};
    case 3: return T{VK_FORMAT_R32_SFLOAT, 1, T::F32, 4};
    case 4: return T{VK_FORMAT_R8G8B8A8_UNORM, 4, T::Unorm8, 4};
    case 5: return T{VK_FORMAT_R8G8B8A8_SNORM, 4, T::Snorm8, 4};
    case 6: return T{VK_FORMAT_R32G32_SFLOAT, 2, T::F32, 8};
    case 21: return T{VK_FORMAT_R32G32B32A32_SINT, 4, T::I32, 16};
    case 24: return T{VK_FORMAT_R32_SINT, 1, T::I32, 4};
    case 25: return T{VK_FORMAT_R32G32_SINT, 2, T::I32, 8};
    case 30: return T{VK_FORMAT_R32G32B32A32_UINT, 4, T::U32, 16};
    case 33: return T{VK_FORMAT_R32_UINT, 1, T::U32, 4};
    case 35: return T{VK_FORMAT_R32G32_UINT, 2, T::U32, 8};
    default:
      return Error{fmt::format("storage image format {} (SPIR-V ImageFormat) is not supported by the runner",
                               spirv_format)};
  }
}

}  // namespace

Result<TexelFormat> texel_format_for(const ImageShape& shape, bool storage) {
  using T = TexelFormat;
  if (storage) return storage_format(shape.format, shape.sampled_kind);
  if (shape.depth) return T{VK_FORMAT_D32_SFLOAT, 1, T::D32, 4};
  if (shape.sampled_kind == ScalarKind::Int) return T{VK_FORMAT_R32G32B32A32_SINT, 4, T::I32, 16};
  if (shape.sampled_kind == ScalarKind::Uint) return T{VK_FORMAT_R32G32B32A32_UINT, 4, T::U32, 16};
  if (shape.dim == spv::Buffer) return T{VK_FORMAT_R32G32B32A32_SFLOAT, 4, T::F32, 16};
  return T{VK_FORMAT_R8G8B8A8_UNORM, 4, T::Unorm8, 4};
}

void encode_texel(const TexelFormat& format, const std::array<double, 4>& value, uint8_t* dst) {
  for (uint32_t c = 0; c < format.components; ++c) {
    const double v = value[c];
    switch (format.encoding) {
      case TexelFormat::F32:
      case TexelFormat::D32: {
        const float f = static_cast<float>(v);
        std::memcpy(dst + 4 * c, &f, 4);
        break;
      }
      case TexelFormat::Unorm8: dst[c] = static_cast<uint8_t>(std::lround(std::clamp(v, 0.0, 1.0) * 255.0)); break;
      case TexelFormat::Snorm8:
        dst[c] = static_cast<uint8_t>(static_cast<int8_t>(std::lround(std::clamp(v, -1.0, 1.0) * 127.0)));
        break;
      case TexelFormat::I32: {
        const int32_t i = static_cast<int32_t>(v);
        std::memcpy(dst + 4 * c, &i, 4);
        break;
      }
      case TexelFormat::U32: {
        const uint32_t u = static_cast<uint32_t>(v);
        std::memcpy(dst + 4 * c, &u, 4);
        break;
      }
    }
  }
}

Result<DeviceImage> create_pattern_image(ResourceArena& arena, VkCommandBuffer cmd, const ImageShape& shape,
                                         bool storage, uint32_t size, VkPipelineStageFlags consumer_stages) {
  if (shape.multisampled) return Error{"multisampled images are not supported by the runner"};
  auto format = texel_format_for(shape, storage);
  if (!format) return format.failure();
  const TexelFormat tf = *format;

  VkFormatProperties props;
  vkGetPhysicalDeviceFormatProperties(arena.context().physical_device(), tf.format, &props);
  const VkFormatFeatureFlags needed =
      storage ? VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT : VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
  if ((props.optimalTilingFeatures & needed) != needed)
    return Error{fmt::format("the device cannot use format {} as a {} image", static_cast<int>(tf.format),
                             storage ? "storage" : "sampled")};

  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.format = tf.format;
  info.mipLevels = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
               (storage ? VK_IMAGE_USAGE_STORAGE_BIT : VK_IMAGE_USAGE_SAMPLED_BIT);
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  info.arrayLayers = 1;
  VkImageViewType view_type = VK_IMAGE_VIEW_TYPE_2D;
  switch (shape.dim) {
    case spv::Dim1D:
      info.imageType = VK_IMAGE_TYPE_1D;
      info.extent = {size, 1, 1};
      view_type = shape.arrayed ? VK_IMAGE_VIEW_TYPE_1D_ARRAY : VK_IMAGE_VIEW_TYPE_1D;
      info.arrayLayers = shape.arrayed ? 4 : 1;
      break;
    case spv::Dim2D:
      info.imageType = VK_IMAGE_TYPE_2D;
      info.extent = {size, size, 1};
      view_type = shape.arrayed ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
      info.arrayLayers = shape.arrayed ? 4 : 1;
      break;
    case spv::Dim3D:
      info.imageType = VK_IMAGE_TYPE_3D;
      info.extent = {size, size, size};
      view_type = VK_IMAGE_VIEW_TYPE_3D;
      break;
    case spv::Cube:
      info.imageType = VK_IMAGE_TYPE_2D;
      info.extent = {size, size, 1};
      info.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
      view_type = shape.arrayed ? VK_IMAGE_VIEW_TYPE_CUBE_ARRAY : VK_IMAGE_VIEW_TYPE_CUBE;
      info.arrayLayers = shape.arrayed ? 12 : 6;
      break;
    default:
      return Error{fmt::format("image dimensionality {} (SPIR-V Dim) is not supported by the runner", shape.dim)};
  }
  const VkImageAspectFlags aspect = tf.encoding == TexelFormat::D32 ? VK_IMAGE_ASPECT_DEPTH_BIT
                                                                    : VK_IMAGE_ASPECT_COLOR_BIT;
  auto image = arena.image(info, view_type, aspect);
  if (!image) return image;

  // Texel data, layer after layer (depth slice after slice for 3D).
  const uint32_t w = info.extent.width, h = info.extent.height;
  const uint32_t d = info.imageType == VK_IMAGE_TYPE_3D ? info.extent.depth : info.arrayLayers;
  const bool integer = tf.encoding == TexelFormat::I32 || tf.encoding == TexelFormat::U32;
  auto staging = arena.host_buffer(static_cast<VkDeviceSize>(w) * h * d * tf.bytes_per_texel,
                                   VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  if (!staging) return staging.failure();
  auto* bytes = static_cast<uint8_t*>(staging->mapped);
  for (uint32_t z = 0; z < d; ++z)
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x) {
        const std::array<double, 4> value = tf.encoding == TexelFormat::D32
                                                ? std::array<double, 4>{depth_texel_pattern(x, y, w, h), 0, 0, 0}
                                                : texel_pattern(x, y, z, w, h, d, integer);
        encode_texel(tf, value, bytes + ((static_cast<size_t>(z) * h + y) * w + x) * tf.bytes_per_texel);
      }

  const VkImageLayout final_layout = storage ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image->image;
  barrier.subresourceRange = {aspect, 0, 1, 0, info.arrayLayers};
  barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &barrier);
  VkBufferImageCopy region{};
  region.imageSubresource = {aspect, 0, 0, info.arrayLayers};
  region.imageExtent = info.extent;
  vkCmdCopyBufferToImage(cmd, staging->buffer, image->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  barrier.newLayout = final_layout;
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | (storage ? VK_ACCESS_SHADER_WRITE_BIT : 0);
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, consumer_stages, 0, 0, nullptr, 0, nullptr, 1, &barrier);
  return image;
}

Result<VkBufferView> create_pattern_texel_buffer(ResourceArena& arena, const ImageShape& shape, bool storage,
                                                 uint32_t size) {
  auto format = texel_format_for(shape, storage);
  if (!format) return format.failure();
  const TexelFormat tf = *format;
  VkFormatProperties props;
  vkGetPhysicalDeviceFormatProperties(arena.context().physical_device(), tf.format, &props);
  const VkFormatFeatureFlags needed =
      storage ? VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT : VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT;
  if ((props.bufferFeatures & needed) != needed)
    return Error{fmt::format("the device cannot use format {} for a texel buffer", static_cast<int>(tf.format))};
  const uint32_t n = size * size;
  auto buffer = arena.host_buffer(static_cast<VkDeviceSize>(n) * tf.bytes_per_texel,
                                  storage ? VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT
                                          : VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
  if (!buffer) return buffer.failure();
  const bool integer = tf.encoding == TexelFormat::I32 || tf.encoding == TexelFormat::U32;
  for (uint32_t x = 0; x < n; ++x)
    encode_texel(tf, texel_pattern(x, 0, 0, n, 1, 1, integer),
                 static_cast<uint8_t*>(buffer->mapped) + static_cast<size_t>(x) * tf.bytes_per_texel);
  return arena.buffer_view(buffer->buffer, tf.format);
}

}  // namespace sluice::exec
