// `sluice`: the command-line driver. `sluice compile FILE.lv --emit ir` and
// the other subcommands of sluice_commands.h.
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "internal_error.h"
#include "sluice_commands.h"

#ifndef SLUICE_VERSION
#define SLUICE_VERSION "unknown"
#endif

namespace {

int run(int argc, char** argv) {
  using namespace sluice::tools;
  CLI::App app{"Sluice: a shader compiler toolkit around a structured-control-flow IR", "sluice"};
  app.set_version_flag("--version", version_text(SLUICE_VERSION));
  app.require_subcommand(1);
  // Only the subcommand the command line names gets its options built:
  // making every subcommand's options (hundreds of CLI11 objects) was a
  // fifth of a λV compile's start-up (docs/performance.md, "λV process
  // start"). The others are listed, with their help, for `sluice --help`.
  // The name is the first argument that is not an option, as CLI11 reads
  // it (the driver has no option that takes a value). Without one (`sluice
  // --version`, `sluice --help`, a misspelt name) no options are needed.
  const CommandSpec* named = nullptr;
  for (int i = 1; i < argc && !named; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with('-')) continue;
    for (const CommandSpec& spec : kCommands)
      if (spec.name == arg) named = &spec;
    break;
  }
  std::vector<std::pair<CLI::App*, CommandAction>> commands;
  for (const CommandSpec& spec : kCommands) {
    CLI::App* sub = app.add_subcommand(std::string(spec.name), std::string(spec.help));
    if (named == &spec) commands.emplace_back(sub, spec.add(*sub));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  for (auto& [sub, action] : commands)
    if (sub->parsed()) return action();
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) { return sluice::tools::run_guarded("sluice", [&] { return run(argc, argv); }); }
