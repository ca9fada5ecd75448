// Sluice as a library (docs/library.md): build a fragment shader's IR with
// the Builder, check it with the validator, run the -O1 passes, emit SPIR-V
// and check that with spirv-val; then read the diagnostics of a broken GLSL
// shader. Writes the SPIR-V to the file named on the command line.
//
//   layout(location = 0) in vec2 uv;
//   layout(location = 0) out vec4 color;
//   void main() { color = uv.x > 0.5 ? vec4(0, 1, 0, 1) : vec4(1, 0, 0, 1); }
#include <cstdio>
#include <fstream>
#include <iostream>

#include "frontend/glsl/glsl_frontend.h"
#include "ir/builder.h"
#include "ir/predefined.h"
#include "output/spirv/spirv_output.h"
#include "transform/pass_manager.h"
#include "validator/validator.h"

namespace {

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;

// The Builder reports ill-typed operands as errors; a program this small
// has none, so any is a bug worth stopping for.
template <class T>
T must(Result<T> r) {
  if (!r) {
    std::cerr << "consumer: builder: " << r.error() << "\n";
    std::exit(1);
  }
  return *r;
}

Module build_shader() {
  Module m(ShaderStage::Fragment);
  Builder b(m);
  Decorations location0;
  location0.location = 0;
  const VariableId uv = b.add_global({"uv", NameSource::Interface}, kVec2, StorageClass::Input, Precision::None, location0);
  const VariableId color =
      b.add_global({"color", NameSource::Interface}, kVec4, StorageClass::Output, Precision::None, location0);
  const ConstantId green_parts[] = {kFloatZero, kFloatOne, kFloatZero, kFloatOne};
  const ConstantId red_parts[] = {kFloatOne, kFloatZero, kFloatZero, kFloatOne};
  const ConstantId green = m.composite_constant(kVec4, green_parts);
  const ConstantId red = m.composite_constant(kVec4, red_parts);
  const ConstantId half = m.float_constant(0.5f);

  b.begin_function({"main", NameSource::Internal}, kVoid);
  const RegisterId x_pointer = must(b.emit(Opcode::AccessVectorComponent, {uv, Operand::literal(0)}));
  const RegisterId x = must(b.load(x_pointer));
  const RegisterId right = must(b.emit(Opcode::GreaterThan, {x, half}));
  // An If whose merge block takes one vec4: the value of `?:`.
  const IfBlocks pick = must(b.branch_if(right, true, kVec4));
  b.set_block(pick.true_block);
  must(b.terminate(Opcode::Merge, green));
  b.set_block(pick.false_block);
  must(b.terminate(Opcode::Merge, red));
  b.set_block(pick.merge);
  must(b.store(color, b.merge_input(pick.merge)));
  must(b.terminate(Opcode::Return));
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: consumer OUT.spv\n";
    return 2;
  }
  Module m = build_shader();

  // 1. The IR's rules (docs/ir.md): problems come back as values.
  if (const auto problems = validator::validate(m); !problems.empty()) {
    std::cerr << validator::describe(m, problems);
    return 1;
  }
  // 2. Sluice's -O1 pipeline, validating after every pass.
  transform::PassManager passes;
  transform::RunOptions run;
  run.validate = [](const Module& module) {
    std::vector<std::string> messages;
    for (const auto& p : validator::validate(module)) messages.push_back(validator::describe(module, p));
    return messages;
  };
  auto pipeline = passes.pipeline("O1");
  if (!pipeline) return std::cerr << pipeline.error() << "\n", 1;
  if (auto ran = passes.run(m, *pipeline, run); !ran) return std::cerr << ran.error() << "\n", 1;
  // 3. SPIR-V for Vulkan 1.0, checked by SPIRV-Tools' validator.
  spirv::Options options;
  options.target = spirv::TargetEnv::Vulkan1_0;
  auto words = spirv::emit(m, options);
  if (!words) return std::cerr << words.error() << "\n", 1;
  for (const std::string& message : spirv::validate(*words, options.target)) {
    std::cerr << "spirv-val: " << message << "\n";
    return 1;
  }
  std::ofstream(argv[1], std::ios::binary)
      .write(reinterpret_cast<const char*>(words->data()), static_cast<std::streamsize>(words->size() * 4));
  std::cout << "consumer: " << words->size() << " SPIR-V words, valid for vulkan1.0\n";

  // 4. Diagnostics: a front end returns them as values; render() gives the
  //    `file:line:col: error:` text with the source line and a caret.
  const std::string broken = "#version 450\nvoid main() { float x = y; }\n";
  const glsl_in::Result r = glsl_in::compile(broken, "broken.frag");
  if (r.module || !has_errors(r.diagnostics)) return std::cerr << "consumer: the broken shader compiled\n", 1;
  std::cout << render(r.diagnostics, broken);
  return 0;
}
