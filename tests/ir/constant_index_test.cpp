// constant_index_out_of_range(): the one predicate the SPIR-V reader and the
// GLSL output ask before indexing with a constant.
#include <catch2/catch.hpp>

#include "ir/constant_index.h"
#include "ir/module.h"

using namespace sluice;
using namespace sluice::ir;

TEST_CASE("a constant index is out of range only past the end of a vector, matrix or fixed array") {
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
  // A spec-constant-sized array's length is not known here.
  const TypeId spec = m.intern(Type::make_spec_array(m.scalar_type(ScalarKind::Float), 4, m.int_constant(4)));
  CHECK_FALSE(constant_index_out_of_range(m, spec, four));
  // A composite constant is no index; no type is nothing to index.
  const ConstantId pair[] = {two, three};
  CHECK_FALSE(constant_index_out_of_range(m, arr4, m.composite_constant(m.vector_type(ScalarKind::Int, 2), pair)));
  CHECK_FALSE(constant_index_out_of_range(m, TypeId{}, three));
}
