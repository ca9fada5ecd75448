// What `sluice xcheck` found: per file and per variant a status and a
// detail, printed as a summary table and written as the JSON report
// {"results": [{"file", "status", "variants": {name: {"status", "detail"[, "peer": true]}}}],
//  "summary": {...}}. A file passes only when every variant passed, peers
// aside: a peer variant (another translator's output, e.g. SPIRV-Cross's
// GLSL) is reported, counted apart, and never fails the file. A run
// stopped early (xcheck_schedule.h) says why in a last line and in
// "summary": {"stopped": ...}.
#pragma once

#include <string>
#include <vector>

namespace sluice::tools {

enum class CheckStatus { Pass, Fail, Error, Skip };
const char* to_string(CheckStatus s);

struct VariantOutcome {
  std::string name;
  CheckStatus status = CheckStatus::Pass;
  std::string detail;
  bool peer = false;  // another tool's translation: reported, never counted in the file's status
};

struct FileOutcome {
  std::string file;
  std::vector<VariantOutcome> variants;
  // Non-empty when running the file left the device unusable (a submission
  // timed out or the device was lost): why.
  std::string device_failure;
  CheckStatus status() const;  // skip if skipped, else the worst non-peer variant's
};

// `stopped`, when non-empty, says why the run stopped before every file ran.
std::string summary_table(const std::vector<FileOutcome>& outcomes, const std::string& stopped = "");
std::string json_report(const std::vector<FileOutcome>& outcomes, const std::string& stopped = "");

}  // namespace sluice::tools
