// The workaround registry (src/transform/workarounds.cpp, docs/workarounds.md):
// `auto` picks each device's entries by its Vulkan vendor ID, lists and
// `all` name every entry, unknown names are errors, and the SPIR-V output's
// entries (fall-through-in-memory, loop-vectors-in-memory, loop-latch) are no IR rewrites.
#include <catch2/catch.hpp>

#include "ir/builder.h"
#include "transform/workarounds.h"

using namespace sluice;

namespace {

std::vector<std::string> pick(std::string_view spec, std::uint32_t vendor) {
  const transform::DeviceIdentity device{vendor, 0};
  auto names = transform::select_workarounds(spec, &device);
  INFO((names.ok() ? std::string() : names.error()));
  REQUIRE(names.ok());
  return *names;
}

}  // namespace

TEST_CASE("workarounds=auto picks lavapipe's and NVIDIA's entries by vendor ID") {
  using V = std::vector<std::string>;
  CHECK(pick("auto", 0x10005) == V{"fall-through-in-memory", "loop-top-exit-test", "loop-vectors-in-memory",
                                      "loop-latch"});  // VK_VENDOR_ID_MESA: lavapipe
  CHECK(pick("auto", 0x10DE) == V{"loop-exit-in-header", "reload-uniforms-in-loops"});
  CHECK(pick("auto", 0x1002).empty());  // AMD: none
  CHECK(pick("all", 0x1002) == V{"loop-exit-in-header", "reload-uniforms-in-loops", "fall-through-in-memory", "loop-top-exit-test",
                                   "loop-vectors-in-memory", "loop-latch"});
  CHECK(pick("fall-through-in-memory,loop-exit-in-header,fall-through-in-memory", 0) ==
        V{"fall-through-in-memory", "loop-exit-in-header"});
  const auto bad = transform::select_workarounds("fall-through", nullptr);
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error(), Catch::Contains("known: loop-exit-in-header, reload-uniforms-in-loops, fall-through-in-memory, loop-top-exit-test, "
                                                "loop-vectors-in-memory, loop-latch"));
  CHECK_FALSE(transform::select_workarounds("auto", nullptr).ok());
}

TEST_CASE("the SPIR-V output's workarounds rewrite no IR") {
  ir::Module m;
  ir::Builder b{m};
  b.begin_function({"main", ir::NameSource::Internal}, ir::predefined::kVoid);
  REQUIRE(b.terminate(ir::Opcode::Return).ok());
  const std::vector<std::string> names{std::string(transform::kFallThroughInMemory),
                                       std::string(transform::kLoopVectorsInMemory),
                                       std::string(transform::kLoopLatch)};
  auto changed = transform::apply_workarounds(m, names);
  REQUIRE(changed.ok());
  CHECK_FALSE(*changed);
}
