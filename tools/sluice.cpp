// `sluice`: the command-line driver. `sluice compile FILE.lv --emit ir` and
// the other subcommands of sluice_commands.h.
#include <iostream>
#include <string>
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
  std::vector<std::pair<CLI::App*, CommandAction>> commands;
  for (const CommandSpec& spec : kCommands) {
    CLI::App* sub = app.add_subcommand(std::string(spec.name), std::string(spec.help));
    commands.emplace_back(sub, spec.add(*sub));
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
