// glslang's info log ("ERROR: file:12: 'foo' : undeclared identifier")
// as Sluice diagnostics.
#pragma once

#include <functional>
#include <string_view>

#include "ir/diagnostic.h"

namespace sluice::glsl_in::detail {

// The text of a file named in the log: the shader or an included file.
using SourceOf = std::function<std::string_view(std::string_view file)>;

// Appends the errors and warnings of `log`. A message names its file (the
// shader, `file`, or an included one); glslang reports lines but not
// columns; the column is where the message's quoted token first appears on
// that line of that file (1 when it does not).
void append_info_log(std::string_view log, std::string_view file, const SourceOf& source_of, Diagnostics& out);

}  // namespace sluice::glsl_in::detail
