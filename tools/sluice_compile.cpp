// `sluice compile FILE... [-o OUT] [--emit ir|spv|spvasm|glsl]`: compiles
// λV (.lv) or GLSL (.vert/.frag/.comp) through Sluice's IR and passes to the
// chosen target. Several files, or -o naming a directory, is batch mode: one
// process compiles them all on every core (modules share nothing, so each
// worker thread takes the next file).
//
// Nothing is written for a file that fails: output is made in memory first.
// Batch outputs do not depend on the number of threads (-j): each file is
// compiled on its own, and its output goes to its own file.
//
// GLSL input takes glslangValidator's -D/-U/-I (and #include), -e,
// --source-entrypoint and --depfile; the depfile is a Make rule naming the
// outputs and every file read, written once everything compiled.
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

#include "frontend/glsl/glsl_frontend.h"
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
  std::string depfile;
  unsigned jobs = 0;  // 0: every core
  std::string ub_map;  // --ub-map: where a single output's MAP.json goes
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
  std::vector<std::string> includes;  // files #include read
  std::string ub_map;                 // --ub-check: the MAP.json text
  int exit_code = 0;
};

// Where --ub-check puts the map of an output: beside it, OUTPUT.ub.json.
std::string ub_map_path(const std::string& output) { return output + ".ub.json"; }

FileResult compile_one(const std::string& input, const Target& target, const CompileArgs& args) {
  FileResult r;
  const auto source = read_text_file(input);
  if (!source) {
    r.errors = fmt::format("sluice: error: cannot read '{}'\n", input);
    r.exit_code = 1;
    return r;
  }
  const std::string display = input == "-" ? "<stdin>" : input;
  UbMap ub_map;
  auto module = compile_to_ir(*source, display, args.pipeline, &r.notes, &r.includes, &ub_map);
  if (!module.ok()) {
    r.errors = module.failure.message;
    r.exit_code = module.failure.exit_code;
    return r;
  }
  if (args.pipeline.ub_check) r.ub_map = ub_map_json(ub_map);
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
  auto words = emit_spirv(*module.value, args.pipeline, display);
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

// A path in a Make rule: spaces, '#' and '$' escaped as GNU Make reads them.
std::string make_escaped(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == ' ' || c == '#') out += '\\';
    if (c == '$') out += '$';
    out += c;
  }
  return out;
}

// glslangValidator's --depfile: "OUTPUTS: INPUTS INCLUDES\n", so that Make
// and Ninja (depfile = ...) rebuild when any file read changes.
bool write_depfile(const CompileArgs& args, const std::vector<std::string>& outputs,
                   const std::vector<std::string>& read) {
  std::string rule;
  for (const std::string& o : outputs) rule += (rule.empty() ? "" : " ") + make_escaped(o);
  rule += ":";
  std::vector<std::string> seen;
  for (const std::string& f : read) {
    if (std::find(seen.begin(), seen.end(), f) != seen.end()) continue;
    seen.push_back(f);
    rule += " " + make_escaped(f);
  }
  rule += "\n";
  if (write_file(args.depfile, rule, false)) return true;
  std::cerr << "sluice: error: cannot write the depfile '" << args.depfile << "'\n";
  return false;
}

int run_single(const std::string& input, const Target& target, const CompileArgs& args) {
  FileResult r = compile_one(input, target, args);
  std::cerr << r.notes << r.errors;
  if (r.exit_code != 0) return r.exit_code;
  if (!args.depfile.empty()) {
    std::vector<std::string> read{input};
    read.insert(read.end(), r.includes.begin(), r.includes.end());
    if (!write_depfile(args, {args.output}, read)) return kExitError;
  }
  if (args.pipeline.ub_check) {
    const std::string map = !args.ub_map.empty() ? args.ub_map : ub_map_path(args.output);
    if (!write_file(map, r.ub_map, false)) {
      std::cerr << "sluice: error: cannot write '" << map << "'\n";
      return kExitError;
    }
  }
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
  // Per input, in input order whichever thread compiled it: the depfile.
  std::vector<std::string> out_paths(args.inputs.size());
  std::vector<std::vector<std::string>> includes(args.inputs.size());
  auto worker = [&] {
    for (std::size_t i = next++; i < args.inputs.size(); i = next++) {
      const std::string& input = args.inputs[i];
      FileResult r = compile_one(input, target, args);
      std::string out_path = (fs::path(args.output) / fs::path(input).filename()).string() + std::string(target.extension);
      out_paths[i] = out_path;
      includes[i] = r.includes;
      if (r.exit_code == 0 && !write_file(out_path, r.bytes, target.binary)) {
        r.errors += fmt::format("sluice: error: cannot write '{}'\n", out_path);
        r.exit_code = kExitError;
      }
      if (r.exit_code == 0 && args.pipeline.ub_check && !write_file(ub_map_path(out_path), r.ub_map, false)) {
        r.errors += fmt::format("sluice: error: cannot write '{}'\n", ub_map_path(out_path));
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
  const unsigned cores = args.jobs > 0 ? args.jobs : std::thread::hardware_concurrency();
  const unsigned threads = std::max(1u, std::min<unsigned>(cores, static_cast<unsigned>(args.inputs.size())));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  if (worst.load() == 0 && !args.depfile.empty()) {
    std::vector<std::string> read = args.inputs;
    for (const auto& list : includes) read.insert(read.end(), list.begin(), list.end());
    if (!write_depfile(args, out_paths, read)) return kExitError;
  }
  return worst.load();
}

// -D and -U in command-line order (glslangValidator applies them so: a
// later -U undoes an earlier -D). CLI11 keeps each option's values and the
// order options were seen; the two together give the sequence.
std::string read_macros(const CLI::App& sub, CompileArgs& args) {
  const CLI::Option* define = sub.get_option("-D");
  const CLI::Option* undefine = sub.get_option("-U");
  std::size_t next_define = 0, next_undefine = 0;
  for (const CLI::Option* o : sub.parse_order()) {
    if (o == define) {
      auto macro = glsl_in::parse_define(define->results().at(next_define++));
      if (!macro) return macro.error();
      args.pipeline.macros.push_back(std::move(*macro));
    } else if (o == undefine) {
      auto name = glsl_in::parse_undefine(undefine->results().at(next_undefine++));
      if (!name) return name.error();
      args.pipeline.macros.emplace_back(std::move(*name), std::nullopt);
    }
  }
  return {};
}

int run_compile(const CLI::App& sub, CompileArgs& args) {
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
  if (auto e = read_macros(sub, args); !e.empty()) {
    std::cerr << "sluice: error: " << e << "\n";
    return kExitUsage;
  }
  if (!args.depfile.empty() && (args.output.empty() || args.output == "-")) {
    std::cerr << "sluice: error: --depfile needs -o: the rule names the output file\n";
    return kExitUsage;
  }
  const bool to_stdout = args.output.empty() || args.output == "-";
  if (args.pipeline.ub_check && to_stdout && args.ub_map.empty()) {
    std::cerr << "sluice: error: --ub-check writes its map beside the output (OUTPUT.ub.json): give -o or --ub-map\n";
    return kExitUsage;
  }
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
  // glslangValidator's conventions for GLSL input.
  sub.add_option("-D,--define-macro", "GLSL: -D NAME[=VALUE] defines a macro before the shader (as #define NAME VALUE)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub.add_option("-U,--undef-macro", "GLSL: -U NAME undefines a macro (in order with -D)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub.add_option("-I", args->pipeline.include_dirs,
                 "GLSL: where #include looks after the including file's directory (left to right; the shader "
                 "enables GL_GOOGLE_include_directive)");
  sub.add_option("-e,--entry-point", args->pipeline.spirv.entry_point_name,
                 "The SPIR-V entry point's name (default main)");
  sub.add_option("--source-entrypoint,--sep", args->pipeline.source_entry_point,
                 "GLSL: the source function that is the entry point (glslang accepts only main)");
  sub.add_option("--depfile", args->depfile,
                 "Write a Make rule naming the output(s) and every file read (inputs and #includes), for Make and "
                 "Ninja");
  sub.add_option("-j,--jobs", args->jobs, "Batch mode: compile on this many threads (default: every core)");
  sub.add_flag("-g", args->pipeline.spirv.debug_lines,
               "SPIR-V: debug line information (OpString, OpSource, OpLine) from the source locations");
  sub.add_option("--ub-map", args->ub_map, "--ub-check: where the map of source locations goes (default OUTPUT.ub.json)");
  sub.footer(
      "Examples:\n"
      "  sluice compile examples/nat-fold.lv --emit spvasm --validate\n"
      "  sluice compile shader.frag -D QUALITY=2 -I include -o shader.spv --depfile shader.spv.d\n"
      "  sluice compile a.frag b.vert c.comp -o out/ --emit spv -j 4");
  CLI::App* self = &sub;
  return [args, self] { return run_compile(*self, *args); };
}

}  // namespace sluice::tools
