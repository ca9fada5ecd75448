// Owns the Vulkan objects of one run (buffers, images, pipelines, ...) and
// destroys them, newest first, when the run ends. After a timeout the objects
// may still be in use by the device, so they are leaked instead.
#pragma once

#include <functional>
#include <span>
#include <vector>

#include <vulkan/vulkan.h>

#include "exec/vulkan_context.h"

namespace sluice::exec {

// A buffer in host-visible, host-coherent memory, mapped for its lifetime.
struct HostBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;
  VkDeviceSize size = 0;
};

struct DeviceImage {
  VkImage image = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent3D extent{1, 1, 1};
  uint32_t layers = 1;
  VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT;
};

class ResourceArena {
 public:
  explicit ResourceArena(VulkanContext& context) : context_(context) {}
  ~ResourceArena();
  ResourceArena(const ResourceArena&) = delete;
  ResourceArena& operator=(const ResourceArena&) = delete;

  VulkanContext& context() { return context_; }
  VkDevice device() const { return context_.device(); }

  // A zero-filled host-visible buffer of at least `size` bytes.
  Result<HostBuffer> host_buffer(VkDeviceSize size, VkBufferUsageFlags usage);
  // An image in device memory (host-visible memory when nothing else fits)
  // and a view of all its layers.
  Result<DeviceImage> image(const VkImageCreateInfo& info, VkImageViewType view_type, VkImageAspectFlags aspect);
  Result<VkBufferView> buffer_view(VkBuffer buffer, VkFormat format);
  Result<VkSampler> sampler(const VkSamplerCreateInfo& info);
  Result<VkShaderModule> shader_module(std::span<const uint32_t> words);
  Result<VkDescriptorSetLayout> descriptor_set_layout(const VkDescriptorSetLayoutCreateInfo& info);
  Result<VkPipelineLayout> pipeline_layout(const VkPipelineLayoutCreateInfo& info);
  Result<VkDescriptorPool> descriptor_pool(const VkDescriptorPoolCreateInfo& info);
  Result<VkRenderPass> render_pass(const VkRenderPassCreateInfo& info);
  Result<VkFramebuffer> framebuffer(const VkFramebufferCreateInfo& info);
  Result<VkPipeline> graphics_pipeline(const VkGraphicsPipelineCreateInfo& info);
  Result<VkPipeline> compute_pipeline(const VkComputePipelineCreateInfo& info);
  // A primary command buffer, recording for one submission (ONE_TIME_SUBMIT).
  Result<VkCommandBuffer> command_buffer();

 private:
  VulkanContext& context_;
  std::vector<std::function<void(VkDevice)>> destroyers_;
};

}  // namespace sluice::exec
