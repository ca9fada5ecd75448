// Creation and ordered destruction of per-run Vulkan objects.
#include "exec/resource_arena.h"

#include <cstring>

#include "exec/device_support.h"
#include "exec/vulkan_error.h"

namespace sluice::exec {

ResourceArena::~ResourceArena() {
  if (context_.abandoned()) return;
  for (auto it = destroyers_.rbegin(); it != destroyers_.rend(); ++it) (*it)(context_.device());
}

Result<HostBuffer> ResourceArena::host_buffer(VkDeviceSize size, VkBufferUsageFlags usage) {
  HostBuffer b;
  b.size = size == 0 ? 4 : size;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = b.size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  SLUICE_VK_TRY(vkCreateBuffer(device(), &info, nullptr, &b.buffer));
  destroyers_.push_back([buffer = b.buffer](VkDevice d) { vkDestroyBuffer(d, buffer, nullptr); });

  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device(), b.buffer, &req);
  const int type = context_.find_memory_type(
      req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  if (type < 0) return Error{"no host-visible, host-coherent memory type for a buffer"};
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = static_cast<uint32_t>(type);
  SLUICE_VK_TRY(vkAllocateMemory(device(), &alloc, nullptr, &b.memory));
  destroyers_.push_back([memory = b.memory](VkDevice d) { vkFreeMemory(d, memory, nullptr); });
  SLUICE_VK_TRY(vkBindBufferMemory(device(), b.buffer, b.memory, 0));
  SLUICE_VK_TRY(vkMapMemory(device(), b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));
  std::memset(b.mapped, 0, static_cast<size_t>(b.size));
  return b;
}

Result<DeviceImage> ResourceArena::image(const VkImageCreateInfo& info, VkImageViewType view_type,
                                         VkImageAspectFlags aspect) {
  DeviceImage img;
  img.format = info.format;
  img.extent = info.extent;
  img.layers = info.arrayLayers;
  img.aspect = aspect;
  SLUICE_VK_TRY(vkCreateImage(device(), &info, nullptr, &img.image));
  destroyers_.push_back([image = img.image](VkDevice d) { vkDestroyImage(d, image, nullptr); });

  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(device(), img.image, &req);
  int type = context_.find_memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (type < 0) type = context_.find_memory_type(req.memoryTypeBits, 0);
  if (type < 0) return Error{"no memory type for an image"};
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = static_cast<uint32_t>(type);
  VkDeviceMemory memory = VK_NULL_HANDLE;
  SLUICE_VK_TRY(vkAllocateMemory(device(), &alloc, nullptr, &memory));
  destroyers_.push_back([memory](VkDevice d) { vkFreeMemory(d, memory, nullptr); });
  SLUICE_VK_TRY(vkBindImageMemory(device(), img.image, memory, 0));

  VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view.image = img.image;
  view.viewType = view_type;
  view.format = info.format;
  view.subresourceRange = {aspect, 0, info.mipLevels, 0, info.arrayLayers};
  SLUICE_VK_TRY(vkCreateImageView(device(), &view, nullptr, &img.view));
  destroyers_.push_back([v = img.view](VkDevice d) { vkDestroyImageView(d, v, nullptr); });
  return img;
}

Result<VkBufferView> ResourceArena::buffer_view(VkBuffer buffer, VkFormat format) {
  VkBufferViewCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
  info.buffer = buffer;
  info.format = format;
  info.range = VK_WHOLE_SIZE;
  VkBufferView view = VK_NULL_HANDLE;
  SLUICE_VK_TRY(vkCreateBufferView(device(), &info, nullptr, &view));
  destroyers_.push_back([view](VkDevice d) { vkDestroyBufferView(d, view, nullptr); });
  return view;
}

// The remaining objects share one shape: create, remember how to destroy.
#define SLUICE_ARENA_CREATE(Method, Type, Info, create_call, destroy_fn)  \
  Result<Type> ResourceArena::Method(const Info& info) {                  \
    Type handle = VK_NULL_HANDLE;                                         \
    SLUICE_VK_TRY(create_call);                                           \
    destroyers_.push_back([handle](VkDevice d) { destroy_fn(d, handle, nullptr); }); \
    return handle;                                                        \
  }

SLUICE_ARENA_CREATE(sampler, VkSampler, VkSamplerCreateInfo, vkCreateSampler(device(), &info, nullptr, &handle),
                    vkDestroySampler)
SLUICE_ARENA_CREATE(descriptor_set_layout, VkDescriptorSetLayout, VkDescriptorSetLayoutCreateInfo,
                    vkCreateDescriptorSetLayout(device(), &info, nullptr, &handle), vkDestroyDescriptorSetLayout)
SLUICE_ARENA_CREATE(pipeline_layout, VkPipelineLayout, VkPipelineLayoutCreateInfo,
                    vkCreatePipelineLayout(device(), &info, nullptr, &handle), vkDestroyPipelineLayout)
SLUICE_ARENA_CREATE(descriptor_pool, VkDescriptorPool, VkDescriptorPoolCreateInfo,
                    vkCreateDescriptorPool(device(), &info, nullptr, &handle), vkDestroyDescriptorPool)
SLUICE_ARENA_CREATE(render_pass, VkRenderPass, VkRenderPassCreateInfo,
                    vkCreateRenderPass(device(), &info, nullptr, &handle), vkDestroyRenderPass)
SLUICE_ARENA_CREATE(framebuffer, VkFramebuffer, VkFramebufferCreateInfo,
                    vkCreateFramebuffer(device(), &info, nullptr, &handle), vkDestroyFramebuffer)
SLUICE_ARENA_CREATE(graphics_pipeline, VkPipeline, VkGraphicsPipelineCreateInfo,
                    vkCreateGraphicsPipelines(device(), VK_NULL_HANDLE, 1, &info, nullptr, &handle), vkDestroyPipeline)
SLUICE_ARENA_CREATE(compute_pipeline, VkPipeline, VkComputePipelineCreateInfo,
                    vkCreateComputePipelines(device(), VK_NULL_HANDLE, 1, &info, nullptr, &handle), vkDestroyPipeline)
#undef SLUICE_ARENA_CREATE

Result<VkShaderModule> ResourceArena::shader_module(std::span<const uint32_t> words) {
  if (auto why = unsupported_capability(words, context_)) return Error{"the device cannot run this module: " + *why};
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = words.size() * sizeof(uint32_t);
  info.pCode = words.data();
  VkShaderModule handle = VK_NULL_HANDLE;
  SLUICE_VK_TRY(vkCreateShaderModule(device(), &info, nullptr, &handle));
  destroyers_.push_back([handle](VkDevice d) { vkDestroyShaderModule(d, handle, nullptr); });
  return handle;
}

Result<VkCommandBuffer> ResourceArena::command_buffer() {
  auto cmd = context_.allocate_command_buffer();
  if (!cmd) return cmd.failure();
  VulkanContext* context = &context_;
  destroyers_.push_back([context, c = *cmd](VkDevice) { context->free_command_buffer(c); });
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  SLUICE_VK_TRY(vkBeginCommandBuffer(*cmd, &begin));
  return *cmd;
}

}  // namespace sluice::exec
