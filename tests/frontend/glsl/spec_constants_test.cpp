// Specialization constants outside function bodies: a workgroup size from
// layout(local_size_x_id = N) and array lengths written with specialization
// constants (src/frontend/glsl/spec_constants.cpp).
#include <catch2/catch.hpp>

#include "glsl_test_util.h"
#include "ir/parse.h"

using namespace sluice;
using namespace sluice::ir;

using testing::variable_named;

namespace {

const Type& pointee(const Module& m, const Variable& v) { return testing::pointee_type(m, v); }

// The uvec3 constant whose components carry the given spec ids (or none).
ConstantId find_workgroup_size(const Module& m) {
  for (std::uint32_t i = 0; i < m.constant_count(); ++i) {
    const Constant& c = m.constant(ConstantId(i));
    if (c.components.size() != 3 || m.type(c.type).kind != TypeKind::Vector) continue;
    for (ConstantId part : c.components)
      if (m.constant(part).spec_id) return ConstantId(i);
  }
  return {};
}

void check_round_trip(const Module& m) {
  const std::string text = dump(m);
  ParseResult parsed = parse_module(text, "dump.ir");
  INFO(text << render(parsed.diagnostics, text));
  REQUIRE(parsed.ok());
  CHECK(dump(*parsed.module) == text);
  CHECK(parsed.module->shader() == m.shader());
}

}  // namespace

TEST_CASE("local_size_x_id makes the workgroup size a specialization constant") {
  const Module m = testing::compile_valid(R"(#version 450
layout(local_size_x = 4, local_size_z = 2) in;
layout(local_size_x_id = 18, local_size_z_id = 19) in;
layout(binding = 0) buffer B { uvec3 size; };
void main() { size = gl_WorkGroupSize; }
)",
                                          "test.comp");
  const ShaderInfo& s = m.shader();
  CHECK(s.local_size == std::array<std::uint32_t, 3>{4, 1, 2});
  CHECK(s.local_size_spec_id[0] == 18u);
  CHECK_FALSE(s.local_size_spec_id[1].has_value());
  CHECK(s.local_size_spec_id[2] == 19u);
  // gl_WorkGroupSize reads as uvec3(spec 18 = 4, 1, spec 19 = 2).
  const ConstantId size = find_workgroup_size(m);
  REQUIRE(size.valid());
  const Constant& c = m.constant(size);
  CHECK(m.constant(c.components[0]).spec_id == 18u);
  CHECK(m.constant(c.components[0]).bits == 4);
  CHECK_FALSE(m.constant(c.components[1]).spec_id.has_value());
  CHECK(m.constant(c.components[1]).bits == 1);
  CHECK(m.constant(c.components[2]).spec_id == 19u);
  CHECK(m.constant(c.components[2]).bits == 2);
  check_round_trip(m);
}

TEST_CASE("a fixed workgroup size keeps gl_WorkGroupSize a plain constant") {
  const Module m = testing::compile_valid(R"(#version 450
layout(local_size_x = 4) in;
layout(binding = 0) buffer B { uvec3 size; };
void main() { size = gl_WorkGroupSize; }
)",
                                          "test.comp");
  CHECK_FALSE(m.shader().local_size_spec_id[0].has_value());
  CHECK_FALSE(find_workgroup_size(m).valid());
}

TEST_CASE("arrays sized by gl_WorkGroupSize carry the expression and its default") {
  // The shape of the corpus's spv.noWorkgroup.comp and web.comp.
  const Module m = testing::compile_valid(R"(#version 450
layout(local_size_x_id = 18, local_size_y_id = 10, local_size_z_id = 19) in;
layout(local_size_x = 3, local_size_y = 5) in;
shared uint keys[gl_WorkGroupSize.z][gl_WorkGroupSize.x * gl_WorkGroupSize.y];
int arrX[gl_WorkGroupSize.x];
layout(binding = 0) buffer B { uint v; };
void main() { arrX[0] = 1; keys[0][1] = uint(arrX[0]); v = keys[0][1]; }
)",
                                          "test.comp");
  const Variable* keys = variable_named(m, "keys");
  REQUIRE(keys);
  const Type& outer = pointee(m, *keys);
  REQUIRE(outer.kind == TypeKind::Array);
  CHECK(outer.count == 1);  // local_size_z defaults to 1
  REQUIRE(outer.length.valid());
  const Constant& z = m.constant(outer.length);
  CHECK(z.spec_op == SpecOp::CompositeExtract);
  const Type& inner = m.type(outer.element);
  REQUIRE(inner.length.valid());
  CHECK(inner.count == 15);
  const Constant& product = m.constant(inner.length);
  CHECK(product.spec_op == SpecOp::IMul);
  CHECK(product.bits == 15);
  REQUIRE(product.operands.size() == 2);
  CHECK(m.constant(product.operands[0]).spec_op == SpecOp::CompositeExtract);
  CHECK(m.constant(product.operands[0]).bits == 3);
  const Variable* arr_x = variable_named(m, "arrX");
  REQUIRE(arr_x);
  CHECK(pointee(m, *arr_x).count == 3);
  CHECK(pointee(m, *arr_x).length.valid());
  check_round_trip(m);
}

TEST_CASE("an array sized by a constant_id constant has that constant as its length") {
  const Module m = testing::compile_valid(R"(#version 450
layout(constant_id = 3) const int N = 4;
layout(location = 0) out vec4 c;
float weights[N + 1];
void main() { weights[0] = 1.0; c = vec4(weights[0]); }
)");
  const Variable* w = variable_named(m, "weights");
  REQUIRE(w);
  const Type& t = pointee(m, *w);
  CHECK(t.count == 5);
  REQUIRE(t.length.valid());
  const Constant& sum = m.constant(t.length);
  CHECK(sum.spec_op == SpecOp::IAdd);
  CHECK(m.constant(sum.operands[0]).spec_id == 3u);
  check_round_trip(m);
}

TEST_CASE("an unsupported operation in an array length is refused") {
  testing::compile_unsupported(R"(#version 450
layout(constant_id = 3) const int N = 4;
layout(location = 0) out vec4 c;
float weights[N % 3];
void main() { weights[0] = 1.0; c = vec4(weights[0]); }
)",
                               "specialization-constant expression");
}

TEST_CASE("the validator rejects an array length that is not a specialization constant") {
  Module m(ShaderStage::Fragment);
  const TypeId bad = m.intern(Type::make_spec_array(predefined::kFloat, 2, m.uint_constant(2)));
  (void)bad;
  const auto problems = validator::validate(m);
  bool found = false;
  for (const auto& p : problems)
    found = found || validator::describe(m, p).find("specialization constant") != std::string::npos;
  CHECK(found);
}

TEST_CASE("the text form rejects malformed specialization lengths and ids") {
  const Module m = testing::compile_valid(R"(#version 450
layout(local_size_x_id = 18) in;
shared uint keys[gl_WorkGroupSize.x * 2u];
void main() { keys[0] = 1u; }
)",
                                          "test.comp");
  const std::string text = dump(m);
  REQUIRE(text.find("[Local size ids 18, -, -]") != std::string::npos);
  REQUIRE(text.find("[spec_op=IMul ") != std::string::npos);
  auto rejects = [&](const std::string& from, const std::string& to) {
    std::string bad = text;
    bad.replace(bad.find(from), from.size(), to);
    CHECK_FALSE(parse_module(bad, "bad.ir").ok());
  };
  rejects("[Local size ids 18, -, -]", "[Local size ids 18, x, -]");
  rejects("[spec_op=IMul ", "[spec_op=IMod ");
}

TEST_CASE("a named specialization-constant expression as an array length") {
  const Module m = testing::compile_valid(R"(#version 450
layout(constant_id = 4) const uint K = 3u;
const uint LEN = K * 2u;
layout(location = 0) out vec4 c;
float w[LEN];
void main() { w[0] = 2.0; c = vec4(w[0], float(LEN), 0.0, 1.0); }
)");
  const Variable* w = variable_named(m, "w");
  REQUIRE(w);
  const Type& t = testing::pointee_type(m, *w);
  CHECK(t.count == 6);
  REQUIRE(t.length.valid());
  CHECK(m.constant(t.length).spec_op == SpecOp::IMul);
}
