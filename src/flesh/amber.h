// A fleshed test as files (amber.cpp): NAME.spv, NAME.spvasm, NAME.amber,
// NAME.directions and NAME.expected (little-endian uint32 words).
#pragma once

#include <string>

#include "flesh/flesh.h"

namespace sluice::flesh {

std::string amber_script(const Test& test, const std::string& name);

// Writes the test's files into `dir` (created if missing).
Result<bool> write_test_files(const std::string& dir, const std::string& name, const Test& test);

}  // namespace sluice::flesh
