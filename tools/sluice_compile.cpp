// `sluice compile FILE... [-o OUT] [--emit ir|spv|spvasm|glsl]`: compiles
// λV (.lv) or GLSL (.vert/.frag/.comp) through Sluice's IR and passes to the
// chosen target. Several files, or -o naming a directory, is batch mode: one
// process compiles them all on every core (modules share nothing, so each
// worker thread takes the next file).
//
// Nothing is written for a file that fails: output is made in memory first.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "ir/dump.h"
#include "sluice_commands.h"
#include "sluice_pipeline.h"

namespace sluice::tools {
namespace {

namespace fs = std::filesystem;

struct CompileArgs {
  std::vector<std::string> inputs;
  std::string output;
  std::string emit;
  std::string target_env;
  std::string glsl_version;
  std::string glsl_flavour;
  std::string stage;
  std::string opt = "1";
  bool validate = false;
  bool spirv_opt = false;
  PipelineOptions pipeline;
};

struct Target {
  std::string_view name;
  std::string_view description;
  std::string_view extension;  // for batch outputs
  bool binary;
};

constexpr Target kTargets[] = {
    {"ir", "the Sluice IR in ir-dump's text form", ".ir", false},
    {"spv", "a SPIR-V binary module", ".spv", true},
    {"spvasm", "SPIR-V assembly text", ".spvasm", false},
    {"glsl", "GLSL source", ".glsl", false},
};

const Target* find_target(std::string_view name) {
  for (const Target& t : kTargets)
    if (t.name == name) return &t;
  return nullptr;
}

// The target -o's extension implies when --emit is not given.
std::string_view implied_target(const std::string& output) {
  const std::string ext = fs::path(output).extension().string();
  if (ext == ".spv") return "spv";
  if (ext == ".spvasm") return "spvasm";
  if (ext == ".glsl" || ext == ".frag" || ext == ".vert" || ext == ".comp") return "glsl";
  return "ir";
}

struct FileResult {
  std::string bytes;   // the output
  std::string errors;  // for stderr
  std::string notes;   // --print-after-all text, spirv-val messages
  int exit_code = 0;
};

FileResult compile_one(const std::string& input, const Target& target, const CompileArgs& args) {
  FileResult r;
  const auto source = read_text_file(input);
  if (!source) {
    r.errors = fmt::format("sluice: error: cannot read '{}'\n", input);
    r.exit_code = 1;
    return r;
  }
  const std::string display = input == "-" ? "<stdin>" : input;
  auto module = compile_to_ir(*source, display, args.pipeline, &r.notes);
  if (!module.ok()) {
    r.errors = module.failure.message;
    r.exit_code = module.failure.exit_code;
    return r;
  }
  if (target.name == "ir") {
    r.bytes = ir::dump(*module.value);
    return r;
  }
  if (target.name == "glsl") {
    auto text = emit_glsl(*module.value, args.pipeline);
    if (!text.ok()) {
      r.errors = text.failure.message;
      r.exit_code = 1;
      return r;
    }
    r.bytes = std::move(*text.value);
    return r;
  }
  auto words = emit_spirv(*module.value, args.pipeline);
  if (!words.ok()) {
    r.errors = words.failure.message;
    r.exit_code = 1;
    return r;
  }
  const spirv::TargetEnv env = args.pipeline.spirv.target;
  if (args.spirv_opt) {
    auto optimized = spirv::optimize(*words.value, env);
    if (!optimized) {
      r.errors = fmt::format("sluice: error: spirv-opt: {}\n", optimized.error());
      r.exit_code = 1;
      return r;
    }
    words.value = std::move(*optimized);
  }
  if (args.validate) {
    const auto messages = spirv::validate(*words.value, env);
    for (const auto& m : messages) r.errors += fmt::format("{}: spirv-val: {}\n", display, m);
    if (!messages.empty()) {
      r.exit_code = 1;
      return r;
    }
  }
  if (target.name == "spvasm") {
    auto text = spirv::disassemble(*words.value, env);
    if (!text) {
      r.errors = fmt::format("sluice: error: {}\n", text.error());
      r.exit_code = 1;
      return r;
    }
    r.bytes = std::move(*text);
  } else {
    r.bytes.assign(reinterpret_cast<const char*>(words.value->data()), words.value->size() * sizeof(std::uint32_t));
  }
  return r;
}

bool write_file(const std::string& path, const std::string& bytes, bool binary) {
  std::ofstream file(path, binary ? std::ios::binary | std::ios::trunc : std::ios::trunc);
  if (!file) return false;
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  file.close();
  if (!file) {
    // Opened, so this run created or truncated it: leave no partial result.
    std::remove(path.c_str());
    return false;
  }
  return true;
}

int run_single(const std::string& input, const Target& target, const CompileArgs& args) {
  FileResult r = compile_one(input, target, args);
  std::cerr << r.notes << r.errors;
  if (r.exit_code != 0) return r.exit_code;
  if (args.output.empty() || args.output == "-") {
    std::cout.write(r.bytes.data(), static_cast<std::streamsize>(r.bytes.size()));
    std::cout.flush();
    return std::cout ? kExitOk : kExitError;
  }
  if (!write_file(args.output, r.bytes, target.binary)) {
    std::cerr << "sluice: error: cannot write '" << args.output << "'\n";
    return kExitError;
  }
  return kExitOk;
}

int run_batch(const Target& target, const CompileArgs& args) {
  if (args.output.empty()) {
    std::cerr << "sluice: error: several inputs need -o DIR\n";
    return kExitUsage;
  }
  std::error_code ec;
  fs::create_directories(args.output, ec);
  if (!fs::is_directory(args.output)) {
    std::cerr << "sluice: error: cannot create the directory '" << args.output << "'\n";
    return kExitError;
  }
  std::atomic<std::size_t> next{0};
  std::atomic<int> worst{0};
  std::mutex stderr_lock;
  auto worker = [&] {
    for (std::size_t i = next++; i < args.inputs.size(); i = next++) {
      const std::string& input = args.inputs[i];
      FileResult r = compile_one(input, target, args);
      std::string out_path = (fs::path(args.output) / fs::path(input).filename()).string() + std::string(target.extension);
      if (r.exit_code == 0 && !write_file(out_path, r.bytes, target.binary)) {
        r.errors += fmt::format("sluice: error: cannot write '{}'\n", out_path);
        r.exit_code = kExitError;
      }
      if (!r.errors.empty() || !r.notes.empty()) {
        std::lock_guard<std::mutex> lock(stderr_lock);
        std::cerr << r.notes << r.errors;
      }
      int seen = worst.load();
      while (r.exit_code > seen && !worst.compare_exchange_weak(seen, r.exit_code)) {
      }
    }
  };
  const unsigned threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(),
                                                           static_cast<unsigned>(args.inputs.size())));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  return worst.load();
}

int run_compile(CompileArgs& args) {
  std::string emit = args.emit.empty() ? std::string(implied_target(args.output)) : args.emit;
  const Target* target = find_target(emit);
  if (!target) {
    std::cerr << "sluice: error: unknown --emit target '" << emit << "' (ir, spv, spvasm, glsl)\n";
    return kExitUsage;
  }
  if (args.opt != "0" && args.opt != "1") {
    std::cerr << "sluice: error: unknown optimisation level -O" << args.opt << " (-O0 or -O1)\n";
    return kExitUsage;
  }
  args.pipeline.opt_level = "O" + args.opt;
  if (auto e = finish_pipeline_options(args.pipeline, args.target_env, args.glsl_version, args.glsl_flavour, args.stage);
      !e.empty()) {
    std::cerr << "sluice: error: " << e << "\n";
    return kExitUsage;
  }
  args.pipeline.spirv.run_spirv_opt = false;  // applied after emission, see compile_one
  const bool batch = args.inputs.size() > 1 || (!args.output.empty() && fs::is_directory(args.output));
  return batch ? run_batch(*target, args) : run_single(args.inputs[0], *target, args);
}

}  // namespace

CommandAction add_compile_command(CLI::App& sub) {
  auto args = std::make_shared<CompileArgs>();
  sub.add_option("files", args->inputs, "Shaders to compile (.lv, .vert, .frag, .comp); - reads standard input")
      ->required();
  sub.add_option("-o,--output", args->output,
                 "Output file (default: standard output), or a directory for several inputs");
  sub.add_option("--emit", args->emit, "What to produce: ir, spv, spvasm, glsl (default: from -o's extension, else ir)");
  sub.add_option("-O", args->opt, "Sluice's pass pipeline: -O0 (only what outputs need) or -O1 (default)");
  sub.add_option("--target-env", args->target_env, "SPIR-V target: vulkan1.0 (default) … vulkan1.3, spv1.0 … spv1.6");
  sub.add_flag("--validate", args->validate, "Run spirv-val on the SPIR-V and print its messages");
  sub.add_flag("--spirv-opt", args->spirv_opt, "Also run SPIRV-Tools' optimizer on the SPIR-V");
  sub.add_option("--glsl-version", args->glsl_version, "GLSL output version: 450 (default) or 310es");
  sub.add_option("--glsl-flavour", args->glsl_flavour, "GLSL output flavour: vulkan (default) or opengl");
  sub.add_option("-S,--stage", args->stage, "GLSL input stage when the extension does not say: vert, frag, comp, geom, tesc, tese");
  add_pipeline_options(sub, args->pipeline);
  return [args] { return run_compile(*args); };
}

}  // namespace sluice::tools
