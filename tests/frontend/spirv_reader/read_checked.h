// What most SPIR-V reader tests start with: SPIR-V (assembly or binary)
// read into IR that the validator accepts, and Sluice's SPIR-V of that IR
// accepted by spirv-val (Vulkan 1.0).
#pragma once

#include <string>

#include <catch2/catch.hpp>

#include "frontend/spirv/reader.h"
#include "ir/module.h"
#include "output/spirv/spirv_output.h"
#include "validator/validator.h"

namespace sluice::testing {

inline ir::Module read_checked(const std::string& text, const std::string& name) {
  auto m = spirv_in::read_bytes(text, {name});
  INFO(text);
  INFO((m.ok() ? std::string() : m.error()));
  REQUIRE(m.ok());
  const auto problems = validator::validate(*m);
  INFO(validator::describe(*m, problems));
  REQUIRE(problems.empty());
  auto words = spirv::emit(*m);
  INFO((words.ok() ? std::string() : words.error()));
  REQUIRE(words.ok());
  const auto val = spirv::validate(*words, spirv::TargetEnv::Vulkan1_0);
  INFO((val.empty() ? std::string() : val.front()));
  CHECK(val.empty());
  return std::move(*m);
}

}  // namespace sluice::testing
