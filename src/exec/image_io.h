// Writers of rendered images (tests/exec/image_readers.h reads them back):
// PNG through libpng, 8-bit RGBA, each channel clamped to [0, 1] and rounded
// to the nearest of 255 steps; PFM, the Portable Float Map ("PF", three
// little-endian float channels, scale -1.0, bottom row first), which keeps
// red, green and blue exactly and drops alpha.
#pragma once

#include <string>

#include "exec/runner.h"
#include "ir/result.h"

namespace sluice::exec {

enum class ImageFileFormat { Png, Pfm };

// "png" or "pfm".
Result<ImageFileFormat> parse_image_file_format(const std::string& text);

Result<bool> write_png(const Image& image, const std::string& path);
Result<bool> write_pfm(const Image& image, const std::string& path);
Result<bool> write_image(const Image& image, const std::string& path, ImageFileFormat format);

}  // namespace sluice::exec
