// Readers of what exec/image_io.h writes, for the tests (PNG: 8-bit RGB or
// RGBA; PFM: "PF" or greyscale "Pf", either byte order). Alpha is 1 where
// the file has none.
#pragma once

#include <string>

#include "exec/runner.h"
#include "ir/result.h"

namespace sluice::exec {

Result<Image> read_png(const std::string& path);
Result<Image> read_pfm(const std::string& path);

}  // namespace sluice::exec
