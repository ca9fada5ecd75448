// The interface rules of the validator: inputs and outputs may not share a
// location and component (ir::find_location_overlap, SPIR-V spec 2.16.2),
// their locations end below 65536 (docs/limits.md), nothing writes through
// a pointer to read-only storage, and storage images name a known format
// (ir/image_format.h). Each test builds a valid shader, checks it
// validates, then breaks one rule. Found by the fuzz campaign (issue 16):
// valid IR whose SPIR-V spirv-val rejected.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "validator/validator_test_util.h"

using namespace sluice;
using sluice::testing::all_problems;
using sluice::testing::must;
using sluice::testing::require_only_problem;
using sluice::testing::require_valid;
using sluice::testing::ShaderFixture;

namespace {

ir::Decorations at(std::uint32_t location, std::optional<std::uint32_t> component = std::nullopt) {
  ir::Decorations d;
  d.location = location;
  d.component = component;
  return d;
}

struct Interface : ShaderFixture {
  ir::VariableId input(const char* name, ir::TypeId type, ir::Decorations d) {
    return b.add_global({name, ir::NameSource::Interface}, type, ir::StorageClass::Input, ir::Precision::High, d);
  }
  void finish() {
    m.variable(color).decorations.location = 0;
    end(ir::Opcode::Return);
  }
};

}  // namespace

TEST_CASE("interface rules: two inputs at one location overlap", "[validator][interface]") {
  Interface s;
  s.input("a", ir::predefined::kVec4, at(0));
  const ir::VariableId second = s.input("b", ir::predefined::kVec4, at(1));
  s.finish();
  require_valid(s.m);
  s.m.variable(second).decorations.location = 0;
  require_only_problem(s.m, "v2 'a' and v3 'b' both occupy location 0 (a component of it)");
}

TEST_CASE("interface rules: components pack a location without overlap", "[validator][interface]") {
  Interface s;
  s.input("x", ir::predefined::kFloat, at(1, 0));
  const ir::VariableId yz = s.input("yz", ir::predefined::kVec2, at(1, 2));
  s.finish();
  require_valid(s.m);  // x takes component 0, yz components 2 and 3
  s.m.variable(yz).decorations.component = 0;
  require_only_problem(s.m, "v2 'x' and v3 'yz' both occupy location 1 (a component of it)");
}

TEST_CASE("interface rules: an array takes a location per element", "[validator][interface]") {
  Interface s;
  s.input("a", s.m.array_type(ir::predefined::kVec4, 3), at(0));  // locations 0, 1, 2
  const ir::VariableId after = s.input("b", ir::predefined::kVec4, at(3));
  s.finish();
  require_valid(s.m);
  s.m.variable(after).decorations.location = 2;
  require_only_problem(s.m, "v2 'a' and v3 'b' both occupy location 2 (a component of it)");
}

TEST_CASE("interface rules: outputs of another index are apart", "[validator][interface]") {
  Interface s;
  ir::Decorations second = at(0);
  second.index = 1;
  const ir::VariableId blend = s.b.add_global({"blend", ir::NameSource::Interface}, ir::predefined::kVec4,
                                              ir::StorageClass::Output, ir::Precision::High, second);
  s.finish();
  require_valid(s.m);
  s.m.variable(blend).decorations.index = 0;
  require_only_problem(s.m, "v0 'color' and v2 'blend' both occupy location 0 (a component of it)");
}

TEST_CASE("interface rules: locations end below 65536, at the limit and one past it", "[validator][interface]") {
  Interface s;
  const ir::VariableId big = s.input("big", s.m.array_type(ir::predefined::kVec4, 65535), at(1));
  s.finish();
  require_valid(s.m);  // locations 1 .. 65535
  s.m.variable(big).decorations.location = 2;
  require_only_problem(s.m, "v2 'big' occupies locations up to 65536; they must end below 65536");
}

TEST_CASE("interface rules: no store through a pointer to read-only storage", "[validator][interface]") {
  for (const ir::StorageClass storage : {ir::StorageClass::Uniform, ir::StorageClass::Input}) {
    Interface s;
    const ir::VariableId target =
        storage == ir::StorageClass::Input ? s.input("in_value", ir::predefined::kFloat, at(0)) : s.scale;
    const ir::VariableId local = s.b.add_global({"value", ir::NameSource::Interface}, ir::predefined::kFloat,
                                                ir::StorageClass::Private, ir::Precision::High);
    const ir::RegisterId loaded = s.load_scale();
    must(s.b.store(local, loaded));
    s.finish();
    require_valid(s.m);
    // Redirect the store to the read-only variable.
    ir::Instruction& store = s.entry().instructions[1];
    REQUIRE(store.opcode == ir::Opcode::Store);
    store.operands[0] = target;
    require_only_problem(s.m, std::string("operand 0 of Store writes through a pointer to ") + ir::to_string(storage) +
                                  " storage, which is read-only");
  }
}

TEST_CASE("interface rules: a storage image's format is one of GLSL's", "[validator][interface]") {
  for (const char* format : {"r32f", "rgba8ui", "unknown", ""}) {
    ir::Module m(ir::ShaderStage::Fragment);
    ir::ImageDescriptor d;
    d.storage = true;
    d.format = format;
    m.intern(ir::Type::make_image(d));
    require_valid(m);
  }
  ir::Module m(ir::ShaderStage::Fragment);
  ir::ImageDescriptor d;
  d.storage = true;
  d.format = "r64f";  // no such format (SPIR-V has R64ui and R64i only)
  m.intern(ir::Type::make_image(d));
  const auto problems = validator::validate(m);
  INFO(all_problems(m, problems));
  REQUIRE(problems.size() == 1);
  REQUIRE_THAT(problems[0].message, Catch::Contains("image format 'r64f' is none of GLSL's format qualifiers"));
}

TEST_CASE("interface rules: a built-in has the type Vulkan gives it", "[validator][interface]") {
  ir::Module m(ir::ShaderStage::Compute);
  ir::Builder b(m);
  ir::Decorations d;
  d.built_in = "LocalInvocationId";
  const ir::VariableId id =
      b.add_global({"gl_LocalInvocationID", ir::NameSource::Internal}, ir::predefined::kUVec3, ir::StorageClass::Input,
                   ir::Precision::None, d);
  b.begin_function({"main", ir::NameSource::Internal}, ir::predefined::kVoid);
  must(b.terminate(ir::Opcode::Return));
  require_valid(m);
  // The campaign's finding: a 4-component LocalInvocationId (spirv-val:
  // VUID-LocalInvocationId-LocalInvocationId-04283).
  m.variable(id).type = m.pointer_type(ir::predefined::kUVec4, ir::StorageClass::Input);
  require_only_problem(m, "v0 'gl_LocalInvocationID' is the built-in LocalInvocationId, which must be a 3-component "
                          "vector of 32-bit integers");
}

// The fifth fuzz campaign's ir finding: `centroid` on a storage image (a
// UniformConstant variable) passed the validator, and spirv-val refused the
// SPIR-V (VUID-StandaloneSpirv-Flat-04670). Interpolation qualifiers,
// invariant, component and index belong to inputs and outputs only, and so
// does a location, except on a Uniform or UniformConstant (OpenGL's
// default-block uniforms).
TEST_CASE("interface rules: interpolation, invariant, location, component and index only on inputs and outputs",
          "[validator][interface]") {
  struct Case {
    const char* word;
    void (*set)(ir::Decorations&);
  };
  const Case cases[] = {
      {"flat", [](ir::Decorations& d) { d.interpolation = ir::Interpolation::Flat; }},
      {"noperspective", [](ir::Decorations& d) { d.interpolation = ir::Interpolation::NoPerspective; }},
      {"centroid", [](ir::Decorations& d) { d.centroid = true; }},
      {"sample", [](ir::Decorations& d) { d.sample = true; }},
      {"invariant", [](ir::Decorations& d) { d.invariant = true; }},
      {"component", [](ir::Decorations& d) { d.component = 1; }},
      {"index", [](ir::Decorations& d) { d.index = 1; }},
      {"location", [](ir::Decorations& d) { d.location = 3; }},
  };
  for (const ir::StorageClass storage : {ir::StorageClass::Uniform, ir::StorageClass::Private,
                                         ir::StorageClass::UniformConstant, ir::StorageClass::StorageBuffer}) {
    for (const Case& c : cases) {
      INFO(ir::to_string(storage) << ", " << c.word);
      Interface s;
      const ir::TypeId type = storage == ir::StorageClass::UniformConstant
                                  ? s.m.intern(ir::Type::make_image(ir::ImageDescriptor{}))
                                  : ir::predefined::kFloat;
      const ir::VariableId v =
          s.b.add_global({"resource", ir::NameSource::Interface}, type, storage, ir::Precision::High);
      s.input("in_value", ir::predefined::kVec4, at(1));
      s.finish();
      require_valid(s.m);
      c.set(s.m.variable(v).decorations);
      // A location is allowed on a Uniform or UniformConstant: OpenGL's
      // `layout(location = 3) uniform`.
      if ((storage == ir::StorageClass::Uniform || storage == ir::StorageClass::UniformConstant) &&
          std::string(c.word) == "location") {
        require_valid(s.m);
        continue;
      }
      require_only_problem(s.m, fmt::format("v{}: {} on a {} variable; only inputs and outputs have it", v.index(),
                                            c.word, ir::to_string(storage)));
    }
  }
  // Two at once are named together.
  Interface s;
  s.finish();
  s.m.variable(s.scale).decorations.centroid = true;
  s.m.variable(s.scale).decorations.invariant = true;
  require_only_problem(s.m, "v1: centroid, invariant on a Uniform variable; only inputs and outputs have them");
}

TEST_CASE("interface rules: a fragment input is interpolated, but has no index", "[validator][interface]") {
  Interface s;
  ir::Decorations d = at(0);
  d.centroid = true;
  d.sample = true;
  d.interpolation = ir::Interpolation::NoPerspective;
  const ir::VariableId in = s.input("in_value", ir::predefined::kVec4, d);
  s.m.variable(s.color).decorations.index = 0;  // dual-source blending
  s.finish();
  require_valid(s.m);
  s.m.variable(in).decorations.index = 1;
  require_only_problem(s.m, fmt::format("v{}: index=1 on an Input; only outputs (a fragment shader's, for "
                                        "dual-source blending) have an index",
                                        in.index()));
}
