// See workarounds.h.
#include "transform/workarounds.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "transform/passes.h"

namespace sluice::transform {

namespace {

constexpr std::uint32_t kNvidia = 0x10DE;
constexpr std::uint32_t kMesa = 0x10005;  // VK_VENDOR_ID_MESA: lavapipe (llvmpipe)

struct Entry {
  Workaround info;
  PassResult (*run)(ir::Module&);  // null: done by the SPIR-V output (workarounds.h)
};

constexpr Entry kEntries[] = {
    {{"loop-exit-in-header",
      "NVIDIA 580: a loop nested in another, whose float counter is tested in a selection in its body, hangs",
      kNvidia},
     loop_exit_in_header},
    {{kReloadUniformsInLoops,
      "NVIDIA 580: a loop whose exit test compares with a uniform loaded before the loop, and whose body updates "
      "a local array, computes a wrong value",
      kNvidia},
     reload_uniforms_in_loops},
    {{kFallThroughInMemory,
      "lavapipe (Mesa 22.3): an OpPhi in a switch case entered by fall-through, inside a loop that invocations "
      "leave in different iterations, is seen wrongly after the loop",
      kMesa},
     nullptr},
    {{"loop-top-exit-test",
      "lavapipe (Mesa 22.3): a loop-carried value read after a loop left by a test placed after the value is "
      "computed comes out as an earlier iteration left it",
      kMesa},
     loop_top_exit_test},
    {{kLoopVectorsInMemory,
      "lavapipe (Mesa 22.3), run time: a loop carrying a vector as an OpPhi in its header runs up to 1.5x slower "
      "than with the vector in Function memory",
      kMesa},
     nullptr},
    {{kLoopLatch,
      "lavapipe (Mesa 22.3), run time: a loop whose one-block body is its own continue target runs that body as "
      "Mesa's continue construct, ~15% slower than with an empty latch block",
      kMesa},
     nullptr},
};

constexpr auto make_list() {
  std::array<Workaround, std::size(kEntries)> list{};
  for (std::size_t i = 0; i < std::size(kEntries); ++i) list[i] = kEntries[i].info;
  return list;
}
constexpr auto kList = make_list();

}  // namespace

std::span<const Workaround> workarounds() { return kList; }

Result<std::vector<std::string>> select_workarounds(std::string_view spec, const DeviceIdentity* device) {
  std::vector<std::string> names;
  if (spec.empty() || spec == "none") return names;
  if (spec == "all" || spec == "auto") {
    if (spec == "auto" && !device) return Error{"--workarounds=auto needs a device (render and xcheck have one)"};
    for (const Entry& e : kEntries)
      if (spec == "all" || e.info.vendor_id == device->vendor_id) names.emplace_back(e.info.name);
    return names;
  }
  std::size_t start = 0;
  while (start <= spec.size()) {
    const std::size_t comma = std::min(spec.find(',', start), spec.size());
    const std::string_view name = spec.substr(start, comma - start);
    const bool known = std::any_of(std::begin(kEntries), std::end(kEntries),
                                   [&](const Entry& e) { return e.info.name == name; });
    if (!known) {
      std::string all;
      for (const Entry& e : kEntries) all += fmt::format("{}{}", all.empty() ? "" : ", ", e.info.name);
      return Error{fmt::format("unknown workaround '{}' (known: {}; or none, all, auto)", name, all)};
    }
    if (std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
    start = comma + 1;
  }
  return names;
}

Result<bool> apply_workarounds(ir::Module& m, std::span<const std::string> names) {
  bool changed = false;
  for (const Entry& e : kEntries) {
    if (!e.run || std::find(names.begin(), names.end(), e.info.name) == names.end()) continue;
    auto r = e.run(m);
    if (!r) return r.failure().prefixed(fmt::format("workaround {}: ", e.info.name));
    changed = *r || changed;
  }
  return changed;
}

}  // namespace sluice::transform
