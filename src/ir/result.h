// Errors as values. Result<T> is a T or an Error; std::expected arrives
// with C++23, and this is the small part of it Sluice needs.
//
// An Error is structured: what kind of failure (code), what went wrong
// (message) and, where the failing step knows it, where (location). A
// caller that cannot handle a failure passes it on unchanged with
// `return r.failure();`, or with context in front with
// `return r.failure().prefixed("...: ");` — the one way to propagate, which
// keeps the code of the first failure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace sluice {

enum class ErrorCode : std::uint8_t {
  Rejected,     // the input is malformed or asks for what is not supported (the message says which)
  Internal,     // Sluice broke one of its own invariants: a bug, never the input's fault
  Environment,  // the file system, the Vulkan device or an external tool failed
};

// Where in a text the failure is. An empty file means the text the caller
// is reading; column 0 means the whole line.
struct ErrorLocation {
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

struct Error {
  std::string message;
  ErrorCode code = ErrorCode::Rejected;
  std::optional<ErrorLocation> location = std::nullopt;

  // The error with context in front: "prefix" + text(). The code stays; a
  // location goes into the text, since the context reads before it
  // ("a.amber: line 3: ...").
  Error prefixed(const std::string& prefix) const { return Error{prefix + text(), code, std::nullopt}; }

  // "file:line:col: message", "line N: message" without a file, or the
  // message alone without a location.
  std::string text() const {
    if (!location || location->line == 0) return message;
    const ErrorLocation& l = *location;
    std::string where = l.file.empty() ? "line " + std::to_string(l.line) : l.file + ":" + std::to_string(l.line);
    if (l.column > 0) where += (l.file.empty() ? ", column " : ":") + std::to_string(l.column);
    return where + ": " + message;
  }
};

inline Error internal_error(std::string message) { return Error{std::move(message), ErrorCode::Internal, {}}; }

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error e) : v_(std::move(e)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  // The failure as a whole, to pass on to the caller.
  const Error& failure() const& { return std::get<1>(v_); }
  Error&& failure() && { return std::get<1>(std::move(v_)); }
  // The failure as text (Error::text()).
  std::string error() const { return failure().text(); }

 private:
  std::variant<T, Error> v_;
};

}  // namespace sluice
