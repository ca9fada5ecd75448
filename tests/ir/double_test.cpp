// The IR's double (a 64-bit Float scalar, Type::width): interning keeps it
// apart from float, constants keep all 64 bits (no value goes through
// float), and the text form writes and reads them back exactly.
#include <bit>
#include <cmath>
#include <limits>

#include <catch2/catch.hpp>

#include "ir/dump.h"
#include "ir/parse.h"
#include "ir/typing.h"

using namespace sluice;
using namespace sluice::ir;

TEST_CASE("double: a type of its own, interned once", "[ir][double]") {
  Module m(ShaderStage::Compute);
  const TypeId d = m.double_type();
  CHECK(d != predefined::kFloat);
  CHECK(m.double_type() == d);
  CHECK(m.type(d).kind == TypeKind::Scalar);
  CHECK(m.type(d).scalar == ScalarKind::Float);
  CHECK(m.type(d).width == 64);
  const TypeId dvec3 = m.double_type(3);
  CHECK(m.type(dvec3).element == d);
  CHECK(dvec3 != predefined::kVec3);
  const TypeId dmat2x3 = m.double_matrix_type(2, 3);
  CHECK(m.type(dmat2x3).element == dvec3);
  CHECK(is_double_like(m, dmat2x3));
  CHECK_FALSE(is_double_like(m, predefined::kMat2));
  CHECK(component_type(m, dmat2x3) == d);
  CHECK(describe_type(m, dvec3) == "dvec3");
}

TEST_CASE("double: constants keep their 64 bits", "[ir][double]") {
  Module m(ShaderStage::Compute);
  const ConstantId tenth = m.double_constant(0.1);
  CHECK(m.constant(tenth).as_double() == 0.1);
  CHECK(std::bit_cast<std::uint64_t>(m.constant(tenth).as_double()) == 0x3fb999999999999aull);
  // 0.1 as a float is another value, and another constant.
  CHECK(m.float_constant(0.1f) != tenth);
  CHECK(static_cast<double>(m.constant(m.float_constant(0.1f)).as_float()) != 0.1);
  // Values a float cannot hold: large, tiny, and close to 1.
  for (double v : {1e300, -4.9e-324, 1.0 + std::numeric_limits<double>::epsilon()})
    CHECK(m.constant(m.double_constant(v)).as_double() == v);
  // Equal doubles share a constant; 0.0 and -0.0 do not.
  CHECK(m.double_constant(0.1) == tenth);
  CHECK(m.double_constant(0.0) != m.double_constant(-0.0));
}

TEST_CASE("double: the text form writes and reads doubles exactly", "[ir][double]") {
  Module m(ShaderStage::Compute);
  const TypeId dvec2 = m.double_type(2);
  m.double_matrix_type(3, 2);
  const std::uint64_t nan_bits = 0x7ff8000000000123ull;
  const ConstantId parts[] = {m.double_constant(0.1), m.double_constant(-1e300)};
  m.composite_constant(dvec2, parts);
  for (double v : {-0.0, 1.0 + std::numeric_limits<double>::epsilon(), 4.9e-324,
                   -std::numeric_limits<double>::infinity(), std::bit_cast<double>(nan_bits)})
    m.double_constant(v);
  const std::string text = dump(m);
  CHECK(text.find(": double\n") != std::string::npos);
  CHECK(text.find("0.1\n") != std::string::npos);
  CHECK(text.find("1.0000000000000002\n") != std::string::npos);
  CHECK(text.find("nan(0x7ff8000000000123)") != std::string::npos);
  ParseResult r = parse_module(text, "double.ir");
  INFO(text << render(r.diagnostics, text));
  REQUIRE(r.ok());
  CHECK(dump(*r.module) == text);
  REQUIRE(r.module->constant_count() == m.constant_count());
  for (std::uint32_t i = 0; i < m.constant_count(); ++i) CHECK(r.module->constant(ConstantId(i)) == m.constant(ConstantId(i)));
  for (std::uint32_t i = 0; i < m.type_count(); ++i) CHECK(r.module->type(TypeId(i)) == m.type(TypeId(i)));
}

TEST_CASE("double: a constant out of a double's range is an error at its position", "[ir][double]") {
  Module m(ShaderStage::Compute);
  m.double_constant(1.0);
  std::string text = dump(m);
  const std::size_t at = text.find("(t26): 1.0\n");  // t26: the first type after the predefined ones
  REQUIRE(at != std::string::npos);
  text.replace(at, 11, "(t26): 1e999\n");
  ParseResult r = parse_module(text, "bad.ir");
  REQUIRE_FALSE(r.ok());
  REQUIRE_FALSE(r.diagnostics.empty());
  CHECK(r.diagnostics[0].message.find("expected a double") != std::string::npos);
  CHECK(r.diagnostics[0].line > 0);
}
