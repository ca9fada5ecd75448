// The public entry points: target environments, emit() (module_emitter.cpp
// does the work), and the in-process SPIRV-Tools validator, disassembler
// and optimizer. Messages from SPIRV-Tools are collected into values; the
// optimizer's input is validated first so a bad module is reported, never
// optimized.
#include "output/spirv/spirv_output.h"

#include <array>

#include <fmt/format.h>
#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>

#include "validator/validator.h"

namespace sluice::spirv {
namespace detail {
Result<std::vector<std::uint32_t>> emit_module(const ir::Module& m, const Options& options);
}

namespace {

struct TargetInfo {
  TargetEnv env;
  std::string_view name;
  std::uint32_t version;
  spv_target_env tools_env;
};

constexpr std::array<TargetInfo, 11> kTargets = {{
    {TargetEnv::Vulkan1_0, "vulkan1.0", 0x00010000, SPV_ENV_VULKAN_1_0},
    {TargetEnv::Vulkan1_1, "vulkan1.1", 0x00010300, SPV_ENV_VULKAN_1_1},
    {TargetEnv::Vulkan1_2, "vulkan1.2", 0x00010500, SPV_ENV_VULKAN_1_2},
    {TargetEnv::Vulkan1_3, "vulkan1.3", 0x00010600, SPV_ENV_VULKAN_1_3},
    {TargetEnv::Spirv1_0, "spv1.0", 0x00010000, SPV_ENV_UNIVERSAL_1_0},
    {TargetEnv::Spirv1_1, "spv1.1", 0x00010100, SPV_ENV_UNIVERSAL_1_1},
    {TargetEnv::Spirv1_2, "spv1.2", 0x00010200, SPV_ENV_UNIVERSAL_1_2},
    {TargetEnv::Spirv1_3, "spv1.3", 0x00010300, SPV_ENV_UNIVERSAL_1_3},
    {TargetEnv::Spirv1_4, "spv1.4", 0x00010400, SPV_ENV_UNIVERSAL_1_4},
    {TargetEnv::Spirv1_5, "spv1.5", 0x00010500, SPV_ENV_UNIVERSAL_1_5},
    {TargetEnv::Spirv1_6, "spv1.6", 0x00010600, SPV_ENV_UNIVERSAL_1_6},
}};

const TargetInfo& info(TargetEnv env) { return kTargets[static_cast<std::size_t>(env)]; }

std::string format_message(spv_message_level_t level, const spv_position_t& position, const char* message) {
  const char* kind = level <= SPV_MSG_ERROR ? "error" : level == SPV_MSG_WARNING ? "warning" : "info";
  return fmt::format("{}: word {}: {}", kind, position.index, message ? message : "");
}

}  // namespace

std::optional<TargetEnv> target_env_from_string(std::string_view text) {
  std::string spelled(text);
  if (spelled.starts_with("spirv")) spelled = "spv" + spelled.substr(5);
  for (const TargetInfo& t : kTargets)
    if (t.name == spelled) return t.env;
  return std::nullopt;
}

std::string_view to_string(TargetEnv env) { return info(env).name; }
std::uint32_t spirv_version(TargetEnv env) { return info(env).version; }
bool is_vulkan(TargetEnv env) { return env <= TargetEnv::Vulkan1_3; }
spv_target_env spvtools_env(TargetEnv env) { return info(env).tools_env; }

Result<std::vector<std::uint32_t>> emit(const ir::Module& module, const Options& options) {
  // The emitter relies on the validator's guarantees (a tree, jumps where
  // the scope model allows them, operands as opcode.def says): it reports
  // only what valid IR may hold that SPIR-V cannot express.
  if (const auto problems = validator::validate(module, {1}); !problems.empty())
    return Error{"invalid IR: " + validator::describe(module, problems.front())};
  // The validator lets a module without functions through (a fragment of
  // IR); a shader module needs its entry point.
  if (!module.entry_point().valid()) return Error{"the module has no entry point (no function 'main')"};
  auto words = detail::emit_module(module, options);
  if (!words || !options.run_spirv_opt) return words;
  return optimize(*words, options.target);
}

std::vector<std::string> validate(std::span<const std::uint32_t> words, TargetEnv env) {
  std::vector<std::string> messages;
  spvtools::SpirvTools tools(info(env).tools_env);
  tools.SetMessageConsumer([&](spv_message_level_t level, const char*, const spv_position_t& position,
                               const char* message) { messages.push_back(format_message(level, position, message)); });
  spvtools::ValidatorOptions options;
  if (!tools.Validate(words.data(), words.size(), options) && messages.empty())
    messages.push_back("error: the validator rejected the module without a message");
  return messages;
}

Result<std::string> disassemble(std::span<const std::uint32_t> words, TargetEnv env) {
  std::string error;
  spvtools::SpirvTools tools(info(env).tools_env);
  tools.SetMessageConsumer([&](spv_message_level_t level, const char*, const spv_position_t& position,
                               const char* message) { error += format_message(level, position, message) + "\n"; });
  std::string text;
  const std::uint32_t flags = SPV_BINARY_TO_TEXT_OPTION_INDENT | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES;
  if (!tools.Disassemble(words.data(), words.size(), &text, flags))
    return Error{error.empty() ? "the disassembler rejected the module" : error};
  return text;
}

Result<std::vector<std::uint32_t>> optimize(std::span<const std::uint32_t> words, TargetEnv env) {
  if (auto problems = validate(words, env); !problems.empty())
    return Error{fmt::format("not optimizing an invalid module: {}", problems.front())};
  std::string error;
  spvtools::Optimizer optimizer(info(env).tools_env);
  optimizer.SetMessageConsumer([&](spv_message_level_t level, const char*, const spv_position_t& position,
                                   const char* message) {
    if (level <= SPV_MSG_ERROR) error += format_message(level, position, message) + "\n";
  });
  optimizer.RegisterPerformancePasses();
  std::vector<std::uint32_t> out;
  if (!optimizer.Run(words.data(), words.size(), &out)) return Error{error.empty() ? "spirv-opt failed" : error};
  return out;
}

}  // namespace sluice::spirv
