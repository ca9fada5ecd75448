// Helpers for the SPIR-V output tests: every module a test produces goes
// through emit_checked(), which fails the test unless emission succeeds and
// SPIRV-Tools' validator accepts the module for its target environment.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "golden_file.h"
#include "ir/builder.h"
#include "output/spirv/spirv_output.h"
#include "validator/validator.h"

namespace sluice::testing {

template <class T>
T ok(Result<T> r) {
  INFO((r.ok() ? std::string() : r.error()));
  REQUIRE(r.ok());
  return std::move(*r);
}

struct Emitted {
  std::vector<std::uint32_t> words;
  std::string text;  // disassembly with friendly names
};

// Emits `m`, requires success and a spirv-val-clean module.
inline Emitted emit_checked(const ir::Module& m, const spirv::Options& options = {}) {
  auto words = spirv::emit(m, options);
  INFO("emit: " << (words.ok() ? std::string("ok") : words.error()));
  REQUIRE(words.ok());
  auto text = spirv::disassemble(*words, options.target);
  REQUIRE(text.ok());
  const std::vector<std::string> problems = spirv::validate(*words, options.target);
  INFO("target " << spirv::to_string(options.target) << "\n" << *text);
  for (const std::string& p : problems) UNSCOPED_INFO(p);
  REQUIRE(problems.empty());
  return {std::move(*words), std::move(*text)};
}

// A struct member; the fields not given keep their defaults, so tests need
// no edit when StructMember grows.
inline ir::StructMember member(std::string name, ir::TypeId type,
                               ir::MatrixLayout layout = ir::MatrixLayout::Default) {
  ir::StructMember sm;
  sm.name = std::move(name);
  sm.type = type;
  sm.matrix_layout = layout;
  return sm;
}

// Every target environment, for tests that validate a module on each.
inline std::vector<spirv::TargetEnv> all_targets() {
  std::vector<spirv::TargetEnv> out;
  for (int i = 0; i <= static_cast<int>(spirv::TargetEnv::Spirv1_6); ++i) out.push_back(static_cast<spirv::TargetEnv>(i));
  return out;
}

// Requires `m` to be valid IR, then emits it on every target environment,
// with and without promotion to SSA, each module spirv-val-clean.
inline std::vector<Emitted> emit_everywhere(const ir::Module& m) {
  const auto problems = validator::validate(m);
  INFO(validator::describe(m, problems));
  REQUIRE(problems.empty());
  std::vector<Emitted> out;
  for (spirv::TargetEnv target : all_targets()) {
    for (bool ssa : {true, false}) {
      spirv::Options options;
      options.target = target;
      options.promote_to_ssa = ssa;
      out.push_back(emit_checked(m, options));
    }
  }
  return out;
}

// Lines of `text` containing `needle`.
inline std::vector<std::string> lines_with(std::string_view text, std::string_view needle) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    if (line.find(needle) != std::string_view::npos) out.emplace_back(line);
    start = end + 1;
  }
  return out;
}

inline std::size_t count_of(std::string_view text, std::string_view needle) { return lines_with(text, needle).size(); }

// The instruction lines of `text` from the line holding `label` = OpLabel up
// to (not including) the next OpLabel: one block of the disassembly.
inline std::vector<std::string> block_of(std::string_view text, std::string_view label) {
  std::vector<std::string> out;
  bool inside = false;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    if (line.find("OpLabel") != std::string_view::npos) {
      if (inside) break;
      inside = line.find(std::string(label) + " ") != std::string_view::npos;
    } else if (inside) {
      out.emplace_back(line);
    }
    start = end + 1;
  }
  return out;
}

// The SPIR-V golden of `name` (tests/golden/spirv/<name>.spvasm) for `m`,
// after checking that the module validates.
inline void check_spirv_golden(const std::string& name, const ir::Module& m, const spirv::Options& options = {}) {
  const Emitted e = emit_checked(m, options);
  check_golden("spirv/" + name + ".spvasm", e.text);
}

}  // namespace sluice::testing
