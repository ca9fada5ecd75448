#include "sluice_pipeline.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include <fmt/format.h>

#include "frontend/spirv/reader.h"
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
bool is_spirv_path(const std::string& path) { return ends_with(path, ".spv") || ends_with(path, ".spvasm"); }
bool is_glsl_path(const std::string& path) {
  // The mesh, task and ray-tracing extensions too: the front end refuses
  // them naming the stage.
  for (const char* ext : {".frag", ".vert", ".comp", ".geom", ".tesc", ".tese", ".glsl", ".mesh", ".task", ".rgen",
                          ".rint", ".rahit", ".rchit", ".rmiss", ".rcall"})
    if (ends_with(path, ext)) return true;
  return false;
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
  sub.add_option("--workarounds", options.workarounds,
                 "Driver workarounds (docs/workarounds.md): none, all, auto (the device's) or a comma-separated list")
      ->capture_default_str();
  add_fp_contract_option(sub, options.fp_contract);
  sub.add_flag("--ub-check", options.ub_check,
               "Instrument the shader with run-time checks for undefined behaviour (docs/ub-check.md)");
  sub.add_option("--ub-set", options.ub.set,
                 "--ub-check: the findings buffer's descriptor set (default: one past the shader's highest)");
  sub.add_option("--ub-binding", options.ub.binding, "--ub-check: the findings buffer's binding (default 0)");
  sub.add_option("--ub-capacity", options.ub.capacity, "--ub-check: records the findings buffer holds (default 65536)");
}

void add_fp_contract_option(CLI::App& sub, std::string& fp_contract) {
  sub.add_option("--fp-contract", fp_contract,
                 "on (default): the driver may fuse float operations (a * b + c into fma); off: Sluice's SPIR-V "
                 "decorates every float operation NoContraction (the GLSL output refuses off)")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
}

std::string resolve_auto_workarounds(PipelineOptions& options, const transform::DeviceIdentity& device) {
  if (options.workarounds != "auto") return {};
  auto names = transform::select_workarounds(options.workarounds, &device);
  if (!names) return names.error();
  options.workaround_names = std::move(*names);
  return {};
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
  else if (stage == "geom") options.stage = ir::ShaderStage::Geometry;
  else if (stage == "tesc") options.stage = ir::ShaderStage::TessControl;
  else if (stage == "tese") options.stage = ir::ShaderStage::TessEvaluation;
  else if (stage == "mesh" || stage == "task" || stage == "rgen" || stage == "rint" || stage == "rahit" ||
           stage == "rchit" || stage == "rmiss" || stage == "rcall")
    return fmt::format("the '{}' shader stage is not supported (vert, frag, comp, geom, tesc or tese)", stage);
  else if (!stage.empty()) return fmt::format("unknown stage '{}' (vert, frag, comp, geom, tesc or tese)", stage);
  set_opt_level(options, options.opt_level);
  if (options.fp_contract != "on" && options.fp_contract != "off")
    return fmt::format("unknown --fp-contract '{}' (on or off)", options.fp_contract);
  options.spirv.no_contraction = options.fp_contract == "off";
  if (options.workarounds != "auto") {
    auto names = transform::select_workarounds(options.workarounds, nullptr);
    if (!names) return names.error();
    options.workaround_names = std::move(*names);
  }
  return {};
}

void set_opt_level(PipelineOptions& options, const std::string& level) {
  options.opt_level = level;
  options.spirv.promote_to_ssa = level != "O0";
}

std::string input_language(const PipelineOptions& options, const std::string& display_name) {
  if (!options.language.empty()) return options.language;
  if (is_lambdav_path(display_name) || display_name == "<stdin>") return "lv";
  if (is_glsl_path(display_name)) return "glsl";
  if (is_spirv_path(display_name)) return "spirv";
  return "";
}

StepResult<ir::Module> compile_to_ir(const std::string& source, const std::string& display_name,
                                     const PipelineOptions& options, std::string* print_after_all_text,
                                     std::vector<std::string>* included_files, UbMap* ub_map) {
  StepResult<ir::Module> out;
  const std::string language = input_language(options, display_name);
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
    glsl_in::Options g;
    g.stage = options.stage;
    g.auto_map_locations = options.auto_map_locations;
    g.auto_map_bindings = options.auto_map_bindings;
    g.spirv_version = spirv::spirv_version(options.spirv.target);
    g.macros = options.macros;
    g.include_dirs = options.include_dirs;
    g.source_entry_point = options.source_entry_point;
    auto r = glsl_in::compile(source, display_name, g);
    if (included_files)
      for (const glsl_in::SourceFile& f : r.includes) included_files->push_back(f.path);
    rendered = glsl_in::render(r, display_name, source);  // included files' lines under their messages
    module = std::move(r.module);
    diagnostics = std::move(r.diagnostics);
  } else if (language == "spirv") {
    // SPIR-V input must be valid for the target it is translated to
    // (spirv_in::ReadOptions::validate_for says why).
    auto r = spirv_in::read_bytes(source, spirv_in::ReadOptions{display_name, spirv::spvtools_env(options.spirv.target)});
    if (!r) {
      out.failure = {r.error() + "\n", 1};
      return out;
    }
    module = std::move(r).value();
  } else {
    out.failure = {fmt::format("sluice: error: cannot tell the language of '{}': name it with --language "
                               "(lv for λV, glsl for .vert/.frag/.comp/.geom/.tesc/.tese, spirv for .spv/.spvasm)\n",
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
    std::string text = fmt::format("sluice: error: internal: the front end produced invalid IR for '{}' (please report this):\n",
                                   display_name);
    for (const auto& p : problems) text += p + "\n";
    out.failure = {text, 2};
    return out;
  }
  // ub-check runs on the IR as the front end built it, before any pass can
  // remove or introduce a condition (docs/ub-check.md).
  if (options.ub_check) {
    auto checked = transform::ub_check(*module, options.ub);
    if (!checked) {
      out.failure = {fmt::format("sluice: error: {}\n", checked.error()),
                     checked.failure().code == ErrorCode::Internal ? 2 : 1};
      return out;
    }
    if (auto problems = validation_messages(*module); !problems.empty()) {
      std::string text = fmt::format("sluice: error: internal: ub-check made invalid IR for '{}' (please report this):\n",
                                     display_name);
      for (const auto& p : problems) text += p + "\n";
      out.failure = {text, 2};
      return out;
    }
    if (ub_map) *ub_map = make_ub_map(*module, *checked);
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
    out.failure = {fmt::format("sluice: error: internal: {}\n", ran.error()), 2};
    return out;
  }
  // The passes may prove that no check can fire (a guarded value known to be
  // safe) and drop every report, and remove-unused-interface the findings
  // buffer with them: the map then says there is no buffer to read, as for
  // a shader with nothing to check.
  if (options.ub_check && ub_map && ub_map->sites > 0) {
    const bool declared = std::any_of(module->globals().begin(), module->globals().end(), [&](ir::VariableId v) {
      const ir::Decorations& d = module->variable(v).decorations;
      return d.set == ub_map->set && d.binding == ub_map->binding;
    });
    if (!declared) ub_map->sites = 0;
  }
  // Workarounds come last, so no pass undoes the shape they make.
  if (!options.workaround_names.empty()) {
    auto applied = transform::apply_workarounds(*module, options.workaround_names);
    std::vector<std::string> problems;
    if (applied && options.validate_each_pass) problems = validation_messages(*module);
    if (!applied || !problems.empty()) {
      std::string text = fmt::format("sluice: internal error: {}\n", applied ? "a workaround broke the IR" : applied.error());
      for (const auto& p : problems) text += p + "\n";
      out.failure = {text, 3};
      return out;
    }
    if (options.print_after_all && print_after_all_text)
      *print_after_all_text += transform::describe_after_pass("workarounds", *module);
  }
  out.value = std::move(*module);
  return out;
}

StepResult<std::vector<std::uint32_t>> emit_spirv(const ir::Module& m, const PipelineOptions& options,
                                                  const std::string& display_name) {
  StepResult<std::vector<std::uint32_t>> out;
  spirv::Options spirv = options.spirv;
  if (!display_name.empty() && input_language(options, display_name) == "lv") spirv.preserve_float_specials = true;
  // The workarounds the SPIR-V output does rather than an IR rewrite.
  const auto& names = options.workaround_names;
  const auto selected = [&](std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  spirv.fall_through_in_memory = selected(transform::kFallThroughInMemory);
  spirv.loop_vectors_in_memory = selected(transform::kLoopVectorsInMemory);
  spirv.loop_latch = selected(transform::kLoopLatch);
  spirv.uniform_loads_in_loops = selected(transform::kReloadUniformsInLoops);
  auto words = spirv::emit(m, spirv);
  if (!words) {
    out.failure.message = fmt::format("sluice: error: SPIR-V output: {}\n", words.error());
    return out;
  }
  out.value = std::move(*words);
  return out;
}

StepResult<std::string> emit_glsl(const ir::Module& m, const PipelineOptions& options) {
  StepResult<std::string> out;
  if (options.spirv.no_contraction) {
    out.failure.message =
        "sluice: error: GLSL output: --fp-contract=off is for SPIR-V output only: GLSL's `precise` protects only "
        "the operations whose value reaches a precise variable, not every operation\n";
    out.failure.skip = true;
    return out;
  }
  auto text = glsl_out::emit(m, options.glsl);
  if (!text) {
    out.failure.message = fmt::format("sluice: error: GLSL output: {}\n", text.error());
    return out;
  }
  out.value = std::move(*text);
  return out;
}

}  // namespace sluice::tools
