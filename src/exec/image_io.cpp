// PNG and PFM reading and writing for runner images.
#include "exec/image_io.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

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
  if (!png_image_write_to_file(&png, path.c_str(), 0, bytes.data(), 0, nullptr))
    return Error{fmt::format("writing PNG '{}': {}", path, png.message)};
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

Result<Image> read_png(const std::string& path) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path.c_str()))
    return Error{fmt::format("reading PNG '{}': {}", path, png.message)};
  png.format = PNG_FORMAT_RGBA;
  std::vector<uint8_t> bytes(PNG_IMAGE_SIZE(png));
  if (!png_image_finish_read(&png, nullptr, bytes.data(), 0, nullptr))
    return Error{fmt::format("reading PNG '{}': {}", path, png.message)};
  Image img;
  img.width = png.width;
  img.height = png.height;
  img.rgba.resize(bytes.size());
  for (size_t i = 0; i < bytes.size(); ++i) img.rgba[i] = static_cast<float>(bytes[i]) / 255.0f;
  return img;
}

Result<Image> read_pfm(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{fmt::format("cannot open '{}'", path), ErrorCode::Environment};
  std::string magic;
  uint32_t width = 0, height = 0;
  double scale = 0;
  in >> magic >> width >> height >> scale;
  in.get();  // the single whitespace character before the data
  if (!in || (magic != "PF" && magic != "Pf") || width == 0 || height == 0 || scale == 0)
    return Error{fmt::format("'{}' is not a PFM file", path)};
  const uint32_t channels = magic == "PF" ? 3 : 1;
  std::vector<float> data(size_t(width) * height * channels);
  in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(data.size() * sizeof(float)));
  if (!in) return Error{fmt::format("'{}' is truncated", path)};
  if ((scale < 0) != little_endian_host())
    for (float& f : data) {
      uint32_t w;
      std::memcpy(&w, &f, 4);
      w = __builtin_bswap32(w);
      std::memcpy(&f, &w, 4);
    }
  Image img;
  img.width = width;
  img.height = height;
  img.rgba.assign(size_t(width) * height * 4, 1.0f);
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      const float* src = &data[(size_t(height - 1 - y) * width + x) * channels];
      for (uint32_t c = 0; c < 3; ++c) img.rgba[(size_t(y) * width + x) * 4 + c] = src[channels == 3 ? c : 0];
    }
  return img;
}

}  // namespace sluice::exec
