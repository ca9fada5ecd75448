// Names and hints for Vulkan result codes.
#include "exec/vulkan_error.h"

#include <fmt/format.h>

namespace sluice::exec {

std::string vk_result_name(VkResult result) {
  switch (result) {
#define SLUICE_VK_NAME(x) \
  case x:                 \
    return #x;
    SLUICE_VK_NAME(VK_SUCCESS)
    SLUICE_VK_NAME(VK_NOT_READY)
    SLUICE_VK_NAME(VK_TIMEOUT)
    SLUICE_VK_NAME(VK_EVENT_SET)
    SLUICE_VK_NAME(VK_EVENT_RESET)
    SLUICE_VK_NAME(VK_INCOMPLETE)
    SLUICE_VK_NAME(VK_ERROR_OUT_OF_HOST_MEMORY)
    SLUICE_VK_NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    SLUICE_VK_NAME(VK_ERROR_INITIALIZATION_FAILED)
    SLUICE_VK_NAME(VK_ERROR_DEVICE_LOST)
    SLUICE_VK_NAME(VK_ERROR_MEMORY_MAP_FAILED)
    SLUICE_VK_NAME(VK_ERROR_LAYER_NOT_PRESENT)
    SLUICE_VK_NAME(VK_ERROR_EXTENSION_NOT_PRESENT)
    SLUICE_VK_NAME(VK_ERROR_FEATURE_NOT_PRESENT)
    SLUICE_VK_NAME(VK_ERROR_INCOMPATIBLE_DRIVER)
    SLUICE_VK_NAME(VK_ERROR_TOO_MANY_OBJECTS)
    SLUICE_VK_NAME(VK_ERROR_FORMAT_NOT_SUPPORTED)
    SLUICE_VK_NAME(VK_ERROR_FRAGMENTED_POOL)
    SLUICE_VK_NAME(VK_ERROR_UNKNOWN)
    SLUICE_VK_NAME(VK_ERROR_OUT_OF_POOL_MEMORY)
    SLUICE_VK_NAME(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    SLUICE_VK_NAME(VK_ERROR_FRAGMENTATION)
    SLUICE_VK_NAME(VK_ERROR_INVALID_SHADER_NV)
#undef SLUICE_VK_NAME
    default:
      return fmt::format("VkResult({})", static_cast<int>(result));
  }
}

Error vk_error(std::string_view call, VkResult result) {
  std::string hint;
  switch (result) {
    case VK_ERROR_INCOMPATIBLE_DRIVER:
      hint = " (no usable Vulkan driver: install mesa-vulkan-drivers for the CPU device)";
      break;
    case VK_ERROR_DEVICE_LOST:
      hint = " (the device was lost, e.g. a shader faulted or ran too long; the runner cannot be used further)";
      break;
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_OUT_OF_HOST_MEMORY:
      hint = " (out of memory)";
      break;
    default:
      break;
  }
  // Keep only the function name of the call expression for readability.
  std::string_view name = call.substr(0, call.find('('));
  return Error{fmt::format("{} failed: {}{}", name, vk_result_name(result), hint), ErrorCode::Environment};
}

}  // namespace sluice::exec
