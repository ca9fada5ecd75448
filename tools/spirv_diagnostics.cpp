#include "spirv_diagnostics.h"

#include <fstream>
#include <iostream>

namespace sluice::tools {

void print_spirv_parse_error(const std::string& file, const spirv_in::ParseError& e) {
  if (e.line == 0) {
    std::cerr << file << ": error: " << e.describe() << "\n";
    return;
  }
  std::cerr << file << ":" << e.line << ":" << e.column << ": error: " << e.message << "\n";
  std::ifstream in(file);
  std::string line;
  for (std::uint32_t i = 0; i < e.line && std::getline(in, line); ++i) {
  }
  if (in) std::cerr << line << "\n" << std::string(e.column > 0 ? e.column - 1 : 0, ' ') << "^\n";
}

}  // namespace sluice::tools
