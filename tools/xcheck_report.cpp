#include "xcheck_report.h"

#include <map>

#include <fmt/format.h>

namespace sluice::tools {
namespace {

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) out += fmt::format("\\u{:04x}", c);
        else out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

struct Counts {
  int pass = 0, fail = 0, error = 0, skip = 0;
  void add(CheckStatus s) {
    switch (s) {
      case CheckStatus::Pass: ++pass; break;
      case CheckStatus::Fail: ++fail; break;
      case CheckStatus::Error: ++error; break;
      case CheckStatus::Skip: ++skip; break;
    }
  }
};

}  // namespace

const char* to_string(CheckStatus s) {
  switch (s) {
    case CheckStatus::Pass: return "pass";
    case CheckStatus::Fail: return "fail";
    case CheckStatus::Error: return "error";
    case CheckStatus::Skip: return "skip";
  }
  return "?";
}

CheckStatus FileOutcome::status() const {
  if (variants.empty()) return CheckStatus::Skip;
  bool all_skip = true;
  CheckStatus worst = CheckStatus::Pass;
  for (const auto& v : variants) {
    if (v.peer) continue;
    if (v.status != CheckStatus::Skip) all_skip = false;
    if (v.status == CheckStatus::Fail) worst = CheckStatus::Fail;
    if (v.status == CheckStatus::Error && worst != CheckStatus::Fail) worst = CheckStatus::Error;
  }
  return all_skip ? CheckStatus::Skip : worst;
}

std::string summary_table(const std::vector<FileOutcome>& outcomes, const std::string& stopped) {
  Counts files;
  std::map<std::string, Counts> by_variant, by_peer;
  for (const auto& f : outcomes) {
    files.add(f.status());
    for (const auto& v : f.variants) (v.peer ? by_peer : by_variant)[v.name].add(v.status);
  }
  auto failed = [](const VariantOutcome& v) { return v.status == CheckStatus::Fail || v.status == CheckStatus::Error; };
  std::string out, peer_lines;
  for (const auto& f : outcomes)
    for (const auto& v : f.variants) {
      if (!failed(v)) continue;
      if (v.peer) peer_lines += fmt::format("peer {} {} [{}]: {}\n", to_string(v.status), f.file, v.name, v.detail);
      else out += fmt::format("{} {} [{}]: {}\n", to_string(v.status), f.file, v.name, v.detail);
    }
  out += peer_lines;
  auto row = [](const std::string& name, const Counts& c) {
    return fmt::format("{:<20} {:>6} {:>6} {:>6} {:>6}\n", name, c.pass, c.fail, c.error, c.skip);
  };
  out += fmt::format("\n{:<20} {:>6} {:>6} {:>6} {:>6}\n", "", "pass", "fail", "error", "skip");
  for (const auto& [name, c] : by_variant) out += row(name, c);
  out += row("files", files);
  if (!by_peer.empty()) {
    out += "peers (not counted):\n";
    for (const auto& [name, c] : by_peer) out += row(name, c);
  }
  out += fmt::format("{} passed, {} failed\n", files.pass, files.fail + files.error);
  if (!stopped.empty()) out += fmt::format("xcheck stopped early: {}\n", stopped);
  return out;
}

std::string json_report(const std::vector<FileOutcome>& outcomes, const std::string& stopped) {
  Counts files;
  std::string out = "{\"results\": [";
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const auto& f = outcomes[i];
    files.add(f.status());
    out += fmt::format("{}\n  {{\"file\": {}, \"status\": \"{}\", \"variants\": {{", i ? "," : "", json_string(f.file),
                       to_string(f.status()));
    for (std::size_t j = 0; j < f.variants.size(); ++j) {
      const auto& v = f.variants[j];
      out += fmt::format("{}{}: {{\"status\": \"{}\", \"detail\": {}{}}}", j ? ", " : "", json_string(v.name),
                         to_string(v.status), json_string(v.detail), v.peer ? ", \"peer\": true" : "");
    }
    out += "}}";
  }
  out += fmt::format("\n], \"summary\": {{\"files\": {}, \"pass\": {}, \"fail\": {}, \"error\": {}, \"skip\": {}",
                     outcomes.size(), files.pass, files.fail, files.error, files.skip);
  if (!stopped.empty()) out += fmt::format(", \"stopped\": {}", json_string(stopped));
  out += "}}\n";
  return out;
}

}  // namespace sluice::tools
