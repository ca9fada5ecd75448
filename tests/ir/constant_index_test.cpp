// constant_index_out_of_range(): the one predicate the SPIR-V reader and the
// GLSL output ask before indexing with a constant.
#include <catch2/catch.hpp>

#include "ir/constant_index.h"
#include "ir/module.h"

using namespace sluice;
using namespace sluice::ir;

TEST_CASE("a constant index is out of range past the end of a vector, matrix or fixed array, or when negative") {
  Module m;
  const TypeId vec3 = m.vector_type(ScalarKind::Float, 3);
  const TypeId mat2 = m.matrix_type(2, 2);
  const TypeId arr4 = m.array_type(m.scalar_type(ScalarKind::Float), 4);
  const ConstantId two = m.int_constant(2), three = m.int_constant(3), four = m.uint_constant(4);
  CHECK_FALSE(constant_index_out_of_range(m, vec3, two));
  CHECK(constant_index_out_of_range(m, vec3, three));
  CHECK(constant_index_out_of_range(m, mat2, two));
  CHECK_FALSE(constant_index_out_of_range(m, arr4, three));
  CHECK(constant_index_out_of_range(m, arr4, four));
  // A negative index reads as a large unsigned value.
  CHECK(constant_index_out_of_range(m, arr4, m.int_constant(-1)));
  // A spec-constant-sized array's length is not known here; a runtime
  // array's neither. A negative index is out of range of both (glslang:
  // "index out of range '-1'"; the fifth fuzz campaign's glsl finding), and
  // a uint of 2^31 or more reads as negative.
  const TypeId spec = m.intern(Type::make_spec_array(m.scalar_type(ScalarKind::Float), 4, m.int_constant(4)));
  CHECK_FALSE(constant_index_out_of_range(m, spec, four));
  CHECK(constant_index_out_of_range(m, spec, m.int_constant(-1)));
  const TypeId runtime = m.intern(Type::make_unsized_array(vec3));
  CHECK_FALSE(constant_index_out_of_range(m, runtime, four));
  CHECK_FALSE(constant_index_out_of_range(m, runtime, m.uint_constant(0x7fffffffu)));
  CHECK(constant_index_out_of_range(m, runtime, m.int_constant(-1)));
  CHECK(constant_index_out_of_range(m, runtime, m.uint_constant(0x80000000u)));
  // A struct is indexed by member literals, never out of range here.
  StructMember member;
  member.name = "x";
  member.type = vec3;
  const TypeId s = m.intern(Type::make_struct("S", {member}));
  CHECK_FALSE(constant_index_out_of_range(m, s, m.int_constant(-1)));
  // A composite constant is no index; no type is nothing to index.
  const ConstantId pair[] = {two, three};
  CHECK_FALSE(constant_index_out_of_range(m, arr4, m.composite_constant(m.vector_type(ScalarKind::Int, 2), pair)));
  CHECK_FALSE(constant_index_out_of_range(m, TypeId{}, three));
}
