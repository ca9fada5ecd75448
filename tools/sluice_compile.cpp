// `sluice compile FILE [-o OUT] [--emit TARGET]`: reads a shader (a file, or
// `-` for stdin), compiles it with the front end its language names,
// validates the IR, and writes the chosen target. Front ends and targets
// are tables: supporting a new language or output is one entry.
//
// Nothing is written when anything fails: the output is produced in memory
// first and written only after every step succeeded.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>

#include "frontend/lambdav/lambdav.h"
#include "ir/diagnostic.h"
#include "ir/dump.h"
#include "ir/result.h"
#include "sluice_commands.h"
#ifdef SLUICE_HAVE_VALIDATOR
#include "validator/validator.h"
#endif

namespace sluice::tools {
namespace {

struct FrontEndResult {
  std::optional<ir::Module> module;
  Diagnostics diagnostics;
};

FrontEndResult compile_lambdav(std::string_view source, const std::string& file_name) {
  lambdav::CompileOptions options;
  options.file_name = file_name;
  auto r = lambdav::compile(source, options);
  return {std::move(r.module), std::move(r.diagnostics)};
}

struct FrontEnd {
  std::string_view language;   // --language value
  std::string_view extension;  // files ending in it use this front end
  std::string_view description;
  FrontEndResult (*compile)(std::string_view source, const std::string& file_name);
};

constexpr FrontEnd kFrontEnds[] = {
    {"lv", ".lv", "λV", compile_lambdav},
};

Result<std::string> emit_ir(const ir::Module& m) { return ir::dump(m); }

struct Target {
  std::string_view name;  // --emit value
  std::string_view description;
  bool binary;
  // Null while the output does not exist yet.
  Result<std::string> (*emit)(const ir::Module& m);
};

constexpr Target kTargets[] = {
    {"ir", "the Sluice IR in ir-dump's text form", false, emit_ir},
    {"spv", "a SPIR-V binary module", true, nullptr},
    {"spvasm", "SPIR-V assembly text", false, nullptr},
    {"glsl", "GLSL source", false, nullptr},
};

struct CompileArgs {
  std::string input;
  std::string output;
  std::string emit = "ir";
  std::string language;
};

std::optional<std::string> read_input(const std::string& path) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    return ss.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

const FrontEnd* front_end_for(const CompileArgs& args) {
  for (const FrontEnd& f : kFrontEnds) {
    if (!args.language.empty()) {
      if (f.language == args.language) return &f;
      continue;
    }
    if (args.input == "-") return &kFrontEnds[0];
    if (args.input.size() >= f.extension.size() &&
        args.input.compare(args.input.size() - f.extension.size(), std::string::npos, f.extension) == 0)
      return &f;
  }
  return nullptr;
}

int run_compile(const CompileArgs& args) {
  const Target* target = nullptr;
  for (const Target& t : kTargets)
    if (t.name == args.emit) target = &t;
  if (!target) {
    std::cerr << "sluice: error: unknown --emit target '" << args.emit << "'\n";
    return kExitUsage;
  }
  if (!target->emit) {
    std::cerr << "sluice: error: --emit " << target->name << " (" << target->description
              << ") is not available yet; use --emit ir\n";
    return kExitError;
  }
  const FrontEnd* front_end = front_end_for(args);
  if (!front_end) {
    std::cerr << "sluice: error: cannot tell the language of '" << args.input
              << "': name it with --language (known: lv for λV .lv files)\n";
    return kExitUsage;
  }
  const auto source = read_input(args.input);
  if (!source) {
    std::cerr << "sluice: error: cannot read '" << args.input << "'\n";
    return kExitError;
  }
  const std::string display_name = args.input == "-" ? "<stdin>" : args.input;
  FrontEndResult compiled = front_end->compile(*source, display_name);
  if (!compiled.module) {
    std::cerr << render(compiled.diagnostics, *source);
    if (compiled.diagnostics.empty()) std::cerr << "sluice: error: compilation failed\n";
    return kExitError;
  }
#ifdef SLUICE_HAVE_VALIDATOR
  const auto problems = validator::validate(*compiled.module);
  if (!problems.empty()) {
    std::cerr << "sluice: internal error: the " << front_end->description
              << " front end produced invalid IR (please report this):\n"
              << validator::describe(*compiled.module, problems);
    return kExitInternal;
  }
#endif
  auto out = target->emit(*compiled.module);
  if (!out) {
    std::cerr << "sluice: error: " << out.error() << "\n";
    return kExitError;
  }
  if (args.output.empty() || args.output == "-") {
    std::cout.write(out->data(), static_cast<std::streamsize>(out->size()));
    std::cout.flush();
    return std::cout ? kExitOk : kExitError;
  }
  std::ofstream file(args.output, target->binary ? std::ios::binary | std::ios::trunc : std::ios::trunc);
  if (!file) {
    std::cerr << "sluice: error: cannot write '" << args.output << "'\n";
    return kExitError;
  }
  file.write(out->data(), static_cast<std::streamsize>(out->size()));
  file.close();
  if (!file) {
    // Opened (so it is a file this run truncated or created) but not fully
    // written: do not leave a partial result behind.
    std::cerr << "sluice: error: cannot write '" << args.output << "'\n";
    std::remove(args.output.c_str());
    return kExitError;
  }
  return kExitOk;
}

}  // namespace

CommandAction add_compile_command(CLI::App& sub) {
  auto args = std::make_shared<CompileArgs>();
  sub.add_option("file", args->input, "The shader to compile; - reads standard input")->required();
  sub.add_option("-o,--output", args->output, "Where to write the result (default: standard output)");
  std::string targets;
  for (const Target& t : kTargets) targets += std::string(targets.empty() ? "" : ", ") + std::string(t.name);
  sub.add_option("--emit", args->emit, "What to produce: " + targets + " (default: ir)");
  std::string languages;
  for (const FrontEnd& f : kFrontEnds)
    languages += std::string(languages.empty() ? "" : ", ") + std::string(f.language) + " (" +
                 std::string(f.description) + ")";
  sub.add_option("--language", args->language,
                 "The source language, when the file name does not tell it: " + languages);
  return [args] { return run_compile(*args); };
}

}  // namespace sluice::tools
