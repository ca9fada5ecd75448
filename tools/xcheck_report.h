// What `sluice xcheck` found: per file and per variant a status and a
// detail, printed as a summary table and written as the JSON report
// {"results": [{"file", "status", "variants": {name: {"status", "detail"}}}],
//  "summary": {...}}. A file passes only when every variant passed.
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
};

struct FileOutcome {
  std::string file;
  std::vector<VariantOutcome> variants;
  CheckStatus status() const;  // skip if skipped, else the worst variant's
};

std::string summary_table(const std::vector<FileOutcome>& outcomes);
std::string json_report(const std::vector<FileOutcome>& outcomes);

}  // namespace sluice::tools
