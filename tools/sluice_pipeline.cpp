#include "sluice_pipeline.h"

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include <fmt/format.h>

#include "frontend/glsl/glsl_frontend.h"
#include "frontend/lambdav/lambdav.h"
#include "ir/diagnostic.h"
#include "transform/pass_manager.h"
#include "validator/validator.h"

namespace sluice::tools {
namespace {

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::vector<std::string> validation_messages(const ir::Module& m) {
  std::vector<std::string> out;
  const auto problems = validator::validate(m);
  for (const auto& p : problems) out.push_back(validator::describe(m, p));
  return out;
}

}  // namespace

bool is_lambdav_path(const std::string& path) { return ends_with(path, ".lv"); }
bool is_glsl_path(const std::string& path) {
  return ends_with(path, ".frag") || ends_with(path, ".vert") || ends_with(path, ".comp") ||
         ends_with(path, ".glsl");
}

std::optional<std::string> read_text_file(const std::string& path) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    return ss.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void add_pipeline_options(CLI::App& sub, PipelineOptions& options) {
  sub.add_option("--language", options.language, "Source language when the file name does not tell: lv or glsl");
  sub.add_flag("--auto-map-locations,--aml", options.auto_map_locations,
               "GLSL: give in/out variables without a location the next free one");
  sub.add_flag("--auto-map-bindings,--amb", options.auto_map_bindings,
               "GLSL: give resources without a binding the next free one");
  sub.add_flag("--print-after-all", options.print_after_all, "Print the IR after every pass (to stderr)");
  sub.add_flag("--validate-each-pass", options.validate_each_pass,
               "Run the IR validator after every pass and name the pass that broke the IR");
  sub.add_option("--passes", options.passes, "Run these passes (comma-separated) instead of the -O pipeline");
}

std::string finish_pipeline_options(PipelineOptions& options, const std::string& target_env,
                                    const std::string& glsl_version, const std::string& glsl_flavour,
                                    const std::string& stage) {
  if (!target_env.empty()) {
    auto env = spirv::target_env_from_string(target_env);
    if (!env) return fmt::format("unknown --target-env '{}' (vulkan1.0 … vulkan1.3, spv1.0 … spv1.6)", target_env);
    options.spirv.target = *env;
  }
  if (!glsl_version.empty()) {
    auto v = glsl_out::parse_version(glsl_version);
    if (!v) return v.error();
    options.glsl.version = *v;
  }
  if (glsl_flavour == "opengl") options.glsl.flavour = glsl_out::Flavour::OpenGL;
  else if (!glsl_flavour.empty() && glsl_flavour != "vulkan")
    return fmt::format("unknown --glsl-flavour '{}' (vulkan or opengl)", glsl_flavour);
  if (stage == "vert") options.stage = ir::ShaderStage::Vertex;
  else if (stage == "frag") options.stage = ir::ShaderStage::Fragment;
  else if (stage == "comp") options.stage = ir::ShaderStage::Compute;
  else if (!stage.empty()) return fmt::format("unknown stage '{}' (vert, frag or comp)", stage);
  if (options.opt_level == "O0") options.spirv.promote_to_ssa = false;
  return {};
}

StepResult<ir::Module> compile_to_ir(const std::string& source, const std::string& display_name,
                                     const PipelineOptions& options, std::string* print_after_all_text,
                                     std::vector<std::string>* included_files) {
  StepResult<ir::Module> out;
  std::string language = options.language;
  if (language.empty()) {
    if (is_lambdav_path(display_name) || display_name == "<stdin>") language = "lv";
    else if (is_glsl_path(display_name)) language = "glsl";
  }
  std::optional<ir::Module> module;
  Diagnostics diagnostics;
  std::string rendered;  // diagnostics as text, when the front end renders them itself
  if (language == "lv") {
    lambdav::CompileOptions lv;
    lv.file_name = display_name;
    auto r = lambdav::compile(source, lv);
    module = std::move(r.module);
    diagnostics = std::move(r.diagnostics);
  } else if (language == "glsl") {
    glsl::Options g;
    g.stage = options.stage;
    g.auto_map_locations = options.auto_map_locations;
    g.auto_map_bindings = options.auto_map_bindings;
    g.macros = options.macros;
    g.include_dirs = options.include_dirs;
    g.source_entry_point = options.source_entry_point;
    auto r = glsl::compile(source, display_name, g);
    if (included_files)
      for (const glsl::SourceFile& f : r.includes) included_files->push_back(f.path);
    rendered = glsl::render(r, display_name, source);  // included files' lines under their messages
    module = std::move(r.module);
    diagnostics = std::move(r.diagnostics);
  } else {
    out.failure = {fmt::format("sluice: error: cannot tell the language of '{}': name it with --language "
                               "(lv for λV, glsl for .vert/.frag/.comp)\n",
                               display_name),
                   2};
    return out;
  }
  if (!module) {
    out.failure.message = rendered.empty() ? render(diagnostics, source) : rendered;
    if (diagnostics.empty()) out.failure.message = fmt::format("{}: error: compilation failed\n", display_name);
    return out;
  }
  if (auto problems = validation_messages(*module); !problems.empty()) {
    std::string text = fmt::format("sluice: internal error: the front end produced invalid IR for '{}' (please report this):\n",
                                   display_name);
    for (const auto& p : problems) text += p + "\n";
    out.failure = {text, 3};
    return out;
  }
  transform::PassManager pm;
  auto pipeline = options.passes.empty() ? pm.pipeline(options.opt_level) : pm.parse_pass_list(options.passes);
  if (!pipeline) {
    out.failure = {fmt::format("sluice: error: {}\n", pipeline.error()), 2};
    return out;
  }
  transform::RunOptions run;
  if (options.validate_each_pass) run.validate = validation_messages;
  if (options.print_after_all && print_after_all_text) {
    run.print_after_all = true;
    run.print = [print_after_all_text](std::string_view pass, const ir::Module& m) {
      *print_after_all_text += transform::describe_after_pass(pass, m);
    };
  }
  auto ran = pm.run(*module, *pipeline, run);
  if (!ran) {
    out.failure = {fmt::format("sluice: internal error: {}\n", ran.error()), 3};
    return out;
  }
  out.value = std::move(*module);
  return out;
}

StepResult<std::vector<std::uint32_t>> emit_spirv(const ir::Module& m, const PipelineOptions& options) {
  StepResult<std::vector<std::uint32_t>> out;
  auto words = spirv::emit(m, options.spirv);
  if (!words) {
    out.failure.message = fmt::format("sluice: error: SPIR-V output: {}\n", words.error());
    return out;
  }
  out.value = std::move(*words);
  return out;
}

StepResult<std::string> emit_glsl(const ir::Module& m, const PipelineOptions& options) {
  StepResult<std::string> out;
  auto text = glsl_out::emit(m, options.glsl);
  if (!text) {
    out.failure.message = fmt::format("sluice: error: GLSL output: {}\n", text.error());
    return out;
  }
  out.value = std::move(*text);
  return out;
}

}  // namespace sluice::tools
