// tools/internal_error.h: what every tool's main() does with an exception
// that escapes a command — `error: internal: …` and exit code 2, never
// std::terminate.
#include <catch2/catch.hpp>

#include <functional>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../tools/internal_error.h"

namespace {

// Runs `body` under the guard with std::cerr captured.
std::pair<int, std::string> guarded(const std::function<int()>& body) {
  std::ostringstream captured;
  auto* old = std::cerr.rdbuf(captured.rdbuf());
  const int code = sluice::tools::run_guarded("tool", body);
  std::cerr.rdbuf(old);
  return {code, captured.str()};
}

}  // namespace

TEST_CASE("an exception escaping a command is an internal error with exit code 2") {
  const auto [code, err] = guarded([]() -> int { return std::vector<int>{}.at(3); });
  CHECK(code == 2);
  CHECK_THAT(err, Catch::StartsWith("tool: error: internal: "));
  const auto [unknown_code, unknown_err] = guarded([]() -> int { throw 42; });
  CHECK(unknown_code == 2);
  CHECK_THAT(unknown_err, Catch::Contains("error: internal: unknown exception"));
  const auto [oom_code, oom_err] = guarded([]() -> int { throw std::bad_alloc(); });
  CHECK(oom_code == 2);
  CHECK_THAT(oom_err, Catch::Contains("error: internal: out of memory"));
}

TEST_CASE("a command's own exit code passes through the guard") {
  CHECK(guarded([] { return 0; }).first == 0);
  CHECK(guarded([] { return 1; }).first == 1);
  CHECK(guarded([] { return 0; }).second == "");
}
