// One input through what a fuzz target runs (issue 16), as a library: the
// libFuzzer entry points (fuzz/*_fuzzer.cpp) abort on a finding, and the
// regression test (tests/fuzz) runs every saved input through the same
// functions with any compiler.
//
// A finding is anything that is not a clean answer: a front end that gives
// invalid IR, a pass that breaks valid IR (the validator runs after every
// pass), an output that its own validator rejects (spirv-val in-process on
// the SPIR-V; glslang on the GLSL), an input rejected without a
// diagnostic. Crashes, sanitizer reports and timeouts are findings too;
// libFuzzer catches those. Bad input is never a finding: it must only give
// diagnostics.
#pragma once

#include <string>
#include <string_view>

namespace sluice::fuzz {

struct Outcome {
  std::string finding;     // empty: none; else what went wrong, with details
  std::string diagnostic;  // the first error message when the input was rejected (by a front end, or
                           // "SPIR-V output: ..." when the SPIR-V output refuses it); empty when it compiled
};

// λV text → IR → -O1 → SPIR-V and GLSL.
Outcome run_lambdav(std::string_view source);
// GLSL text → glslang → IR → -O1 → SPIR-V and GLSL. The stage comes from
// the text: local_size means compute, gl_Position vertex, else fragment.
Outcome run_glsl(std::string_view source);
// IR text → parse → validate; valid IR → every pass alone (validated
// after), then -O1 → SPIR-V and GLSL.
Outcome run_ir(std::string_view text);
// SPIR-V (a binary, or assembly text for the saved inputs) → the SPIR-V
// reader → IR → -O1 → SPIR-V and GLSL. The reader must survive any bytes
// (ids out of range, cycles, wrong operand counts: issue 13) with an error;
// a module spirv-val accepts that the reader turns into invalid IR is a
// finding.
Outcome run_spirv(std::string_view bytes);

// Prints the finding and aborts, so that libFuzzer saves the input.
void abort_on_finding(const Outcome& outcome);

}  // namespace sluice::fuzz
