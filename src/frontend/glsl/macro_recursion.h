// Macros that make glslang's preprocessor recurse without bound.
//
// glslang's preprocessor (Debian 12's 11.13 and the 12.x–15.x releases;
// fixed upstream by KhronosGroup/glslang#4338) expands a function-like
// macro's arguments in TPpContext::PrescanMacroArg, which calls MacroExpand
// on each name in them, which collects and prescans the arguments of the
// calls it finds: a native recursion. A macro is "busy" (not expanded
// again) only while its body is on the input stack, and collecting the
// arguments of a call that the body opens but does not close reads past the
// end of the body, pops it and so clears its busy flag. When the collected
// arguments hold the body's own tail and that tail (through any macros)
// names the macro again, each prescan expands it once more and opens the
// same call again, one level deeper, with no end, e.g.
//
//     #define F(A, B) A
//     #define ONE F(clamp(ONE, max(ONE, ONE), ONE);
//     int a = clamp(ONE, max(ONE, ONE), ONE);
//
// glslangValidator -V and -E overflow their 8 MB stack on it in 0.3 s;
// Sluice, which runs glslang on a 256 MB stack (session.cpp), went 30 times
// deeper, and every level copies the remaining tokens into glslang's pool:
// 12–21 GB and 40–90 s before the crash (docs/testing.md, fifth campaign).
//
// Sluice refuses such a shader before glslang reads it: a macro whose body
// leaves a `(` open (a call it opens, or one that a macro before it opens,
// then reads its arguments past the body's end) and that lies on a cycle
// of "the body of A names B", or is reached from one or reaches one (the
// names a popped body leaves in the arguments come back through it). An
// open parenthesis or a cycle alone is harmless (a self-reference is not
// expanded while busy; without a cycle each level consumes input) and is
// accepted. A body that pastes tokens (`##`) may make any macro's name,
// so it counts as naming every macro. The test is syntactic and conservative: #undef and conditional
// compilation are not followed (a definition anywhere counts), and files
// reached through #include are not scanned (docs/limits.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sluice::glsl_in::detail {

struct RunawayMacro {
  std::string name;    // the macro whose expansion recurses
  std::string cycle;   // a macro on the cycle it is on, reaches or is reached from (`name` itself if on one);
                       // empty when the cycle goes through a `##` (pasting can make any macro's name)
  std::uint32_t line = 0, column = 0;  // of the name in its #define (1-based)
};

// The first macro of `source` (in definition order) of the shape above, if any.
std::optional<RunawayMacro> find_runaway_macro(std::string_view source);

}  // namespace sluice::glsl_in::detail
