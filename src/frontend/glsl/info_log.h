// glslang's info log ("ERROR: file:12: 'foo' : undeclared identifier")
// as Sluice diagnostics.
#pragma once

#include <string_view>

#include "ir/diagnostic.h"

namespace sluice::glsl::detail {

// Appends the errors and warnings of `log`. glslang reports lines but not
// columns; the column is where the message's quoted token first appears on
// that source line (1 when it does not).
void append_info_log(std::string_view log, std::string_view file, std::string_view source, Diagnostics& out);

}  // namespace sluice::glsl::detail
