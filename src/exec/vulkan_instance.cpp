// Instance creation and physical-device selection for VulkanContext.
//
// Mesa's VK_LAYER_MESA_device_select implicit layer makes vkCreateInstance
// fail with "Found no drivers" on headless machines (no DRM render node, no
// X/Wayland), and its choice depends on MESA_VK_DEVICE_SELECT and friends.
// Device selection must not depend on the user's environment, so before the
// first vkCreateInstance the runner sets NODEVICE_SELECT=1 (the layer's own
// disable switch) and VK_LOADER_LAYERS_DISABLE=*device_select* (loader >=
// 1.3.234), each only when the variable is not set already. If instance
// creation still finds no driver and neither VK_DRIVER_FILES nor
// VK_ICD_FILENAMES is set, it points both at Mesa's lavapipe ICD JSON and
// tries once more. These are the only process-environment changes.
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "exec/vulkan_context.h"
#include "exec/vulkan_error.h"

namespace sluice::exec {
namespace {

const char* device_type_name(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete gpu";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated gpu";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual gpu";
    default: return "other";
  }
}

std::string version_text(uint32_t v) {
  return fmt::format("{}.{}.{}", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v));
}

// Mesa installs lavapipe's ICD manifest as lvp_icd.<arch>.json.
std::string find_lavapipe_icd() {
  for (const char* dir : {"/usr/share/vulkan/icd.d", "/usr/local/share/vulkan/icd.d", "/etc/vulkan/icd.d"}) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("lvp_icd", 0) == 0 && entry.path().extension() == ".json") return entry.path().string();
    }
  }
  return {};
}

}  // namespace

Result<DeviceChoice> parse_device_choice(const std::string& text) {
  if (text == "cpu") return DeviceChoice{DeviceChoice::Cpu, 0};
  if (text == "gpu") return DeviceChoice{DeviceChoice::Gpu, 0};
  if (!text.empty() && text.size() < 6 && text.find_first_not_of("0123456789") == std::string::npos)
    return DeviceChoice{DeviceChoice::Index, static_cast<uint32_t>(std::stoul(text))};
  return Error{fmt::format("unknown device '{}': expected cpu, gpu or a device index", text)};
}

Result<bool> VulkanContext::create_instance() {
  setenv("NODEVICE_SELECT", "1", 0);
  setenv("VK_LOADER_LAYERS_DISABLE", "*device_select*", 0);

  uint32_t loader_version = VK_API_VERSION_1_0;
  auto enumerate_version = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
      vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkEnumerateInstanceVersion"));
  if (enumerate_version) enumerate_version(&loader_version);
  instance_api_version_ = loader_version >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : loader_version;

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "sluice";
  app.pEngineName = "sluice-exec";
  app.apiVersion = instance_api_version_;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;

  VkResult r = vkCreateInstance(&info, nullptr, &instance_);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER && !std::getenv("VK_DRIVER_FILES") && !std::getenv("VK_ICD_FILENAMES")) {
    const std::string icd = find_lavapipe_icd();
    if (!icd.empty()) {
      setenv("VK_DRIVER_FILES", icd.c_str(), 0);
      setenv("VK_ICD_FILENAMES", icd.c_str(), 0);
      r = vkCreateInstance(&info, nullptr, &instance_);
    }
  }
  if (r != VK_SUCCESS) {
    instance_ = VK_NULL_HANDLE;
    Error e = vk_error("vkCreateInstance", r);
    for (const char* var : {"VK_DRIVER_FILES", "VK_ICD_FILENAMES"})
      if (const char* value = std::getenv(var)) e.message += fmt::format("; {} is set to '{}'", var, value);
    return e;
  }
  return true;
}

Result<bool> VulkanContext::select_physical_device(const DeviceChoice& choice) {
  uint32_t count = 0;
  SLUICE_VK_TRY(vkEnumeratePhysicalDevices(instance_, &count, nullptr));
  std::vector<VkPhysicalDevice> devices(count);
  SLUICE_VK_TRY(vkEnumeratePhysicalDevices(instance_, &count, devices.data()));
  if (devices.empty()) return Error{"no Vulkan physical device found (is mesa-vulkan-drivers installed?)"};

  std::vector<VkPhysicalDeviceProperties> props(devices.size());
  std::string listing;
  for (size_t i = 0; i < devices.size(); ++i) {
    vkGetPhysicalDeviceProperties(devices[i], &props[i]);
    listing += fmt::format("\n  {}: {} ({})", i, props[i].deviceName, device_type_name(props[i].deviceType));
  }

  int chosen = -1;
  switch (choice.kind) {
    case DeviceChoice::Cpu:
      for (size_t i = 0; i < devices.size() && chosen < 0; ++i)
        if (props[i].deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) chosen = static_cast<int>(i);
      if (chosen < 0) return Error{"no CPU Vulkan device (lavapipe) found; devices:" + listing};
      break;
    case DeviceChoice::Gpu:
      for (VkPhysicalDeviceType wanted : {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU,
                                          VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU})
        for (size_t i = 0; i < devices.size() && chosen < 0; ++i)
          if (props[i].deviceType == wanted) chosen = static_cast<int>(i);
      if (chosen < 0) return Error{"no GPU Vulkan device found; devices:" + listing};
      break;
    case DeviceChoice::Index:
      if (choice.index >= devices.size())
        return Error{fmt::format("device index {} out of range; devices:{}", choice.index, listing)};
      chosen = static_cast<int>(choice.index);
      break;
  }
  physical_ = devices[chosen];
  properties_ = props[chosen];
  vkGetPhysicalDeviceFeatures(physical_, &features_);
  vkGetPhysicalDeviceMemoryProperties(physical_, &memory_properties_);

  std::string driver;
  if (properties_.apiVersion >= VK_API_VERSION_1_2 && instance_api_version_ >= VK_API_VERSION_1_2) {
    VkPhysicalDeviceDriverProperties driver_props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    props2.pNext = &driver_props;
    vkGetPhysicalDeviceProperties2(physical_, &props2);
    driver = fmt::format(", {}", driver_props.driverInfo);
  }
  description_ = fmt::format("{} (device {}, {}{}, Vulkan {})", properties_.deviceName, chosen,
                             device_type_name(properties_.deviceType), driver, version_text(properties_.apiVersion));
  return true;
}

}  // namespace sluice::exec
