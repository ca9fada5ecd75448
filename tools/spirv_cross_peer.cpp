// See spirv_cross_peer.h.
#include "spirv_cross_peer.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

#include <fmt/format.h>

extern char** environ;

namespace sluice::tools {
namespace {

namespace fs = std::filesystem;

constexpr const char* kTool = "spirv-cross";

// A file name of our own under the temporary directory (mkstemp makes it).
std::string unique_temp_file(const char* stem) {
  std::string pattern = (fs::temp_directory_path() / fmt::format("sluice-{}-XXXXXX", stem)).string();
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) return {};
  ::close(fd);
  return pattern;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Removes the temporary files however the run ends.
struct TempFiles {
  std::vector<std::string> paths;
  ~TempFiles() {
    std::error_code ec;
    for (const auto& p : paths) fs::remove(p, ec);
  }
};

}  // namespace

bool spirv_cross_available() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':'))
    if (!dir.empty() && ::access((fs::path(dir) / kTool).c_str(), X_OK) == 0) return true;
  return false;
}

Result<std::string> spirv_cross_glsl(std::span<const std::uint32_t> words) {
  TempFiles files;
  const std::string in = unique_temp_file("in"), out = unique_temp_file("out"), err = unique_temp_file("err");
  files.paths = {in, out, err};
  if (in.empty() || out.empty() || err.empty()) return Error{"cannot create a temporary file for spirv-cross"};
  std::ofstream(in, std::ios::binary)
      .write(reinterpret_cast<const char*>(words.data()), static_cast<std::streamsize>(words.size_bytes()));

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(), O_WRONLY | O_TRUNC, 0);
  std::vector<std::string> args = {kTool, "--vulkan-semantics", in, "--output", out};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, kTool, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return Error{fmt::format("cannot run {}: {}", kTool, std::strerror(spawned))};
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string message = read_all(err);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
    return Error{fmt::format("{} failed ({}): {}", kTool,
                             WIFEXITED(status) ? fmt::format("exit code {}", WEXITSTATUS(status)) : "killed",
                             message.empty() ? "no message" : message)};
  }
  return read_all(out);
}

}  // namespace sluice::tools
