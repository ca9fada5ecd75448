// Turns VkResult codes into Sluice error values with readable names, so that
// every failing Vulkan call reports which call failed and why.
#pragma once

#include <string>
#include <string_view>

#include <vulkan/vulkan.h>

#include "ir/result.h"

namespace sluice::exec {

// "VK_ERROR_DEVICE_LOST" and friends; unknown codes print as numbers.
std::string vk_result_name(VkResult result);

// An Error naming the call and the result, with a hint for the results a user
// can act on (no driver, device lost, out of memory).
Error vk_error(std::string_view call, VkResult result);

}  // namespace sluice::exec

// Evaluates a Vulkan call and returns its error from the enclosing function
// (whose return type is a Result) when it fails.
#define SLUICE_VK_TRY(call)                                   \
  do {                                                        \
    VkResult sluice_vk_result_ = (call);                      \
    if (sluice_vk_result_ != VK_SUCCESS)                      \
      return ::sluice::exec::vk_error(#call, sluice_vk_result_); \
  } while (0)

// Returns the error of a failed Result from the enclosing function.
#define SLUICE_TRY(expr)                                 \
  do {                                                   \
    auto&& sluice_try_result_ = (expr);                  \
    if (!sluice_try_result_.ok())                        \
      return sluice_try_result_.failure();           \
  } while (0)
