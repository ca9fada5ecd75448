// The `sluice` driver's subcommands. Each one adds its options to its CLI11
// subcommand and returns the action to run when the user picked it; main()
// (sluice.cpp) registers every entry of kCommands, so a new subcommand is a
// new file plus one line here.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace sluice::tools {

// Exit codes shared by all subcommands.
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;     // bad input: diagnostics were printed
inline constexpr int kExitUsage = 2;     // bad command line
// A bug in Sluice (invalid IR from a front end or a pass, an exception
// escaping a command): "error: internal: …", exit code 2 as issue 16 asks
// (tools/internal_error.h guards every main()).
inline constexpr int kExitInternal = 2;

using CommandAction = std::function<int()>;

struct CommandSpec {
  std::string_view name;
  std::string_view help;
  CommandAction (*add)(CLI::App& sub);
};

// "sluice VERSION" and the glslang and SPIRV-Tools it was built with
// (sluice_version.cpp).
std::string version_text(std::string_view sluice_version);

CommandAction add_compile_command(CLI::App& sub);
CommandAction add_render_command(CLI::App& sub);
CommandAction add_xcheck_command(CLI::App& sub);
CommandAction add_cfg_command(CLI::App& sub);
CommandAction add_bench_run_command(CLI::App& sub);
CommandAction add_ub_report_command(CLI::App& sub);
CommandAction add_flesh_command(CLI::App& sub);

inline constexpr CommandSpec kCommands[] = {
    {"compile", "Compile shaders (λV .lv, GLSL .vert/.frag/.comp) to IR, SPIR-V or GLSL", add_compile_command},
    {"render", "Compile a fragment shader and draw it to a PNG or PFM picture", add_render_command},
    {"xcheck", "Run shaders several ways (glslang, Sluice SPIR-V, Sluice GLSL) and compare", add_xcheck_command},
    {"bench-run", "Time shaders on the GPU compiled five ways (glslang, spirv-opt, Sluice -O0/-O1, Sluice's GLSL)",
     add_bench_run_command},
    {"cfg", "Check the structured control flow of SPIR-V (.spv/.spvasm) by the SPIR-V 1.6r2 rules", add_cfg_command},
    {"ub-report", "Decode a --ub-check findings buffer with its map (docs/ub-check.md)", add_ub_report_command},
    {"flesh", "Fuzz with fleshed random CFGs: generate, run (driver, Sluice, SPIRV-Cross), compare paths", add_flesh_command},
};

}  // namespace sluice::tools
