// The compile pipeline every `sluice` subcommand shares: source text →
// front end (λV or GLSL, by file extension or --language) → validated IR →
// Sluice's passes (-O0/-O1 or --passes) → SPIR-V or GLSL. Each step reports
// failure as text ready for stderr; nothing here prints or exits.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "ir/module.h"
#include "output/glsl/glsl_output.h"
#include "output/spirv/spirv_output.h"
#include "transform/ub_check.h"
#include "transform/workarounds.h"
#include "ub_findings.h"

namespace sluice::tools {

struct PipelineOptions {
  std::string language;  // "lv", "glsl" or "spirv"; empty: from the file name
  std::optional<ir::ShaderStage> stage;
  bool auto_map_locations = false;
  bool auto_map_bindings = false;
  // GLSL input, as glslangValidator's -D/-U (in command-line order), -I and
  // --source-entrypoint (glsl_in::Options).
  std::vector<std::pair<std::string, std::optional<std::string>>> macros;
  std::vector<std::string> include_dirs;
  std::string source_entry_point;
  std::string opt_level = "O1";
  std::string passes;  // --passes=a,b,c replaces the -O pipeline
  bool print_after_all = false;
  bool validate_each_pass = false;
  // --workarounds: none, all, auto (render/xcheck: the device's) or a list;
  // finish_pipeline_options resolves all but auto into workaround_names.
  std::string workarounds = "none";
  std::vector<std::string> workaround_names;
  // --fp-contract=on|off: "off" forbids floating-point contraction in the
  // SPIR-V output (spirv::Options::no_contraction); the GLSL output cannot
  // promise that for every operation and refuses (emit_glsl()).
  std::string fp_contract = "on";
  spirv::Options spirv;
  glsl_out::Options glsl;
  // --ub-check (docs/ub-check.md): the ub-check pass runs first, before
  // the -O pipeline; --ub-set, --ub-binding, --ub-capacity.
  bool ub_check = false;
  transform::UbCheckOptions ub;
};

// Adds the options above to a subcommand (compile, render and xcheck share them).
void add_pipeline_options(CLI::App& sub, PipelineOptions& options);
// --fp-contract=on|off (compile, render, xcheck and bench-run share it).
void add_fp_contract_option(CLI::App& sub, std::string& fp_contract);
// Sets the -O level and what it means beyond the pass pipeline: -O0 keeps
// every variable in memory in the SPIR-V output (no promotion to SSA).
void set_opt_level(PipelineOptions& options, const std::string& level);
// Converts the string-valued options after parsing; an error message or empty.
std::string finish_pipeline_options(PipelineOptions& options, const std::string& target_env,
                                    const std::string& glsl_version, const std::string& glsl_flavour,
                                    const std::string& stage);

// Resolves --workarounds=auto for the device a subcommand runs on; an error
// message or empty.
std::string resolve_auto_workarounds(PipelineOptions& options, const transform::DeviceIdentity& device);

struct StepFailure {
  std::string message;  // ready for stderr, ends in a newline
  int exit_code = 1;    // 1: bad input; 2: a bug in Sluice (invalid IR), kExitInternal
  // The step does not apply under the options given (Sluice's GLSL under
  // --fp-contract=off): xcheck and bench-run report the variant skipped,
  // with the message, rather than failed.
  bool skip = false;
};

template <class T>
struct StepResult {
  std::optional<T> value;
  StepFailure failure;
  bool ok() const { return value.has_value(); }
};

bool is_lambdav_path(const std::string& path);
bool is_glsl_path(const std::string& path);
bool is_spirv_path(const std::string& path);  // .spv or .spvasm

// Front end, validation, then the pass pipeline; `print` receives what
// --print-after-all writes, `included_files` the files #include read,
// `ub_map` (with --ub-check) the findings buffer's place and locations.
StepResult<ir::Module> compile_to_ir(const std::string& source, const std::string& display_name,
                                     const PipelineOptions& options, std::string* print_after_all_text = nullptr,
                                     std::vector<std::string>* included_files = nullptr, UbMap* ub_map = nullptr);

// "lv", "glsl", "spirv", or empty when neither --language nor the name tells.
std::string input_language(const PipelineOptions& options, const std::string& display_name);

// `display_name` (the input's) tells whether the module is λV's, whose
// SPIR-V preserves Inf, NaN and signed zeros where the target allows
// (spirv::Options::preserve_float_specials).
StepResult<std::vector<std::uint32_t>> emit_spirv(const ir::Module& m, const PipelineOptions& options,
                                                  const std::string& display_name = "");
// Refused (exit code 1) under --fp-contract=off: GLSL can forbid contraction
// only through `precise` on the variable an expression's result reaches,
// which leaves unprotected every operation whose value goes elsewhere (a
// condition, an index, a call's argument, a buffer store).
StepResult<std::string> emit_glsl(const ir::Module& m, const PipelineOptions& options);

std::optional<std::string> read_text_file(const std::string& path);

}  // namespace sluice::tools
