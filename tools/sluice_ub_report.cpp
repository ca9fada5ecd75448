// `sluice ub-report BUFFER.bin --map MAP.json [--ub-report FILE.json]`:
// decodes a findings buffer that an application read back after running a
// shader `sluice compile --ub-check` instrumented (docs/ub-check.md), and
// prints each finding with its source line. Exit code 1 when anything fired.
#include <fstream>
#include <iostream>
#include <iterator>

#include "sluice_commands.h"
#include "sluice_pipeline.h"
#include "ub_findings.h"

namespace sluice::tools {
namespace {

struct UbReportArgs {
  std::string buffer;
  std::string map;
  std::string json;
};

int run_ub_report(const UbReportArgs& args) {
  const auto map_text = read_text_file(args.map);
  if (!map_text) {
    std::cerr << "sluice: error: cannot read '" << args.map << "'\n";
    return kExitError;
  }
  auto map = parse_ub_map(*map_text, args.map);
  if (!map) {
    std::cerr << map.error() << "\n";
    return kExitError;
  }
  std::ifstream in(args.buffer, std::ios::binary);
  if (!in) {
    std::cerr << "sluice: error: cannot read '" << args.buffer << "'\n";
    return kExitError;
  }
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto findings = decode_ub_findings(bytes, *map);
  if (!findings) {
    std::cerr << "sluice: error: " << args.buffer << ": " << findings.error() << "\n";
    return kExitError;
  }
  std::cout << describe_ub_findings(*findings);
  if (!args.json.empty() && !write_ub_report(args.json, *findings)) {
    std::cerr << "sluice: error: cannot write '" << args.json << "'\n";
    return kExitError;
  }
  return findings->findings.empty() ? kExitOk : kExitError;
}

}  // namespace

CommandAction add_ub_report_command(CLI::App& sub) {
  auto args = std::make_shared<UbReportArgs>();
  sub.add_option("buffer", args->buffer, "The findings buffer's bytes, as the application read them back")->required();
  sub.add_option("--map", args->map, "The map `sluice compile --ub-check` wrote beside the shader (OUTPUT.ub.json)")
      ->required();
  sub.add_option("--ub-report", args->json, "Also write the findings as JSON");
  sub.footer("Example:\n  sluice compile --ub-check x.frag -o x.spv && <run x.spv, save the buffer> &&\n"
             "  sluice ub-report findings.bin --map x.spv.ub.json");
  return [args] { return run_ub_report(*args); };
}

}  // namespace sluice::tools
