// Output comparison: exact integers, ULP-bounded floats, first mismatch named.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

#include "exec/compare.h"

using namespace sluice::exec;

namespace {

uint32_t bits_of(float f) {
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return w;
}

Image flat_image(float value) {
  Image img;
  img.width = 3;
  img.height = 2;
  img.rgba.assign(3 * 2 * 4, value);
  return img;
}

}  // namespace

TEST_CASE("ULP distance counts representable floats between two values") {
  const float one = 1.0f;
  const float next = std::nextafter(one, 2.0f);
  CHECK(ulp_distance(bits_of(one), bits_of(next), 32) == 1);
  CHECK(ulp_distance(bits_of(0.0f), bits_of(-0.0f), 32) == 0);
  const float tiny = std::numeric_limits<float>::denorm_min();
  CHECK(ulp_distance(bits_of(-tiny), bits_of(tiny), 32) == 2);
  CHECK(floats_match(one, std::nextafter(std::nextafter(one, 2.0f), 2.0f)));
  CompareOptions strict;
  strict.max_float_ulps = 0;
  CHECK_FALSE(floats_match(one, next, strict));
  CHECK(floats_match(std::nanf("1"), std::nanf("2")));
  CHECK_FALSE(floats_match(std::nanf("1"), 1.0f));
  CompareOptions loose;
  loose.float_abs_tolerance = 1e-3;
  CHECK(floats_match(0.5f, 0.5005f, loose));
}

TEST_CASE("image comparison reports the first differing pixel with both values") {
  Image a = flat_image(0.5f);
  Image b = a;
  CHECK_FALSE(compare_images(a, b).has_value());
  b.rgba[(1 * 3 + 2) * 4 + 1] = 0.25f;  // pixel (2, 1), green
  b.rgba[(1 * 3 + 2) * 4 + 3] = 0.75f;  // a later difference in the same pixel
  auto m = compare_images(a, b);
  REQUIRE(m.has_value());
  CHECK(m->where == "location 0, pixel (2, 1), channel G");
  CHECK_THAT(m->expected, Catch::StartsWith("0.5 "));
  CHECK_THAT(m->actual, Catch::StartsWith("0.25 "));
  CHECK_THAT(m->describe(), Catch::Contains("expected 0.5") && Catch::Contains("got 0.25"));
}

TEST_CASE("integer images and buffers must match exactly") {
  Image a = flat_image(1.0f);
  a.kind = ScalarKind::Int;
  a.integer_rgba.assign(a.rgba.size(), 7);
  Image b = a;
  b.integer_rgba[5] = static_cast<uint32_t>(-7);
  auto m = compare_images(a, b);
  REQUIRE(m.has_value());
  CHECK(m->expected == "7");
  CHECK(m->actual == "-7");

  BufferData e;
  e.name = "Out";
  e.bytes.assign(16, 0);
  e.slots = {{0, ScalarKind::Int, 4}, {4, ScalarKind::Float, 4}, {8, ScalarKind::Bool, 4}};
  BufferData x = e;
  x.bytes[12] = 99;  // padding: not compared
  CHECK_FALSE(compare_buffers(e, x).has_value());
  const float close = std::nextafter(0.0f, 1.0f);
  std::memcpy(x.bytes.data() + 4, &close, 4);
  CHECK_FALSE(compare_buffers(e, x).has_value());  // 1 ULP
  x.bytes[8] = 1;
  auto bm = compare_buffers(e, x);
  REQUIRE(bm.has_value());
  CHECK_THAT(bm->where, Catch::Contains("scalar 2 at byte 8 (bool)"));
  CHECK(bm->expected == "0");
  CHECK(bm->actual == "1");
}

TEST_CASE("outputs with different shapes are mismatches too") {
  RunOutput a, b;
  a.images.push_back(flat_image(0.0f));
  auto m = compare_outputs(a, b);
  REQUIRE(m.has_value());
  CHECK(m->where == "number of output images");
  b.images.push_back(flat_image(0.0f));
  b.images[0].width = 2;
  b.images[0].rgba.resize(2 * 2 * 4);
  auto size = compare_outputs(a, b);
  REQUIRE(size.has_value());
  CHECK(size->where == "location 0 size");
}

TEST_CASE("a storage buffer only one side declares compares equal only if that side left it unwritten") {
  BufferData used, unused;
  used.binding = 0;
  unused.binding = 1;
  unused.name = "idle";
  for (BufferData* b : {&used, &unused}) {
    b->bytes.assign(4, 7);
    b->slots = {{0, ScalarKind::Int, 4}};
  }
  unused.written = false;
  RunOutput reference, variant;
  reference.storage_buffers = {used, unused};
  variant.storage_buffers = {used};  // remove-unused-interface left 'idle' out
  CHECK_FALSE(compare_outputs(reference, variant).has_value());
  CHECK_FALSE(compare_outputs(variant, reference).has_value());
  reference.storage_buffers[1].written = true;  // the reference wrote it: the variant cannot just lack it
  auto m = compare_outputs(reference, variant);
  REQUIRE(m.has_value());
  CHECK_THAT(m->where, Catch::Contains("'idle' (set 0, binding 1)"));
  CHECK(m->expected == "written");
  CHECK(m->actual == "not declared");
  auto reversed = compare_outputs(variant, reference);
  REQUIRE(reversed.has_value());
  CHECK(reversed->actual == "written");
  // Buffers both sides declare are compared whether written or not.
  variant.storage_buffers.push_back(unused);
  variant.storage_buffers[1].bytes[0] = 8;
  CHECK(compare_outputs(reference, variant).has_value());
}
