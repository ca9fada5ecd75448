// The pipelines of the fuzz targets (fuzz_pipeline.h). Outputs are checked
// by independent tools: SPIRV-Tools' validator for the SPIR-V, glslang
// (through Sluice's GLSL front end, which reports glslang's errors) for the
// GLSL.
#include "fuzz_pipeline.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "frontend/glsl/glsl_frontend.h"
#include "frontend/lambdav/lambdav.h"
#include "frontend/spirv/reader.h"
#include "ir/parse.h"
#include "output/glsl/glsl_output.h"
#include "output/spirv/spirv_output.h"
#include "transform/pass_manager.h"
#include "validator/validator.h"

namespace sluice::fuzz {
namespace {

std::vector<std::string> validation_messages(const ir::Module& m) {
  std::vector<std::string> out;
  for (const auto& p : validator::validate(m)) out.push_back(validator::describe(m, p));
  return out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

Outcome rejected(const Diagnostics& diagnostics, std::string_view what) {
  Outcome o;
  for (const Diagnostic& d : diagnostics)
    if (d.severity == Severity::Error) {
      o.diagnostic = d.message;
      return o;
    }
  o.finding = std::string(what) + " rejected the input without an error diagnostic";
  return o;
}

Outcome check_outputs(const ir::Module& m) {
  const spirv::Options spirv_options;
  Outcome outcome;
  if (auto words = spirv::emit(m, spirv_options)) {
    // An output error on valid IR is a diagnostic (a form the output does
    // not support, e.g. what Vulkan forbids), not a finding; a module
    // spirv-val rejects is.
    if (auto problems = spirv::validate(*words, spirv_options.target); !problems.empty()) {
      std::string text = joined(problems);
      if (auto dis = spirv::disassemble(*words, spirv_options.target)) text += *dis;
      return {"SPIR-V output fails spirv-val:\n" + text, {}};
    }
  } else {
    outcome.diagnostic = "SPIR-V output: " + words.error();
  }
  auto text = glsl_out::emit(m, glsl_out::Options{});
  if (!text && outcome.diagnostic.empty()) outcome.diagnostic = text.error();  // "GLSL output: ..."
  if (text) {
    glsl_in::Options back;
    back.stage = m.shader().stage;
    auto r = glsl_in::compile(*text, "output.glsl", back);
    if (!r.module) {
      std::string detail;
      for (const auto& d : r.diagnostics) detail += d.message + "\n";
      return {"GLSL output is rejected by glslang:\n" + detail + *text, {}};
    }
  }
  return outcome;
}

Outcome optimize_and_emit(ir::Module m) {
  transform::PassManager pm;
  transform::RunOptions run;
  run.validate = validation_messages;
  if (auto ran = pm.run(m, *pm.pipeline("O1"), run); !ran) return {"-O1 failed or broke the IR: " + ran.error(), {}};
  return check_outputs(m);
}

Outcome from_front_end(ir::Module m, std::string_view front_end) {
  if (auto problems = validation_messages(m); !problems.empty())
    return {std::string(front_end) + " front end gave invalid IR:\n" + joined(problems), {}};
  return optimize_and_emit(std::move(m));
}

}  // namespace

Outcome run_lambdav(std::string_view source) {
  lambdav::CompileOptions options;
  options.file_name = "fuzz.lv";
  auto r = lambdav::compile(source, options);
  if (!r.module) return rejected(r.diagnostics, "λV");
  return from_front_end(std::move(*r.module), "λV");
}

Outcome run_glsl(std::string_view source) {
  glsl_in::Options options;
  options.auto_map_locations = true;
  options.auto_map_bindings = true;
  options.stage = source.find("local_size") != std::string_view::npos    ? ir::ShaderStage::Compute
                  : source.find("gl_Position") != std::string_view::npos ? ir::ShaderStage::Vertex
                                                                         : ir::ShaderStage::Fragment;
  auto r = glsl_in::compile(source, "fuzz.glsl", options);
  if (!r.module) return rejected(r.diagnostics, "GLSL");
  return from_front_end(std::move(*r.module), "GLSL");
}

Outcome run_ir(std::string_view text) {
  auto parsed = ir::parse_module(text, "fuzz.ir");
  if (!parsed.module) return rejected(parsed.diagnostics, "the IR parser");
  const ir::Module& m = *parsed.module;
  if (auto problems = validator::validate(m); !problems.empty()) return {{}, validator::describe(m, problems.front())};
  transform::PassManager pm;
  for (const transform::PassInfo& pass : pm.passes()) {
    ir::Module copy = m;
    if (auto r = pass.run(copy); !r) continue;  // a pass may refuse IR, with an error value
    if (auto problems = validation_messages(copy); !problems.empty())
      return {"pass '" + pass.name + "' broke valid IR:\n" + joined(problems), {}};
  }
  return optimize_and_emit(m);
}

// The reader runs on every input without spirv-val in front of it (as a
// library user may call it), so any bytes test its robustness. Its outputs
// are held to spirv-val's verdict on the input for the target: `sluice
// compile` refuses input that is invalid for the target
// (ReadOptions::validate_for), so invalid output from invalid input is no
// finding, while invalid IR or output from valid input is.
Outcome run_spirv(std::string_view bytes) {
  spirv_in::ParseResult parsed = spirv_in::parse_bytes(bytes);
  if (!parsed.ok()) return {{}, "fuzz.spv: error: " + parsed.error().describe()};
  const spirv_in::Module& input = parsed.value();
  auto input_is_valid = [&] {
    return spirv_in::validate(input, spirv::spvtools_env(spirv::Options{}.target)).messages.empty();
  };
  auto r = spirv_in::read(input, spirv_in::ReadOptions{"fuzz.spv"});
  if (r) {
    Outcome outcome = from_front_end(std::move(r).value(), "SPIR-V");
    const bool output_invalid = outcome.finding.starts_with("SPIR-V output fails") ||
                                outcome.finding.starts_with("GLSL output is rejected");
    if (output_invalid && !input_is_valid())
      return {{}, "fuzz.spv: error: the input is not valid SPIR-V for the target"};
    return outcome;
  }
  if (r.error().empty()) return {"the SPIR-V reader rejected the input without a message", {}};
  if (r.error().find("does not translate to valid IR") != std::string::npos && input_is_valid())
    return {"the SPIR-V reader made invalid IR of a module spirv-val accepts:\n" + r.error(), {}};
  return {{}, r.error()};
}

void abort_on_finding(const Outcome& outcome) {
  if (outcome.finding.empty()) return;
  std::fprintf(stderr, "FINDING: %s\n", outcome.finding.c_str());
  std::abort();
}

}  // namespace sluice::fuzz
