// λV's SPIR-V declares SignedZeroInfNanPreserve 32 (SPIR-V 1.4's float
// controls) where the target is SPIR-V 1.4 or later, and nowhere else;
// GLSL's SPIR-V never does (docs/lambdav.md, "Floats").
#include <catch2/catch.hpp>

#include <string>

#include "tools/driver_run.h"

using namespace sluice::testing;

namespace {

bool preserves(const Scratch& s, const std::string& file, const std::string& target) {
  const Run r = run_sluice(s, "compile " + quote(file) + " --validate --emit spvasm --target-env " + target);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const bool capability = r.out.find("OpCapability SignedZeroInfNanPreserve") != std::string::npos;
  const bool mode = r.out.find("OpExecutionMode %main SignedZeroInfNanPreserve 32") != std::string::npos;
  CHECK(capability == mode);
  return mode;
}

}  // namespace

TEST_CASE("λV output: SignedZeroInfNanPreserve 32 from SPIR-V 1.4 on") {
  Scratch s;
  const std::string lv = std::string(SLUICE_EXAMPLES_DIR) + "/gradient.lv";
  CHECK_FALSE(preserves(s, lv, "vulkan1.0"));
  CHECK_FALSE(preserves(s, lv, "spv1.3"));
  CHECK_FALSE(preserves(s, lv, "vulkan1.1"));
  CHECK(preserves(s, lv, "spv1.4"));
  CHECK(preserves(s, lv, "vulkan1.2"));
  CHECK(preserves(s, lv, "vulkan1.3"));
  const std::string frag = s.write("x.frag", "#version 450\nlayout(location = 0) out vec4 o;\nvoid main() { o = vec4(1.0); }\n");
  CHECK_FALSE(preserves(s, frag, "vulkan1.2"));
}
