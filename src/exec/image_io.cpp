// PNG and PFM writing for runner images.
#include "exec/image_io.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>

#include <dlfcn.h>

#include <fmt/format.h>
#include <png.h>

namespace sluice::exec {
namespace {

uint8_t to_byte(float v) {
  if (!(v > 0.0f)) return 0;  // also NaN
  if (v >= 1.0f) return 255;
  return static_cast<uint8_t>(std::lround(v * 255.0f));
}

bool little_endian_host() {
  const uint16_t probe = 1;
  uint8_t first;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

}  // namespace

Result<ImageFileFormat> parse_image_file_format(const std::string& text) {
  if (text == "png") return ImageFileFormat::Png;
  if (text == "pfm") return ImageFileFormat::Pfm;
  return Error{fmt::format("unknown image format '{}': expected png or pfm", text)};
}

Result<bool> write_png(const Image& image, const std::string& path) {
  if (image.width == 0 || image.height == 0 || image.rgba.size() != size_t(image.width) * image.height * 4)
    return Error{"cannot write an empty or inconsistent image"};
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  png.width = image.width;
  png.height = image.height;
  png.format = PNG_FORMAT_RGBA;
  std::vector<uint8_t> bytes(image.rgba.size());
  std::transform(image.rgba.begin(), image.rgba.end(), bytes.begin(), to_byte);
  // libpng is opened here rather than linked: only `render` writes PNGs,
  // and loading libpng16 (and the zlib it needs) in every process was a
  // quarter of the dynamic loader's symbol lookups at start-up
  // (docs/performance.md, "λV process start").
  void* const library = dlopen("libpng16.so.16", RTLD_NOW | RTLD_LOCAL);
  if (!library)
    return Error{fmt::format("writing PNG '{}': cannot load libpng16.so.16 ({})", path, dlerror()), ErrorCode::Environment};
  const auto write_to_file =
      reinterpret_cast<decltype(&png_image_write_to_file)>(dlsym(library, "png_image_write_to_file"));
  const bool written = write_to_file && write_to_file(&png, path.c_str(), 0, bytes.data(), 0, nullptr);
  const std::string message = write_to_file ? png.message : "libpng16.so.16 has no png_image_write_to_file";
  dlclose(library);
  if (!written) return Error{fmt::format("writing PNG '{}': {}", path, message)};
  return true;
}

Result<bool> write_pfm(const Image& image, const std::string& path) {
  if (image.width == 0 || image.height == 0 || image.rgba.size() != size_t(image.width) * image.height * 4)
    return Error{"cannot write an empty or inconsistent image"};
  std::ofstream out(path, std::ios::binary);
  if (!out) return Error{fmt::format("cannot open '{}' for writing", path), ErrorCode::Environment};
  // A negative scale marks little-endian data.
  out << "PF\n" << image.width << " " << image.height << "\n" << (little_endian_host() ? "-1.0" : "1.0") << "\n";
  std::vector<float> row(size_t(image.width) * 3);
  for (uint32_t y = image.height; y-- > 0;) {
    for (uint32_t x = 0; x < image.width; ++x)
      for (uint32_t c = 0; c < 3; ++c) row[x * 3 + c] = image.at(x, y, c);
    out.write(reinterpret_cast<const char*>(row.data()), static_cast<std::streamsize>(row.size() * sizeof(float)));
  }
  if (!out) return Error{fmt::format("writing PFM '{}' failed", path)};
  return true;
}

Result<bool> write_image(const Image& image, const std::string& path, ImageFileFormat format) {
  return format == ImageFileFormat::Png ? write_png(image, path) : write_pfm(image, path);
}

}  // namespace sluice::exec
