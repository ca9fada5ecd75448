// ir-dump: reads a module in the IR's text form (.ir) — or builds one from
// λV (.lv) or GLSL (.vert/.frag/.comp/.geom/.tesc/.tese) with the front ends, before any pass —
// and prints it as the dump writes it, or as a Graphviz graph; optionally
// validates it.
//
//   ir-dump [--validate] [--dot] FILE     (FILE "-" reads stdin as .ir)
//
// Exit status: 0 on success, 1 when the file cannot be read or parsed or
// (with --validate) the module has problems, 2 for bad command lines and
// internal errors (`error: internal: …`, tools/internal_error.h).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>

#include "frontend/glsl/glsl_frontend.h"
#include "frontend/lambdav/lambdav.h"
#include "ir/dot.h"
#include "ir/dump.h"
#include "internal_error.h"
#include "ir/parse.h"
#include "validator/validator.h"

namespace {

std::optional<std::string> read_input(const std::string& path) {
  std::stringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
    if (std::cin.bad()) return std::nullopt;
    return text.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The module a file describes: parsed .ir text, or a front end's output.
sluice::ir::ParseResult load_module(const std::string& text, const std::string& name) {
  if (ends_with(name, ".lv")) {
    sluice::lambdav::CompileOptions options;
    options.file_name = name;
    auto r = sluice::lambdav::compile(text, options);
    return {std::move(r.module), std::move(r.diagnostics)};
  }
  if (sluice::glsl_in::stage_from_path(name)) {
    sluice::glsl_in::Options options;
    options.auto_map_locations = options.auto_map_bindings = true;
    auto r = sluice::glsl_in::compile(text, name, options);
    return {std::move(r.module), std::move(r.diagnostics)};
  }
  return sluice::ir::parse_module(text, name);
}

int run(int argc, char** argv) {
  CLI::App app{"Reads a Sluice IR text file (.ir) and prints it back, or as a Graphviz graph.", "ir-dump"};
  app.set_version_flag("--version", "ir-dump 0.1.0");
  std::string path;
  bool validate = false;
  bool as_dot = false;
  app.add_option("FILE", path, "the .ir, .lv, .vert, .frag, .comp, .geom, .tesc or .tese file to read; - reads .ir from stdin")
      ->required();
  app.add_flag("--validate", validate, "check the module's invariants; exit 1 on problems");
  app.add_flag("--dot", as_dot, "print a Graphviz graph of the block trees instead of the dump");
  bool locations = false;
  app.add_flag("--locations", locations,
               "print each instruction's source location (file:line:col) after it; such a dump does not read back");
  app.footer("Example:\n  ir-dump --validate examples/angle_example.ir");
  CLI11_PARSE(app, argc, argv);

  const std::optional<std::string> text = read_input(path);
  if (!text) {
    std::cerr << "ir-dump: cannot read " << path << "\n";
    return 1;
  }
  const std::string name = path == "-" ? "<stdin>" : path;
  sluice::ir::ParseResult parsed = load_module(*text, name);
  if (!parsed.ok()) {
    std::cerr << sluice::render(parsed.diagnostics, *text);
    return 1;
  }
  const sluice::ir::Module& module = *parsed.module;
  std::cout << (as_dot ? sluice::ir::dot(module) : sluice::ir::dump(module, {locations}));
  std::cout.flush();

  if (validate) {
    const auto problems = sluice::validator::validate(module);
    for (const auto& p : problems) std::cerr << name << ": " << sluice::validator::describe(module, p) << "\n";
    if (!problems.empty()) return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return sluice::tools::run_guarded("ir-dump", [&] { return run(argc, argv); }); }
