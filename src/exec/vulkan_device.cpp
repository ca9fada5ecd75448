// Logical device creation, command submission with timeouts and teardown for
// VulkanContext. The device enables every feature the physical device offers
// (robustBufferAccess included, so out-of-bounds accesses in fuzzed shaders
// read zero instead of garbage) and a short list of extensions that the
// corpus's SPIR-V can need.
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "exec/vulkan_context.h"
#include "exec/vulkan_error.h"

namespace sluice::exec {
namespace {

// Enabled whenever the device offers them; on Vulkan 1.3 they are core.
const char* const kWantedExtensions[] = {
    "VK_KHR_shader_terminate_invocation",
    "VK_EXT_shader_demote_to_helper_invocation",
    "VK_KHR_shader_non_semantic_info",
    // Geometry shaders that emit to several vertex streams (EmitStreamVertex)
    // declare GeometryStreams, which only this extension's geometryStreams
    // feature allows (device_support.h).
    "VK_EXT_transform_feedback",
    // NVIDIA's stage extensions, which glslang's tests use (device_support.h
    // skips a module that needs one the device lacks).
    "VK_NV_geometry_shader_passthrough",
    "VK_NV_viewport_array2",
    "VK_NV_stereo_view_rendering",
    "VK_NVX_multiview_per_view_attributes",
};

}  // namespace

Result<std::unique_ptr<VulkanContext>> VulkanContext::create(const ContextOptions& options) {
  std::unique_ptr<VulkanContext> context(new VulkanContext());
  SLUICE_TRY(context->create_instance());
  SLUICE_TRY(context->select_physical_device(options.device));
  context->timeout_ = options.timeout.count() > 0 ? options.timeout
                      : context->properties_.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU
                          ? std::chrono::milliseconds(120000)
                          : std::chrono::milliseconds(10000);
  SLUICE_TRY(context->create_device(options.extra_device_extensions));
  return context;
}

Result<bool> VulkanContext::create_device(const std::vector<std::string>& extra_extensions) {
  uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &family_count, families.data());
  bool found = false;
  for (uint32_t i = 0; i < family_count && !found; ++i) {
    if ((families[i].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) ==
        (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) {
      queue_family_ = i;
      found = true;
    }
  }
  if (!found) return Error{fmt::format("device {} has no queue family with graphics and compute", description_)};

  uint32_t ext_count = 0;
  SLUICE_VK_TRY(vkEnumerateDeviceExtensionProperties(physical_, nullptr, &ext_count, nullptr));
  std::vector<VkExtensionProperties> exts(ext_count);
  SLUICE_VK_TRY(vkEnumerateDeviceExtensionProperties(physical_, nullptr, &ext_count, exts.data()));
  for (const auto& e : exts) available_extensions_.emplace_back(e.extensionName);
  for (const char* name : kWantedExtensions)
    if (has_device_extension(name)) enabled_extensions_.emplace_back(name);
  for (const auto& name : extra_extensions) {
    if (!has_device_extension(name))
      return Error{fmt::format("device extension {} is not supported by {}", name, description_)};
    if (!enabled_device_extension(name)) enabled_extensions_.push_back(name);
  }

  // Query every feature structure the device and instance both understand,
  // then enable exactly what was reported.
  const uint32_t api = std::min(properties_.apiVersion, instance_api_version_);
  VkPhysicalDeviceFeatures2 features2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceShaderTerminateInvocationFeaturesKHR terminate{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_TERMINATE_INVOCATION_FEATURES_KHR};
  VkPhysicalDeviceShaderDemoteToHelperInvocationFeaturesEXT demote{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES_EXT};
  VkPhysicalDeviceTransformFeedbackFeaturesEXT feedback{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT};
  void** next = &features2.pNext;
  auto chain = [&next](auto* s) {
    *next = s;
    next = &s->pNext;
  };
  if (api >= VK_API_VERSION_1_2) {
    chain(&v11);
    chain(&v12);
  }
  if (api >= VK_API_VERSION_1_3) {
    chain(&v13);
  } else {
    if (enabled_device_extension("VK_KHR_shader_terminate_invocation")) chain(&terminate);
    if (enabled_device_extension("VK_EXT_shader_demote_to_helper_invocation")) chain(&demote);
  }
  const bool use_features2 = api >= VK_API_VERSION_1_1;
  // Its features are only reachable through VkPhysicalDeviceFeatures2.
  if (!use_features2) std::erase(enabled_extensions_, std::string("VK_EXT_transform_feedback"));
  if (use_features2 && enabled_device_extension("VK_EXT_transform_feedback")) chain(&feedback);
  if (use_features2) {
    vkGetPhysicalDeviceFeatures2(physical_, &features2);
    features_ = features2.features;
    transform_feedback_ = feedback.transformFeedback == VK_TRUE;
    geometry_streams_ = feedback.geometryStreams == VK_TRUE;
  }
  if (use_features2 && enabled_device_extension("VK_EXT_transform_feedback")) {
    VkPhysicalDeviceTransformFeedbackPropertiesEXT limits{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    properties2.pNext = &limits;
    vkGetPhysicalDeviceProperties2(physical_, &properties2);
    streams_lines_triangles_ = limits.transformFeedbackStreamsLinesTriangles == VK_TRUE;
  }
  // Sparse residency needs sparse queues and memory the runner never uses.
  features_.sparseBinding = VK_FALSE;
  features_.sparseResidencyBuffer = VK_FALSE;
  features_.sparseResidencyImage2D = VK_FALSE;
  features_.sparseResidencyImage3D = VK_FALSE;
  features_.sparseResidency2Samples = features_.sparseResidency4Samples = VK_FALSE;
  features_.sparseResidency8Samples = features_.sparseResidency16Samples = VK_FALSE;
  features_.sparseResidencyAliased = VK_FALSE;
  features2.features = features_;

  std::vector<const char*> ext_names;
  for (const auto& e : enabled_extensions_) ext_names.push_back(e.c_str());
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue_info;
  info.enabledExtensionCount = static_cast<uint32_t>(ext_names.size());
  info.ppEnabledExtensionNames = ext_names.data();
  if (use_features2)
    info.pNext = &features2;
  else
    info.pEnabledFeatures = &features_;
  SLUICE_VK_TRY(vkCreateDevice(physical_, &info, nullptr, &device_));
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);

  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = queue_family_;
  SLUICE_VK_TRY(vkCreateCommandPool(device_, &pool_info, nullptr, &command_pool_));
  return true;
}

VulkanContext::~VulkanContext() {
  // After a timeout the device may still be executing, and after a loss the
  // driver may block in any call; destroying objects (or waiting for the
  // device) could crash or hang, so they are left to the process exit.
  if (abandoned()) return;
  if (device_) {
    vkDeviceWaitIdle(device_);
    if (command_pool_) vkDestroyCommandPool(device_, command_pool_, nullptr);
    vkDestroyDevice(device_, nullptr);
  }
  if (instance_) vkDestroyInstance(instance_, nullptr);
}

bool VulkanContext::has_device_extension(const std::string& name) const {
  return std::find(available_extensions_.begin(), available_extensions_.end(), name) != available_extensions_.end();
}

bool VulkanContext::enabled_device_extension(const std::string& name) const {
  return std::find(enabled_extensions_.begin(), enabled_extensions_.end(), name) != enabled_extensions_.end();
}

int VulkanContext::find_memory_type(uint32_t type_bits, VkMemoryPropertyFlags required) const {
  for (uint32_t i = 0; i < memory_properties_.memoryTypeCount; ++i)
    if ((type_bits & (1u << i)) && (memory_properties_.memoryTypes[i].propertyFlags & required) == required)
      return static_cast<int>(i);
  return -1;
}

Result<VkCommandBuffer> VulkanContext::allocate_command_buffer() {
  if (!unusable_reason_.empty()) return Error{unusable_reason_};
  VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  info.commandPool = command_pool_;
  info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  info.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  SLUICE_VK_TRY(vkAllocateCommandBuffers(device_, &info, &cmd));
  return cmd;
}

void VulkanContext::free_command_buffer(VkCommandBuffer cmd) {
  if (unusable_reason_.empty() && cmd) vkFreeCommandBuffers(device_, command_pool_, 1, &cmd);
}

Result<bool> VulkanContext::submit_and_wait(VkCommandBuffer cmd) {
  if (!unusable_reason_.empty()) return Error{unusable_reason_};
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence = VK_NULL_HANDLE;
  SLUICE_VK_TRY(vkCreateFence(device_, &fence_info, nullptr, &fence));
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  VkResult r = vkQueueSubmit(queue_, 1, &submit, fence);
  if (r == VK_SUCCESS) {
    const uint64_t ns = static_cast<uint64_t>(timeout_.count()) * 1000000ull;
    r = vkWaitForFences(device_, 1, &fence, VK_TRUE, ns);
  }
  if (r == VK_TIMEOUT) {
    timed_out_ = true;
    unusable_reason_ = fmt::format(
        "the device timed out: a submission did not finish within {} ms (the shader may loop forever); "
        "the runner cannot be used further",
        timeout_.count());
    return Error{unusable_reason_};
  }
  vkDestroyFence(device_, fence, nullptr);
  if (r == VK_ERROR_DEVICE_LOST) {
    unusable_reason_ = vk_error("vkQueueSubmit/vkWaitForFences", r).message;
    return Error{unusable_reason_};
  }
  if (r != VK_SUCCESS) return vk_error("vkQueueSubmit/vkWaitForFences", r);
  return true;
}

}  // namespace sluice::exec
