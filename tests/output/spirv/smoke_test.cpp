// The ANGLE README shader end to end: emitted, validated on every target,
// deterministic, and with and without SSA promotion.
#include <catch2/catch.hpp>

#include "angle_example.h"
#include "spirv_test_util.h"

using namespace sluice;

TEST_CASE("the ANGLE example emits valid SPIR-V for every target") {
  const ir::Module m = testing::build_angle_example();
  for (spirv::TargetEnv target : testing::all_targets()) {
    for (bool ssa : {true, false}) {
      spirv::Options options;
      options.target = target;
      options.promote_to_ssa = ssa;
      const testing::Emitted e = testing::emit_checked(m, options);
      CHECK(e.words[1] == spirv::spirv_version(target));
    }
  }
}

TEST_CASE("the ANGLE example: its golden, promoted and -O0") {
  const ir::Module m = testing::build_angle_example();
  testing::check_spirv_golden("angle_example", m);
  spirv::Options o0;
  o0.promote_to_ssa = false;
  testing::check_spirv_golden("angle_example_O0", m, o0);
}

TEST_CASE("emission is deterministic") {
  const ir::Module m = testing::build_angle_example();
  const auto a = testing::emit_checked(m);
  const auto b = testing::emit_checked(testing::build_angle_example());
  CHECK(a.words == b.words);
}
