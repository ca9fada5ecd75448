// The child-process pool (tools/process_pool.h): a child's result counts as
// soon as it is complete, so nothing a child leaves behind — a process
// holding its pipe, an exit that blocks in a driver after a GPU hang — keeps
// the caller waiting (render and xcheck exit right after reporting).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>

#include "process_pool.h"

using namespace sluice::tools;

TEST_CASE("a child's complete result is taken without waiting for the child to go away") {
  const auto start = std::chrono::steady_clock::now();
  std::string got;
  run_in_children(
      1, 1, std::chrono::seconds(60),
      [](std::size_t) {
        // A grandchild keeps the result pipe open for 20 s, as a child
        // stuck in its exit would.
        if (::fork() == 0) {
          // Not the test's own output streams: ctest waits for those.
          for (int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) ::close(fd);
          ::sleep(20);
          ::_exit(0);
        }
        return std::string("drawn");
      },
      [&](std::size_t, ChildResult r) {
        CHECK_FALSE(r.died);
        got = r.output;
      });
  CHECK(got == "drawn");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
}

TEST_CASE("a child that dies before finishing its result is reported as died") {
  ChildResult result;
  run_in_children(
      1, 1, std::chrono::seconds(60), [](std::size_t) -> std::string { ::_exit(3); },
      [&](std::size_t, ChildResult r) { result = r; });
  CHECK(result.died);
  CHECK(result.output.empty());
}
