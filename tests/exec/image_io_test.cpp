// PNG and PFM writers, read back and compared with what was written, and
// render golden values: a rendered gradient against the same formula
// evaluated on the host.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "exec/image_io.h"
#include "image_readers.h"
#include "exec_test_support.h"

using namespace sluice::exec;

namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("sluice_exec_test_" + name)).string();
}

// A small image whose every channel differs, with values outside [0, 1].
Image sample_image() {
  Image img;
  img.width = 5;
  img.height = 3;
  img.rgba.resize(5 * 3 * 4);
  for (size_t i = 0; i < img.rgba.size(); ++i) img.rgba[i] = static_cast<float>(i) / 40.0f - 0.25f;
  return img;
}

}  // namespace

TEST_CASE("PFM keeps red, green and blue exactly and stores the bottom row first") {
  const Image img = sample_image();
  const std::string path = temp_path("roundtrip.pfm");
  REQUIRE(write_pfm(img, path).ok());
  auto back = read_pfm(path);
  REQUIRE(back.ok());
  REQUIRE(back->width == img.width);
  REQUIRE(back->height == img.height);
  for (uint32_t y = 0; y < img.height; ++y)
    for (uint32_t x = 0; x < img.width; ++x) {
      for (uint32_t c = 0; c < 3; ++c) REQUIRE(back->at(x, y, c) == img.at(x, y, c));
      REQUIRE(back->at(x, y, 3) == 1.0f);  // PFM has no alpha
    }
  // The first float after the header is the bottom-left pixel's red.
  std::ifstream in(path, std::ios::binary);
  std::string magic, scale;
  uint32_t w = 0, h = 0;
  in >> magic >> w >> h >> scale;
  in.get();
  float first = 0;
  in.read(reinterpret_cast<char*>(&first), 4);
  CHECK(magic == "PF");
  CHECK(scale == "-1.0");
  CHECK(first == img.at(0, img.height - 1, 0));
  std::filesystem::remove(path);
}

TEST_CASE("PNG stores each channel clamped and rounded to 8 bits") {
  const Image img = sample_image();
  const std::string path = temp_path("roundtrip.png");
  REQUIRE(write_png(img, path).ok());
  auto back = read_png(path);
  REQUIRE(back.ok());
  REQUIRE(back->width == img.width);
  REQUIRE(back->height == img.height);
  for (size_t i = 0; i < img.rgba.size(); ++i) {
    const float clamped = std::clamp(img.rgba[i], 0.0f, 1.0f);
    REQUIRE(back->rgba[i] == std::round(clamped * 255.0f) / 255.0f);
  }
  std::filesystem::remove(path);
  CHECK_FALSE(write_png(img, "/nonexistent-dir/x.png").ok());
  CHECK_FALSE(read_pfm("/nonexistent-dir/x.pfm").ok());
  CHECK(parse_image_file_format("pfm").ok());
  CHECK_FALSE(parse_image_file_format("jpeg").ok());
}

TEST_CASE("render golden values: a rendered gradient matches the host formula through PFM") {
  Runner& runner = test::shared_runner();
  const auto spirv = test::compile(R"(#version 450
layout(location = 0) out vec4 color;
void main() {
  vec2 p = gl_FragCoord.xy / vec2(64.0, 32.0);
  color = vec4(p.x, p.y * p.y, sin(p.x * 6.0) * 0.5 + 0.5, 1.0);
})");
  auto out = runner.draw_fragment(spirv, 64, 32);
  REQUIRE(out.ok());
  const std::string path = temp_path("gradient.pfm");
  REQUIRE(write_pfm(out->images[0], path).ok());
  auto back = read_pfm(path);
  REQUIRE(back.ok());
  for (uint32_t y = 0; y < 32; ++y)
    for (uint32_t x = 0; x < 64; ++x) {
      const double px = (x + 0.5) / 64.0, py = (y + 0.5) / 32.0;
      REQUIRE(back->at(x, y, 0) == static_cast<float>(px));
      REQUIRE(back->at(x, y, 1) == Approx(py * py).epsilon(1e-6));
      // sin is within the device's documented precision, not exact.
      REQUIRE(back->at(x, y, 2) == Approx(std::sin(px * 6.0) * 0.5 + 0.5).margin(1e-4));
    }
  std::filesystem::remove(path);
}
