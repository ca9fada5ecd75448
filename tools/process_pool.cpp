#include "process_pool.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string_view>
#include <vector>

namespace sluice::tools {
namespace {

// The task's text is framed by a trailing marker so a child that dies
// midway is told apart from one that finished.
constexpr char kDoneMarker[] = "\n\x01done\n";

void write_all(int fd, const std::string& s) {
  std::size_t off = 0;
  while (off < s.size()) {
    const ssize_t n = ::write(fd, s.data() + off, s.size() - off);
    if (n <= 0) return;
    off += static_cast<std::size_t>(n);
  }
}

struct Child {
  std::size_t index;
  pid_t pid;
  int fd;
  std::string buffer;
  std::chrono::steady_clock::time_point started;
  bool killed = false;
};

}  // namespace

void run_in_children(std::size_t count, unsigned jobs, std::chrono::seconds limit,
                     const std::function<std::string(std::size_t)>& task,
                     const std::function<void(std::size_t, ChildResult)>& done,
                     const std::function<bool()>& keep_starting) {
  if (jobs == 0) jobs = 1;
  std::vector<Child> running;
  std::vector<pid_t> lingering;  // delivered their result, still exiting
  std::size_t next = 0;
  auto stopped = [&] { return keep_starting && !keep_starting(); };
  auto finish = [&](Child& c) {
    ::close(c.fd);
    ChildResult r;
    const std::string marker(kDoneMarker);
    const bool complete =
        c.buffer.size() >= marker.size() && c.buffer.compare(c.buffer.size() - marker.size(), marker.size(), marker) == 0;
    if (complete) r.output = c.buffer.substr(0, c.buffer.size() - marker.size());
    else r.died = true;
    // A child that delivered its result is not waited for: after a GPU hang
    // its exit can block in the driver for minutes (closing the device), and
    // the caller must not (issue: tools exit within a second of reporting a
    // lost device). It is reaped on a later round if it has ended by then,
    // else by init once this process is gone.
    int status = 0;
    const pid_t reaped = ::waitpid(c.pid, &status, complete ? WNOHANG : 0);
    if (reaped == 0) lingering.push_back(c.pid);
    if (reaped <= 0) status = 0;
    if (WIFSIGNALED(status)) {
      r.died = true;
      r.signal = WTERMSIG(status);
    }
    r.timed_out = c.killed;
    done(c.index, std::move(r));
  };
  while ((next < count && !stopped()) || !running.empty()) {
    while (next < count && running.size() < jobs && !stopped()) {
      int fds[2];
      if (::pipe(fds) != 0) {
        done(next++, ChildResult{"", true, 0, false});
        continue;
      }
      const pid_t pid = ::fork();
      if (pid == 0) {
        ::close(fds[0]);
        write_all(fds[1], task(next) + kDoneMarker);
        ::close(fds[1]);
        // Nobody may wait on this child's standard streams either once the
        // result is out (a pipe reader of the parent's output would).
        for (int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) ::close(fd);
        ::_exit(0);
      }
      ::close(fds[1]);
      if (pid < 0) {
        ::close(fds[0]);
        done(next++, ChildResult{"", true, 0, false});
        continue;
      }
      running.push_back(Child{next++, pid, fds[0], {}, std::chrono::steady_clock::now()});
    }
    std::erase_if(lingering, [](pid_t pid) { return ::waitpid(pid, nullptr, WNOHANG) != 0; });
    std::vector<pollfd> polls;
    for (const auto& c : running) polls.push_back({c.fd, POLLIN, 0});
    ::poll(polls.data(), polls.size(), 1000);
    const auto now = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < running.size();) {
      Child& c = running[i];
      bool eof = false;
      if (polls[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        char buf[65536];
        const ssize_t n = ::read(c.fd, buf, sizeof buf);
        if (n > 0) c.buffer.append(buf, static_cast<std::size_t>(n));
        else eof = true;
      }
      // The marker is the last thing a child writes: once it is here the
      // result is complete, whether or not the pipe has closed (something
      // the child started may hold it open, or its exit may block).
      const std::string_view marker(kDoneMarker);
      if (!eof && c.buffer.size() >= marker.size() &&
          std::string_view(c.buffer).substr(c.buffer.size() - marker.size()) == marker)
        eof = true;
      if (!eof && !c.killed && now - c.started > limit) {
        ::kill(c.pid, SIGKILL);
        c.killed = true;
      }
      if (eof) {
        finish(c);
        running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
        polls.erase(polls.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        ++i;
      }
    }
  }
}

}  // namespace sluice::tools
