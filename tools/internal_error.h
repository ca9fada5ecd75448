// The last guard of every tool's main(): an exception that escapes a
// command is a bug in Sluice, never the user's fault, and is reported as
// `error: internal: …` with exit code 2 (issue 16) instead of terminating
// the process (std::terminate would abort with a core dump and no message
// a user can act on). Bad input is reported before this point, as
// diagnostics with exit code 1.
#pragma once

#include <exception>
#include <iostream>
#include <new>
#include <string_view>

#include "sluice_commands.h"

namespace sluice::tools {

template <class F>
int run_guarded(std::string_view tool, F&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    std::cerr << tool << ": error: internal: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << tool << ": error: internal: " << e.what() << " (please report this input)\n";
  } catch (...) {
    std::cerr << tool << ": error: internal: unknown exception (please report this input)\n";
  }
  return kExitInternal;
}

}  // namespace sluice::tools
