// Algorithm: run_in_children() runs the files `jobs` at a time; as each
// child ends, its outcome is read back (or made from how it died). The
// first outcome that carries a device failure (or a child killed at its
// time limit) on a device that stops on failure becomes the culprit; from
// then on keep_starting() answers false, every file not started gets one
// "not-run" error naming the culprit, and a file already running that then
// fails on the device too has its errors marked as coming after the hang.
#include "xcheck_schedule.h"

#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "process_pool.h"

namespace sluice::tools {
namespace {

// The device failure travels as a line of its own, before the variants.
constexpr char kDeviceFailureTag[] = "device-failure";

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\t') c = ' ';
  return s;
}

// One outcome as lines of "name\tstatus\tdetail", for the trip from the
// child process that ran it; a peer variant's status ends in 'p'.
std::string serialize(const FileOutcome& o) {
  std::string out;
  if (!o.device_failure.empty()) out += fmt::format("{}\t\t{}\n", kDeviceFailureTag, one_line(o.device_failure));
  for (const auto& v : o.variants)
    out += fmt::format("{}\t{}{}\t{}\n", v.name, static_cast<int>(v.status), v.peer ? "p" : "", one_line(v.detail));
  return out;
}

FileOutcome deserialize(const std::string& file, const std::string& text) {
  FileOutcome o{file, {}, {}};
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto a = line.find('\t'), b = line.find('\t', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    if (line.compare(0, a, kDeviceFailureTag) == 0) {
      o.device_failure = line.substr(b + 1);
      continue;
    }
    const std::string status = line.substr(a + 1, b - a - 1);
    o.variants.push_back({line.substr(0, a), static_cast<CheckStatus>(std::stoi(status)), line.substr(b + 1),
                          status.back() == 'p'});
  }
  return o;
}

FileOutcome died(const std::string& file, const ChildResult& r, std::chrono::seconds limit) {
  const std::string why = r.timed_out ? fmt::format("timed out after {} s", limit.count())
                          : r.signal  ? fmt::format("crashed (signal {}) while running it", r.signal)
                                      : std::string("died while running it");
  FileOutcome o{file, {{"runner", CheckStatus::Error, why}}, {}};
  if (r.timed_out) o.device_failure = why;
  return o;
}

// A file that was running when another hung the device and then failed
// on the device too: its errors are most likely that hang's, not its own.
void mark_as_after_hang(FileOutcome& o, const std::string& culprit) {
  for (auto& v : o.variants)
    if (v.status == CheckStatus::Error) v.detail += fmt::format(" (it ran while the device hung on {})", culprit);
}

}  // namespace

ScheduleResult run_checks(const std::vector<std::string>& files, const ScheduleOptions& options,
                          const std::function<FileOutcome(const std::string&)>& check,
                          const std::function<void(std::size_t, const std::string&)>& progress) {
  ScheduleResult result;
  std::vector<std::optional<FileOutcome>> outcomes(files.size());
  std::optional<std::size_t> culprit;
  std::size_t finished = 0;
  run_in_children(
      files.size(), options.jobs, options.limit, [&](std::size_t i) { return serialize(check(files[i])); },
      [&](std::size_t i, ChildResult r) {
        outcomes[i] = r.died ? died(files[i], r, options.limit) : deserialize(files[i], r.output);
        if (options.stop_on_device_failure && !outcomes[i]->device_failure.empty()) {
          if (!culprit) culprit = i;
          else mark_as_after_hang(*outcomes[i], files[*culprit]);
        }
        ++finished;
        if (progress) progress(finished, files[i]);
      },
      [&] { return !culprit; });
  std::size_t not_run = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!outcomes[i]) {  // only files after a culprit are never started
      ++not_run;
      const std::string why = culprit ? "the device hung on " + files[*culprit] : "the run stopped";
      outcomes[i] = FileOutcome{files[i], {{"not-run", CheckStatus::Error, "not run: " + why}}, {}};
    }
    result.outcomes.push_back(std::move(*outcomes[i]));
  }
  if (culprit)
    result.stopped = fmt::format("the device hung on {} ({}); {} file{} not run", files[*culprit],
                                 result.outcomes[*culprit].device_failure, not_run, not_run == 1 ? "" : "s");
  return result;
}

}  // namespace sluice::tools
