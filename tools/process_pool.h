// Runs tasks in forked child processes, a few at a time. xcheck uses it so
// that a Vulkan driver crashing or hanging on one shader becomes a result
// for that file instead of the end of the whole run, and so that files run
// on every core. The parent must not have started other threads (or
// initialised Vulkan) before calling it.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

namespace sluice::tools {

struct ChildResult {
  std::string output;  // what the task returned (empty if it died)
  bool died = false;   // killed by a signal or exited without finishing
  int signal = 0;
  bool timed_out = false;
};

// Runs task(i) for i in [0, count), each in its own child process, at most
// `jobs` at once; done(i, result) is called in the parent as each finishes.
// A child still running after `limit` is killed. When keep_starting is
// given and returns false, no further child is started (those running are
// waited for) and the tasks never started get no done() call.
void run_in_children(std::size_t count, unsigned jobs, std::chrono::seconds limit,
                     const std::function<std::string(std::size_t)>& task,
                     const std::function<void(std::size_t, ChildResult)>& done,
                     const std::function<bool()>& keep_starting = {});

}  // namespace sluice::tools
