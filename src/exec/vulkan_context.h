// One Vulkan instance, physical device, logical device and queue, created
// without any window system. Everything the runner does goes through a
// VulkanContext; it is not copyable and lives behind a unique_ptr so that its
// address stays fixed while resources refer to it.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "ir/result.h"

namespace sluice::exec {

// Which physical device to use. Cpu picks the first device whose type is
// VK_PHYSICAL_DEVICE_TYPE_CPU (lavapipe); Gpu the first discrete GPU, else the
// first integrated or virtual one; Index the device at that position in the
// loader's enumeration order.
struct DeviceChoice {
  enum Kind { Cpu, Gpu, Index } kind = Cpu;
  uint32_t index = 0;
};

// Parses "cpu", "gpu" or a decimal index, as given to `--device`.
Result<DeviceChoice> parse_device_choice(const std::string& text);

struct ContextOptions {
  DeviceChoice device;
  // Every fence wait gives up after this long and reports a timeout. Zero
  // picks the default: 10 s on a GPU, 120 s on the CPU device, because
  // lavapipe compiles the pipeline with LLVM inside the first submission
  // and the largest corpus shaders take over a minute to compile on a busy
  // two-core machine.
  std::chrono::milliseconds timeout{0};
  // Device extensions to enable beyond the runner's own list (they must be
  // available).
  std::vector<std::string> extra_device_extensions;
};

class VulkanContext {
 public:
  static Result<std::unique_ptr<VulkanContext>> create(const ContextOptions& options);
  ~VulkanContext();
  VulkanContext(const VulkanContext&) = delete;
  VulkanContext& operator=(const VulkanContext&) = delete;

  VkDevice device() const { return device_; }
  VkPhysicalDevice physical_device() const { return physical_; }
  VkQueue queue() const { return queue_; }
  uint32_t queue_family() const { return queue_family_; }
  const VkPhysicalDeviceProperties& properties() const { return properties_; }
  const VkPhysicalDeviceFeatures& features() const { return features_; }
  // VK_EXT_transform_feedback's features, when the extension is enabled.
  bool transform_feedback() const { return transform_feedback_; }
  bool geometry_streams() const { return geometry_streams_; }
  // transformFeedbackStreamsLinesTriangles: several streams with line or
  // triangle output (points only otherwise).
  bool streams_lines_triangles() const { return streams_lines_triangles_; }
  // "llvmpipe (LLVM 15.0.6, 256 bits), cpu, Mesa 22.3.6 (LLVM 15.0.6), Vulkan 1.3.230"
  const std::string& description() const { return description_; }
  std::chrono::milliseconds timeout() const { return timeout_; }

  // True when the device offers the extension (whether or not it is enabled).
  bool has_device_extension(const std::string& name) const;
  // True when the extension was enabled at device creation.
  bool enabled_device_extension(const std::string& name) const;

  // A memory type index with all of `required` flags among `type_bits`, or -1.
  int find_memory_type(uint32_t type_bits, VkMemoryPropertyFlags required) const;

  // Allocates a primary command buffer from the context's pool.
  Result<VkCommandBuffer> allocate_command_buffer();
  void free_command_buffer(VkCommandBuffer cmd);
  // Submits one command buffer and waits for it with the context's timeout.
  // A timeout or device loss marks the context unusable: later submissions
  // fail at once, and destruction skips the waits that could hang.
  Result<bool> submit_and_wait(VkCommandBuffer cmd);
  // Non-empty once a submission has timed out or the device was lost.
  const std::string& unusable_reason() const { return unusable_reason_; }
  // True after a submission timed out: work may still be running, so objects
  // it may use must be leaked rather than destroyed.
  bool timed_out() const { return timed_out_; }
  // True after a timeout or a lost device: nothing more is submitted,
  // waited for or destroyed (every such call may block in the driver).
  bool abandoned() const { return !unusable_reason_.empty(); }

 private:
  VulkanContext() = default;
  Result<bool> create_instance();
  Result<bool> select_physical_device(const DeviceChoice& choice);
  Result<bool> create_device(const std::vector<std::string>& extra_extensions);

  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;
  uint32_t instance_api_version_ = VK_API_VERSION_1_0;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceFeatures features_{};
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  std::vector<std::string> available_extensions_;
  std::vector<std::string> enabled_extensions_;
  std::string description_;
  std::chrono::milliseconds timeout_{10000};
  std::string unusable_reason_;
  bool timed_out_ = false;
  bool transform_feedback_ = false;
  bool geometry_streams_ = false;
  bool streams_lines_triangles_ = false;
};

}  // namespace sluice::exec
