// The user side of the ub-check pass (docs/ub-check.md): the map of
// source-location ids that `sluice compile --ub-check` writes beside its
// output (MAP.json), and the findings buffer decoded into one finding per
// (check, source location), printed as
//
//   file:line:col: runtime error: <message> [check-id] in N invocations, first at (x, y)
//
// with the source line and a caret, or as `--ub-report` JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "exec/runner.h"
#include "ir/module.h"
#include "ir/result.h"
#include "transform/ub_check.h"

namespace sluice::tools {

struct UbLocation {
  std::uint32_t id = 0;
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

struct UbMap {
  std::uint32_t set = 0;
  std::uint32_t binding = 0;
  std::uint32_t capacity = 0;
  std::uint32_t sites = 0;  // guarded instructions; 0: nothing to check, no findings buffer
  std::vector<UbLocation> locations;  // by id, each once
  const UbLocation* find(std::uint32_t id) const;
};

// The map of an instrumented module: the locations its guards report.
UbMap make_ub_map(const ir::Module& m, const transform::UbCheckMap& checks);
std::string ub_map_json(const UbMap& map);
// Reads what ub_map_json writes; errors as "path:line:col: error: ...".
Result<UbMap> parse_ub_map(std::string_view text, const std::string& path);

// One finding: a check that fired at one source location.
struct UbFinding {
  std::uint32_t check = 0;
  std::string file;  // empty when the location is unknown
  std::uint32_t line = 0, column = 0;
  std::uint64_t invocations = 0;  // distinct (x, y)
  std::uint32_t x = 0, y = 0;     // the first in raster order (lowest y, then x)
};

struct UbFindings {
  std::vector<UbFinding> findings;  // by file, line, column, check
  std::uint64_t reports = 0;        // the buffer's `found`: every report
  std::uint64_t recorded = 0;       // records kept (at most the capacity)
  std::uint32_t capacity = 0;
  void append(const UbFindings& more);  // another run's (xcheck: one per file)
};

// Decodes the findings buffer (the map gives its capacity and locations).
Result<UbFindings> decode_ub_findings(std::span<const std::uint8_t> bytes, const UbMap& map);
// The text report, with each finding's source line and a caret (read from
// the file the finding names, when it can be read).
std::string describe_ub_findings(const UbFindings& f);
// {"findings": [{"check": ..., "file": ..., "line": ..., "column": ...,
//  "invocations": N, "first": [x, y]}], "reports": R, "recorded": K}
std::string ub_findings_json(const UbFindings& f);
bool write_ub_report(const std::string& path, const UbFindings& f);
// "file:line:col: <message> [check] in N invocations, first at (x, y)".
std::string describe_ub_finding(const UbFinding& f);

// Running an instrumented shader on the runner (render, xcheck): the
// buffer contents to bind (zeros: `found` starts at 0), and the findings
// read back from the run's storage buffers, which lose the findings buffer
// (so that what is left compares with the plain program's). A shader with
// no guard has no findings buffer, and no findings.
exec::BufferInit ub_findings_buffer(const UbMap& map);
Result<UbFindings> take_ub_findings(std::vector<exec::BufferData>& storage_buffers, const UbMap& map);
// Findings as one line (no tab or line break), to pass from the child
// process that ran the shader to the parent, and back.
std::string encode_ub_findings(const UbFindings& f);
std::optional<UbFindings> decode_ub_findings_line(std::string_view text);

}  // namespace sluice::tools
