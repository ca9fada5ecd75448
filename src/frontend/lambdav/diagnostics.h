// Where the λV front end's passes report errors: a sink that stamps every
// diagnostic with the source file name and stops recording after a cap, so
// that a file of a million bad tokens yields a short, readable report.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ir/diagnostic.h"

namespace sluice::lambdav {

class DiagnosticSink {
 public:
  DiagnosticSink(std::string file, Diagnostics& out, std::size_t max_errors = 50)
      : file_(std::move(file)), out_(out), max_errors_(max_errors) {}

  void error(std::uint32_t line, std::uint32_t column, std::string message) {
    ++errors_;
    if (out_.size() >= max_errors_) return;
    out_.push_back(Diagnostic{Severity::Error, file_, line, column, std::move(message)});
  }
  std::size_t error_count() const { return errors_; }
  bool full() const { return out_.size() >= max_errors_; }
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  Diagnostics& out_;
  std::size_t max_errors_;
  std::size_t errors_ = 0;
};

}  // namespace sluice::lambdav
