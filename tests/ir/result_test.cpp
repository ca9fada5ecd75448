// Result<T> and the structured Error (ir/result.h): the code and the text
// survive propagation with failure() and prefixed().
#include <catch2/catch.hpp>

#include "ir/result.h"

using namespace sluice;

namespace {

Result<int> parse_line(int line) {
  if (line < 0) return internal_error("internal error: negative line");
  return Error{"unexpected token", ErrorCode::Rejected, ErrorLocation{"", static_cast<std::uint32_t>(line), 0}};
}

Result<bool> caller(int line) {
  auto r = parse_line(line);
  if (!r) return r.failure();
  return true;
}

Result<bool> caller_with_context(int line) {
  auto r = parse_line(line);
  if (!r) return r.failure().prefixed("a.amber: ");
  return true;
}

}  // namespace

TEST_CASE("failure() passes an error on with its code, message and location") {
  const Result<bool> r = caller(3);
  REQUIRE_FALSE(r.ok());
  CHECK(r.failure().code == ErrorCode::Rejected);
  CHECK(r.failure().message == "unexpected token");
  REQUIRE(r.failure().location);
  CHECK(r.failure().location->line == 3);
  CHECK(r.error() == "line 3: unexpected token");
  CHECK(caller(-1).failure().code == ErrorCode::Internal);
}

TEST_CASE("prefixed() puts context in front of the location and keeps the code") {
  const Result<bool> r = caller_with_context(7);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error() == "a.amber: line 7: unexpected token");
  CHECK(r.failure().code == ErrorCode::Rejected);
  CHECK(caller_with_context(-1).failure().code == ErrorCode::Internal);
  CHECK(caller_with_context(-1).error() == "a.amber: internal error: negative line");
}

TEST_CASE("an error's text names file, line and column when it has them") {
  CHECK(Error{"m"}.text() == "m");
  CHECK(Error{"m", ErrorCode::Rejected, ErrorLocation{"x.ir", 2, 5}}.text() == "x.ir:2:5: m");
  CHECK(Error{"m", ErrorCode::Rejected, ErrorLocation{"x.ir", 2, 0}}.text() == "x.ir:2: m");
  CHECK(Error{"m", ErrorCode::Rejected, ErrorLocation{"", 4, 1}}.text() == "line 4, column 1: m");
}
