// canonical_dump.h, the round-trip comparison: modules that differ only in
// types and constants nothing reaches compare equal; a difference in
// anything reached, or in a specialization constant, remains one.
#include <catch2/catch.hpp>

#include "canonical_dump.h"
#include "ir/dump.h"
#include "shader_builder.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;

namespace {

enum class Extra { None, UnusedArray, UnusedSpecConstant, ArrayOutput };

// color = vec4(x), with `extra` interned first so that it shifts the
// numbering of what follows.
std::string canonical(Extra extra) {
  testing::ShaderBuilder s;
  if (extra == Extra::UnusedArray) {
    // What a folded `vec2[2](vec2(k, k), vec2(k, k));` statement leaves.
    const ConstantId pair = s.m.composite_constant(s.m.vector_type(ScalarKind::Float, 2), std::vector{kFloatOne, kFloatOne});
    s.m.composite_constant(s.m.array_type(s.m.vector_type(ScalarKind::Float, 2), 2), std::vector{pair, pair});
  }
  if (extra == Extra::UnusedSpecConstant) s.m.intern(Constant{kInt, 3, {}, 7});
  if (extra == Extra::ArrayOutput) {
    Decorations d;
    d.location = 2;
    s.b.add_global({"more", NameSource::Interface}, s.m.array_type(kVec4, 2), StorageClass::Output, Precision::None, d);
  }
  s.begin_main();
  s.write_color(s.load(s.x));
  s.end(Opcode::Return);
  return testing::canonical_dump(ir::dump(s.m));
}

}  // namespace

TEST_CASE("canonical dump: types and constants nothing reaches are left out, the rest compared") {
  const std::string plain = canonical(Extra::None);
  CHECK(canonical(Extra::UnusedArray) == plain);
  CHECK(plain.find("Array of") == std::string::npos);
  // A specialization constant is part of the interface even when unused.
  CHECK(canonical(Extra::UnusedSpecConstant) != plain);
  // A variable reaches its type.
  const std::string with_output = canonical(Extra::ArrayOutput);
  CHECK(with_output != plain);
  CHECK(with_output.find("Array of") != std::string::npos);
}
