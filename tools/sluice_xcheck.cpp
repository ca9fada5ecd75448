// `sluice xcheck [FILES or DIRS] [--device cpu|gpu|N] [--json report.json]`:
// proves that what Sluice emits computes the right thing by running it
// several ways on the Vulkan runner and comparing the results.
//   GLSL (.frag, .comp): glslang's own SPIR-V is the reference; variants are
//     Sluice's SPIR-V and Sluice's re-emitted GLSL compiled by glslang.
//     .vert, .geom, .tesc, .tese: the same, drawn between partner stages
//     that feed the shader fixed inputs and write what it produced to the
//     framebuffer (exec/partner_shaders.h). --spirv-input-glsl adds
//     glslang's SPIR-V read by Sluice's SPIR-V front end (spirv-in-spirv,
//     spirv-in-glsl).
//   SPIR-V (.spv, .spvasm): the module as given is the reference; variants
//     are Sluice's SPIR-V and GLSL from it (the SPIR-V front end).
//   Amber (.amber): the script's own SPIR-V is the reference (and its
//     EXPECTs must pass); the variants replace its shaders: the .frag beside
//     the script compiled as above, and the script's SPIR-V through Sluice's
//     SPIR-V front end (xcheck_amber.h; --spirv-input-every, --peer).
//   λV (.lv): Sluice's SPIR-V is the reference, Sluice's GLSL the variant,
//     and `; expect: r g b a` (every pixel) or `; expect X Y: r g b a` lines
//     are checked against the reference's output location 0.
// A .frag with an .amber of the same name beside it is checked through the
// script only. Comparison rules: src/exec/compare.h. Every SPIR-V module
// passes spirv-val before it reaches the driver, and each file runs in a
// child process (xcheck_schedule.h), so a driver crash or hang on one shader
// is that file's error, and files run on every core; on a GPU, a hang or
// device loss stops the run and names the file that caused it.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "exec/device_support.h"
#include "exec/glsl_compiler/glsl_compile.h"
#include "device_probe.h"
#include "exec/partner_shaders.h"
#include "exec/spirv_module.h"
#include "process_pool.h"
#include "exec/runner.h"
#include "exec/xcheck.h"
#include "sluice_commands.h"
#include "sluice_pipeline.h"
#include "spirv_cross_peer.h"
#include "xcheck_amber.h"
#include "xcheck_report.h"
#include "xcheck_schedule.h"
#include "xcheck_ub.h"
#include "xcheck_variants.h"

namespace sluice::tools {
namespace {

namespace fs = std::filesystem;

struct XcheckArgs {
  std::vector<std::string> paths;
  std::string device = "cpu";
  std::string json;
  std::string target_env;
  unsigned jobs = 0;  // 0: one per core
  unsigned timeout_seconds = 600;
  std::string known_failures;  // file listing "NAME  reason" lines
  // The Amber scripts' own SPIR-V through Sluice's SPIR-V front end: on
  // every Nth script (in the order run), 0 for none.
  unsigned spirv_input_every = 1;
  // GLSL files: glslang's SPIR-V through Sluice's SPIR-V front end too.
  bool spirv_input_glsl = false;
  std::string peer;  // "spirv-cross" or empty
  std::string ub_report;  // --ub-check: the findings as JSON
  PipelineOptions pipeline;
};

// Known failures: "file-name reason..." per line, '#' comments. Listed
// files are not run; they are reported as skipped with their reason.
std::map<std::string, std::string> read_known_failures(const std::string& path) {
  std::map<std::string, std::string> out;
  std::istringstream in(read_text_file(path).value_or(""));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    // A name alone, with or without trailing blanks, has no reason.
    const auto space = line.find_first_of(" \t");
    const auto reason_at = space == std::string::npos ? space : line.find_first_not_of(" \t", space);
    out[line.substr(0, space)] = reason_at == std::string::npos ? "" : line.substr(reason_at);
  }
  return out;
}

bool checkable(const fs::path& p) {
  const std::string ext = p.extension().string();
  if (ext == ".amber" || ext == ".lv" || ext == ".spv" || ext == ".spvasm" || ext == ".comp" || ext == ".vert" || ext == ".geom" || ext == ".tesc" ||
      ext == ".tese")
    return true;
  if (ext == ".frag") return !fs::exists(fs::path(p).replace_extension(".amber"));
  return false;
}

std::vector<std::string> collect_files(const std::vector<std::string>& paths, std::string& errors) {
  std::vector<std::string> files;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::recursive_directory_iterator();
           it.increment(ec))
        if (it->is_regular_file() && checkable(it->path())) found.push_back(it->path().string());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(p, ec)) {
      files.push_back(p);
    } else {
      errors += fmt::format("sluice: error: no such file or directory '{}'\n", p);
    }
  }
  return files;
}

// The partner stages around a vertex, geometry or tessellation shader
// (exec/partner_shaders.h), compiled by glslang, with `reference` in the
// checked shader's slot.
Result<std::pair<std::vector<exec::PipelineStage>, exec::PartnerShaders>> partner_pipeline(
    exec::ShaderStage stage, const std::vector<std::uint32_t>& reference, const PipelineOptions& options) {
  auto module = exec::SpirvModule::parse(reference);
  if (!module) return module.failure();
  auto partners = exec::partner_shaders(*module, stage);
  if (!partners) return partners.failure();
  std::vector<exec::PipelineStage> pipeline;
  for (const auto& [partner_stage, text] : partners->stages) {
    if (text.empty()) {
      pipeline.push_back({partner_stage, reference});
      continue;
    }
    auto words = exec::compile_glsl(text, partner_stage, glslang_options(options));
    if (!words) return internal_error("internal error: glslang rejected a partner shader: " + words.error() + "\n" + text);
    pipeline.push_back({partner_stage, std::move(*words)});
  }
  return std::pair{std::move(pipeline), std::move(*partners)};
}

// The reference SPIR-V (`reference_name`: glslang's for GLSL, the file
// itself for SPIR-V) against Sluice's SPIR-V and Sluice's GLSL made from
// `source`, the file's text or bytes, and with `peer`, SPIRV-Cross's GLSL of
// the reference; with `spirv_input`, also the reference read by Sluice's
// SPIR-V front end, then Sluice's SPIR-V and GLSL from it (spirv-in-spirv,
// spirv-in-glsl).
FileOutcome check_shader(exec::Runner& runner, const std::string& path, exec::ShaderStage stage,
                         const std::string& source, const std::vector<std::uint32_t>& reference,
                         const char* reference_name, const PipelineOptions& options, bool peer,
                         bool spirv_input = false, bool ub_check = false) {
  FileOutcome out{path, {}, {}};
  if (const auto messages = spirv::validate(reference, options.spirv.target); !messages.empty()) {
    out.variants.push_back({reference_name, CheckStatus::Skip, "the reference SPIR-V fails spirv-val: " + messages.front()});
    return out;
  }
  const bool drawn_with_partners = stage != exec::ShaderStage::Fragment && stage != exec::ShaderStage::Compute;
  std::string uncaptured;
  std::vector<exec::PipelineStage> pipeline;
  std::size_t checked = 0;
  if (drawn_with_partners) {
    auto partners = partner_pipeline(stage, reference, options);
    if (!partners) {
      out.variants.push_back({reference_name, CheckStatus::Skip, first_line(partners.error())});
      return out;
    }
    pipeline = std::move(partners->first);
    checked = partners->second.checked;
    for (const auto& name : partners->second.uncaptured) uncaptured += (uncaptured.empty() ? "" : ", ") + name;
  }
  // A capability the device does not enable makes the reference itself
  // invalid to run there (exec/device_support.h): nothing to compare.
  if (auto why = exec::unsupported_capability(reference, runner.context())) {
    out.variants.push_back({reference_name, CheckStatus::Skip, "the device cannot run it: " + *why});
    return out;
  }
  SluiceVariants v = compile_variants(source, path, stage, options);
  std::vector<exec::SpirvVariant> runnable;
  std::vector<VariantOutcome> failed;
  auto add = [&](const char* name, const StepResult<std::vector<std::uint32_t>>& step) {
    if (step.ok()) runnable.push_back({name, *step.value});
    else failed.push_back({name, step.failure.skip ? CheckStatus::Skip : CheckStatus::Error, first_line(step.failure.message)});
  };
  add("sluice-spirv", v.spirv);
  add("sluice-glsl", v.via_glsl);
  if (spirv_input) {
    PipelineOptions from_spirv = options;
    from_spirv.language = "spirv";
    const std::string bytes(reinterpret_cast<const char*>(reference.data()), reference.size() * 4);
    const SluiceVariants s = compile_variants(bytes, path + " (" + reference_name + ")", stage, from_spirv);
    add("spirv-in-spirv", s.spirv);
    add("spirv-in-glsl", s.via_glsl);
  }
  const char* kPeer = "spirv-cross";
  if (peer) add(kPeer, spirv_cross_variant(reference, stage, options));
  auto report = drawn_with_partners ? exec::xcheck_stages(runner, pipeline, checked, runnable)
                                    : exec::xcheck_shader(runner, reference, runnable);
  if (!report) {
    out.variants.push_back({reference_name, CheckStatus::Error, first_line(report.error())});
    return out;
  }
  out.variants.push_back(
      {reference_name, CheckStatus::Pass, uncaptured.empty() ? "" : "outputs not compared: " + uncaptured});
  for (const auto& r : report->variants) out.variants.push_back(from_result(r));
  for (auto& f : failed) out.variants.push_back(std::move(f));
  for (auto& o : out.variants) o.peer = o.name == kPeer;
  if (ub_check) {
    if (drawn_with_partners)
      out.variants.push_back({kUbVariant, CheckStatus::Skip, "--ub-check runs fragment and compute shaders only"});
    else
      out.variants.push_back(ub_check_shader(runner, source, path, reference, {}, options));
  }
  return out;
}

FileOutcome check_glsl(exec::Runner& runner, const std::string& path, const PipelineOptions& options, bool peer,
                       bool spirv_input, bool ub_check) {
  auto stage = exec::shader_stage_from_path(path);
  if (!stage) return {path, {{"glslang-spirv", CheckStatus::Skip, first_line(stage.error())}}, {}};
  const auto source = read_text_file(path);
  auto reference = source ? exec::compile_glsl(*source, *stage, glslang_options(options))
                          : Result<std::vector<std::uint32_t>>(Error{"cannot read"});
  if (!reference)
    return {path, {{"glslang-spirv", CheckStatus::Skip, "glslang cannot compile it: " + first_line(reference.error())}}, {}};
  return check_shader(runner, path, *stage, *source, *reference, "glslang-spirv", options, peer, spirv_input,
                      ub_check);
}

// The stage of a SPIR-V module's first entry point, the one the reader reads.
Result<exec::ShaderStage> entry_point_stage(const std::vector<std::uint32_t>& words) {
  auto module = exec::SpirvModule::parse(words);
  if (!module) return module.failure();
  if (module->entry_points().empty()) return Error{"the module has no OpEntryPoint"};
  switch (module->entry_points().front().model) {
    case exec::spv::Vertex: return exec::ShaderStage::Vertex;
    case exec::spv::TessellationControl: return exec::ShaderStage::TessControl;
    case exec::spv::TessellationEvaluation: return exec::ShaderStage::TessEvaluation;
    case exec::spv::Geometry: return exec::ShaderStage::Geometry;
    case exec::spv::Fragment: return exec::ShaderStage::Fragment;
    case exec::spv::GLCompute: return exec::ShaderStage::Compute;
  }
  return Error{fmt::format("execution model {} cannot be run", module->entry_points().front().model)};
}

// A SPIR-V binary or assembly text: the module as given is the reference.
FileOutcome check_spirv(exec::Runner& runner, const std::string& path, const PipelineOptions& options, bool peer,
                        bool ub_check) {
  const auto source = read_text_file(path);
  auto reference = exec::read_spirv_file(path);
  if (!source || !reference)
    return {path, {{"input-spirv", CheckStatus::Error, first_line(reference ? "cannot read" : reference.error())}}, {}};
  auto stage = entry_point_stage(*reference);
  if (!stage) return {path, {{"input-spirv", CheckStatus::Skip, first_line(stage.error())}}, {}};
  return check_shader(runner, path, *stage, *source, *reference, "input-spirv", options, peer, false, ub_check);
}

struct Expectation {
  std::optional<std::pair<std::uint32_t, std::uint32_t>> pixel;  // every pixel when unset
  std::array<float, 4> rgba{};
};

std::vector<Expectation> read_expectations(const std::string& source) {
  std::vector<Expectation> out;
  std::istringstream in(source);
  std::string line;
  while (std::getline(in, line)) {
    const auto at = line.find("; expect");
    if (at == std::string::npos) continue;
    Expectation e;
    unsigned x = 0, y = 0;
    const char* text = line.c_str() + at;
    if (std::sscanf(text, "; expect %u %u: %f %f %f %f", &x, &y, &e.rgba[0], &e.rgba[1], &e.rgba[2], &e.rgba[3]) == 6)
      e.pixel = {x, y};
    else if (std::sscanf(text, "; expect: %f %f %f %f", &e.rgba[0], &e.rgba[1], &e.rgba[2], &e.rgba[3]) != 4)
      continue;
    out.push_back(e);
  }
  return out;
}

// Expectations are written as short decimals: a value matches within 1e-5
// relative (or absolute near 0), which is far below what a wrong program gives.
std::optional<std::string> check_expectations(const exec::Image& image, const std::vector<Expectation>& expects) {
  static const char* kChannel = "RGBA";
  auto close = [](float a, float b) { return std::fabs(a - b) <= 1e-5f * std::max(1.0f, std::fabs(b)); };
  for (const auto& e : expects) {
    for (std::uint32_t y = 0; y < image.height; ++y)
      for (std::uint32_t x = 0; x < image.width; ++x) {
        if (e.pixel && (e.pixel->first != x || e.pixel->second != y)) continue;
        for (std::uint32_t c = 0; c < 4; ++c)
          if (!close(image.at(x, y, c), e.rgba[c]))
            return fmt::format("pixel ({}, {}), channel {}: expected {}, got {}", x, y, kChannel[c], e.rgba[c],
                               image.at(x, y, c));
      }
  }
  return std::nullopt;
}

FileOutcome check_lambdav(exec::Runner& runner, const std::string& path, const PipelineOptions& options,
                          bool ub_check) {
  FileOutcome out{path, {}, {}};
  const auto source = read_text_file(path);
  if (!source) return {path, {{"sluice-spirv", CheckStatus::Error, fmt::format("cannot read '{}'", path)}}, {}};
  SluiceVariants v = compile_variants(*source, path, exec::ShaderStage::Fragment, options);
  if (!v.spirv.ok()) {
    out.variants.push_back({"sluice-spirv", CheckStatus::Error, first_line(v.spirv.failure.message)});
    return out;
  }
  exec::ShaderRunSettings settings;
  settings.draw.width = settings.draw.height = 64;
  auto reference = exec::run_shader(runner, *v.spirv.value, settings);
  if (!reference) {
    out.variants.push_back({"sluice-spirv", CheckStatus::Error, first_line(reference.error())});
    return out;
  }
  const auto expects = read_expectations(*source);
  if (!expects.empty()) {
    auto wrong = reference->images.empty() ? std::optional<std::string>("no output") : check_expectations(reference->images[0], expects);
    out.variants.push_back({"expectation", wrong ? CheckStatus::Fail : CheckStatus::Pass, wrong.value_or("")});
  } else {
    // Without an expectation Sluice's SPIR-V is compared only with Sluice's
    // GLSL: a bug both share would pass, so the file is reported unchecked.
    out.variants.push_back({"expectation", CheckStatus::Skip,
                            "unchecked: no `; expect` line, so Sluice is compared only with itself"});
  }
  out.variants.push_back({"sluice-spirv", CheckStatus::Pass, ""});
  if (ub_check) out.variants.push_back(ub_check_shader(runner, *source, path, *v.spirv.value, settings, options));
  if (!v.via_glsl.ok()) {
    out.variants.push_back({"sluice-glsl", v.via_glsl.failure.skip ? CheckStatus::Skip : CheckStatus::Error,
                            first_line(v.via_glsl.failure.message)});
    return out;
  }
  auto report = exec::xcheck_shader(runner, *v.spirv.value, {{"sluice-glsl", *v.via_glsl.value}}, settings);
  if (!report) out.variants.push_back({"sluice-glsl", CheckStatus::Error, first_line(report.error())});
  else
    for (const auto& r : report->variants) out.variants.push_back(from_result(r));
  return out;
}

FileOutcome check_file(const std::string& file, const exec::DeviceChoice& device, const PipelineOptions& options,
                       const AmberCheckOptions& checks) {
  auto runner = exec::Runner::create(device);
  if (!runner) return {file, {{"runner", CheckStatus::Error, first_line(runner.error())}}, {}};
  const std::string ext = fs::path(file).extension().string();
  FileOutcome out = ext == ".amber"       ? check_amber(*runner, file, options, checks)
                    : ext == ".lv"        ? check_lambdav(*runner, file, options, checks.ub_check)
                    : is_spirv_path(file) ? check_spirv(*runner, file, options, checks.peer_spirv_cross, checks.ub_check)
                                          : check_glsl(*runner, file, options, checks.peer_spirv_cross,
                                                       checks.spirv_input, checks.ub_check);
  // Set once a submission timed out or the device was lost.
  out.device_failure = runner->context().unusable_reason();
  return out;
}

int run_xcheck(XcheckArgs& args) {
  if (auto e = finish_pipeline_options(args.pipeline, args.target_env, "", "", ""); !e.empty()) {
    std::cerr << "sluice: error: " << e << "\n";
    return kExitUsage;
  }
  // The plain variants run uninstrumented; --ub-check adds the ub-check
  // variant (xcheck_ub.h), which instruments its own copy.
  const bool ub_check = args.pipeline.ub_check;
  args.pipeline.ub_check = false;
  std::string errors;
  const auto files = collect_files(args.paths.empty() ? std::vector<std::string>{"."} : args.paths, errors);
  std::cerr << errors;
  auto device = exec::parse_device_choice(args.device);
  if (!device) {
    std::cerr << "sluice: error: " << device.error() << "\n";
    return kExitUsage;
  }
  const DeviceProbe probe = probe_device(*device);
  std::cerr << "sluice: xcheck on " << probe.description << "\n";
  if (auto e = resolve_auto_workarounds(args.pipeline, probe.identity); !e.empty()) {
    std::cerr << "sluice: error: " << e << "\n";
    return kExitUsage;
  }
  if (!args.pipeline.workaround_names.empty()) {
    std::string names;
    for (const auto& n : args.pipeline.workaround_names) names += (names.empty() ? "" : ", ") + n;
    std::cerr << "sluice: workarounds: " << names << "\n";
  }

  const auto known = read_known_failures(args.known_failures);
  std::vector<std::string> to_run;
  std::vector<FileOutcome> skipped;
  for (const auto& f : files) {
    auto it = known.find(fs::path(f).filename().string());
    if (it == known.end()) to_run.push_back(f);
    else skipped.push_back({f, {{"known-failure", CheckStatus::Skip, it->second}}, {}});
  }
  // Which Amber scripts also run the SPIR-V-input variants: a fixed stride
  // over the scripts to run, so a sample is the same from run to run.
  std::set<std::string> spirv_input;
  std::size_t amber_index = 0;
  for (const auto& f : to_run)
    if (fs::path(f).extension() == ".amber" && args.spirv_input_every && amber_index++ % args.spirv_input_every == 0)
      spirv_input.insert(f);
  if (args.peer == "spirv-cross" && !spirv_cross_available()) {
    std::cerr << "sluice: error: --peer spirv-cross: the spirv-cross tool is not on PATH (Debian package spirv-cross)\n";
    return kExitUsage;
  }
  const bool progress = isatty(STDERR_FILENO);
  ScheduleOptions schedule;
  schedule.jobs = args.jobs ? args.jobs : std::max(1u, std::thread::hardware_concurrency());
  schedule.limit = std::chrono::seconds(args.timeout_seconds);
  schedule.stop_on_device_failure = probe.is_gpu;
  auto run = run_checks(
      to_run, schedule,
      [&](const std::string& file) {
        // Amber scripts run the peer where they run the SPIR-V front end;
        // GLSL and SPIR-V files, every time.
        const bool amber = fs::path(file).extension() == ".amber";
        const bool spirv_in = spirv_input.count(file) != 0 || (args.spirv_input_glsl && is_glsl_path(file));
        return check_file(file, *device, args.pipeline,
                          {spirv_in, !args.peer.empty() && (spirv_in || !amber), ub_check});
      },
      [&](std::size_t finished, const std::string& file) {
        if (progress) std::cerr << fmt::format("\r\033[K[{}/{}] {}", finished, to_run.size(), file) << std::flush;
      });
  if (progress) std::cerr << "\r\033[K";
  if (!run.stopped.empty()) std::cerr << "sluice: xcheck stopped early: " << run.stopped << "\n";
  std::vector<FileOutcome>& outcomes = run.outcomes;
  outcomes.insert(outcomes.end(), skipped.begin(), skipped.end());
  const UbFindings findings = collect_ub_findings(outcomes);
  if (ub_check) {
    std::cout << describe_ub_findings(findings);
    if (!args.ub_report.empty() && !write_ub_report(args.ub_report, findings)) {
      errors += fmt::format("sluice: error: cannot write '{}'\n", args.ub_report);
      std::cerr << errors;
    }
  }
  std::cout << summary_table(outcomes, run.stopped);
  if (!args.json.empty()) std::ofstream(args.json) << json_report(outcomes, run.stopped);
  for (const auto& o : outcomes)
    if (o.status() == CheckStatus::Fail || o.status() == CheckStatus::Error) return kExitError;
  return errors.empty() ? kExitOk : kExitError;
}

}  // namespace

CommandAction add_xcheck_command(CLI::App& sub) {
  auto args = std::make_shared<XcheckArgs>();
  args->pipeline.auto_map_locations = args->pipeline.auto_map_bindings = true;
  args->pipeline.workarounds = "auto";
  sub.add_option("paths", args->paths,
                 "Files (.amber, .frag, .comp, .vert, .geom, .tesc, .tese, .lv, .spv, .spvasm) or directories to search");
  sub.add_option("--device", args->device, "cpu (lavapipe, default), gpu, or a device index");
  sub.add_option("--json", args->json, "Write a JSON report here");
  sub.add_option("--known-failures", args->known_failures,
                 "A list of file names (with reasons) not to run; they count as skipped");
  sub.add_option("-j,--jobs", args->jobs, "Files checked at once (default: one per core)");
  sub.add_option("--timeout", args->timeout_seconds, "Seconds one file may take before it counts as an error (default 600)");
  sub.add_option("--spirv-input-every", args->spirv_input_every,
                 "Amber: also run the script's SPIR-V through Sluice's SPIR-V front end (as SPIR-V and as GLSL) "
                 "on every Nth script; 0: on none (default 1: every script)");
  sub.add_flag("--spirv-input-glsl", args->spirv_input_glsl,
               "GLSL files: also run glslang's SPIR-V through Sluice's SPIR-V front end (as SPIR-V and as GLSL: the "
               "variants spirv-in-spirv and spirv-in-glsl)");
  sub.add_option("--peer", args->peer,
                 "Also run the reference SPIR-V (an Amber script's own, glslang's, or the .spv given) translated by "
                 "this peer (spirv-cross: SPIRV-Cross's GLSL, compiled by glslang), reported apart, never failing a "
                 "file; of the Amber scripts, on those --spirv-input-every picks")
      ->check(CLI::IsMember({"spirv-cross"}));
  sub.add_option("--ub-report", args->ub_report, "--ub-check: also write every file's findings as JSON");
  sub.add_option("--target-env", args->target_env, "SPIR-V target environment for Sluice's SPIR-V (default vulkan1.0)");
  sub.add_option("-O", args->pipeline.opt_level, "Sluice's pass pipeline: O0 or O1 (default)")
      ->transform([](std::string s) { return "O" + s; });
  add_pipeline_options(sub, args->pipeline);
  sub.footer("Example:\n  sluice xcheck examples ../shared/corpus/exec --json report.json\n"
             "  sluice xcheck ../shared/corpus/exec --peer spirv-cross   # with SPIRV-Cross's GLSL as a peer");
  return [args] { return run_xcheck(*args); };
}

}  // namespace sluice::tools
