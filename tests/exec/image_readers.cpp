// PNG through libpng's simplified API; PFM by hand (a text header, then
// rows of floats, bottom row first, the byte order given by the scale's sign).
#include "image_readers.h"

#include <bit>
#include <cstring>
#include <fstream>
#include <vector>

#include <fmt/format.h>
#include <png.h>

namespace sluice::exec {

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
  if ((scale < 0) != (std::endian::native == std::endian::little))
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
