// Runs xcheck's files, each in its own child process (process_pool.h), and
// stops the run when a GPU hangs. A shader that loops forever or faults can
// leave a real GPU unusable for every later process (seen on NVIDIA's
// driver: after one VK_ERROR_DEVICE_LOST or timeout, every later file timed
// out), so once a file ends with a device timeout, a device loss or the
// child's own time limit on such a device, no new file is started and the
// files never started are reported as errors naming that file. Files that
// were already running finish and keep their own results (device errors
// among them marked as coming after the hang; with more than one job the
// first to report is not always the one that hung the device, so -j 1 names
// it surely). On the CPU device (lavapipe) a hang is the file's own error
// and the run goes on.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "xcheck_report.h"

namespace sluice::tools {

struct ScheduleOptions {
  unsigned jobs = 1;                     // files checked at once
  std::chrono::seconds limit{600};       // per file; the child is killed after it
  bool stop_on_device_failure = false;   // true on a GPU
};

struct ScheduleResult {
  std::vector<FileOutcome> outcomes;  // one per file, in the files' order
  std::string stopped;                // why the run stopped early ("" when every file ran)
};

// Runs check(file) in a child process for every file; progress(finished,
// file) is called in the parent as each file ends.
ScheduleResult run_checks(const std::vector<std::string>& files, const ScheduleOptions& options,
                          const std::function<FileOutcome(const std::string&)>& check,
                          const std::function<void(std::size_t, const std::string&)>& progress = {});

}  // namespace sluice::tools
