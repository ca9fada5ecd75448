// Identifiers of the output: which words GLSL reserves, how a source name is
// made a valid identifier, and the table that keeps every name unique.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace sluice::glsl_out {

// Keywords, reserved words, type names and built-in function names of GLSL
// 4.50, GLSL ES 3.10 and Vulkan GLSL. A generated or renamed identifier is
// never one of these.
bool is_reserved_word(std::string_view word);

// True for a valid identifier that GLSL lets a shader declare: the right
// characters, no leading digit, no "gl_" prefix, no "__", not reserved.
bool is_valid_identifier(std::string_view name);

// A valid identifier close to `name`: invalid characters become '_', a
// leading digit or reserved prefix gets a '_' in front, "__" is collapsed,
// reserved words get a "_" suffix, and empty names become `fallback`.
std::string sanitize_identifier(std::string_view name, std::string_view fallback);

// Names in use in one scope of the output (the module's global names, or
// one function's names on top of them). Every declared name goes through a
// table, so generated names cannot clash with source names or each other.
class NameTable {
 public:
  explicit NameTable(const NameTable* parent = nullptr) : parent_(parent) {}

  bool taken(std::string_view name) const;
  // Takes `name` exactly; false if it is already taken.
  bool take_exact(const std::string& name);
  // Takes `wanted` (sanitized) or, when taken, `wanted_1`, `wanted_2`, ...
  std::string take(std::string_view wanted, std::string_view fallback = "v");

 private:
  const NameTable* parent_;
  std::unordered_set<std::string> names_;
  // Next suffix to try per base name, so that many equal names cost linear time.
  std::unordered_map<std::string, std::uint64_t> next_suffix_;
};

}  // namespace sluice::glsl_out
