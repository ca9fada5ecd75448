// `sluice cfg FILE [--dot] [--legacy]`: the structured control flow of a
// SPIR-V module (.spv binary or .spvasm text) by the SPIR-V 1.6r2 rules
// (src/frontend/spirv/cfg, docs/spirv-cfg.md). Prints every construct of
// every function and every violated rule as `FILE: error: [rule] message`.
// Exit 0: valid; 1: a rule fails (or the functions' blocks are malformed);
// 2: the file cannot be read or is no SPIR-V.
#include <iostream>
#include <sstream>

#include "frontend/spirv/cfg/analysis.h"
#include "frontend/spirv/cfg/dot.h"
#include "sluice_commands.h"
#include "spirv_diagnostics.h"

namespace sluice::tools {
namespace {

namespace sv = sluice::spirv_in;

struct CfgArgs {
  std::string input;
  bool dot = false;
  bool legacy = false;
};

void print_constructs(const sv::cfg::FunctionCfg& cfg, const char* prefix) {
  for (sv::cfg::ConstructIndex c = 0; c < cfg.constructs().size(); ++c) {
    const auto& k = cfg.constructs()[c];
    std::cout << "  " << prefix << to_string(k.kind) << " " << cfg.describe(k.entry);
    if (k.kind == sv::cfg::ConstructKind::Case || k.kind == sv::cfg::ConstructKind::Continue)
      std::cout << " (of " << cfg.describe(k.header) << ")";
    std::cout << ":";
    for (sv::BlockIndex b : cfg.blocks(c)) std::cout << " " << cfg.describe(b);
    std::cout << "\n";
  }
}

int run_cfg(const CfgArgs& args) {
  const sv::ParseResult parsed = sv::parse_file(args.input);
  if (!parsed.ok()) {
    print_spirv_parse_error(args.input, parsed.error());
    return parsed.error().structural ? kExitError : kExitUsage;
  }
  const sv::Module& module = parsed.value();
  const auto mode = args.legacy ? sv::cfg::Mode::Legacy : sv::cfg::Mode::Structural;
  bool valid = true;
  for (const sv::Function& f : module.functions) {
    const sv::cfg::FunctionCfg cfg = sv::cfg::analyze(module, f);
    if (args.dot) {
      std::cout << sv::cfg::to_dot(mode == sv::cfg::Mode::Legacy ? sv::cfg::analyze(module, f, mode) : cfg);
    } else {
      std::cout << "function " << module.describe(f.id) << "\n";
      print_constructs(cfg, "");
      if (args.legacy) print_constructs(sv::cfg::analyze(module, f, mode), "legacy ");  // side by side
    }
    if (!cfg.rules_apply() && !args.dot)
      std::cout << "  (rules not checked: without the Shader capability SPIR-V allows unstructured control flow)\n";
    for (const auto& v : cfg.violations()) std::cerr << args.input << ": error: [" << v.rule << "] " << v.message << "\n";
    valid = valid && cfg.valid();
  }
  return valid ? kExitOk : kExitError;
}

}  // namespace

CommandAction add_cfg_command(CLI::App& sub) {
  auto args = std::make_shared<CfgArgs>();
  sub.add_option("file", args->input, "SPIR-V binary (.spv) or assembly text (.spvasm)")->required();
  sub.add_flag("--dot", args->dot, "draw the CFG and its constructs as Graphviz");
  sub.add_flag("--legacy", args->legacy,
               "also show the constructs by the pre-1.6r2 definitions (ordinary dominance), after the 1.6r2 ones; "
               "with --dot, draw those instead; the verdict stays 1.6r2's");
  return [args] { return run_cfg(*args); };
}

}  // namespace sluice::tools
