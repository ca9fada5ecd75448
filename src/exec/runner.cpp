// Runner construction and device queries; the draw and dispatch paths live in
// graphics_draw.cpp and compute_dispatch.cpp.
#include "exec/runner.h"

namespace sluice::exec {

Runner::Runner(std::unique_ptr<VulkanContext> context) : context_(std::move(context)) {}
Runner::Runner(Runner&&) noexcept = default;
Runner& Runner::operator=(Runner&&) noexcept = default;
Runner::~Runner() = default;

Result<Runner> Runner::create(const DeviceChoice& choice) {
  ContextOptions options;
  options.device = choice;
  return create(options);
}

Result<Runner> Runner::create(const ContextOptions& options) {
  auto context = VulkanContext::create(options);
  if (!context) return context.failure();
  return Runner(std::move(*context));
}

std::string Runner::device_name() const { return context_->description(); }

bool Runner::supports_extension(const std::string& name) const {
  return context_->enabled_device_extension(name);
}

}  // namespace sluice::exec
