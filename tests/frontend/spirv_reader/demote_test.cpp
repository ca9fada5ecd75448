// OpDemoteToHelperInvocation (SPV_EXT_demote_to_helper_invocation) reads
// as the IR's Demote, which is no terminator: the block goes on after it.
// Sluice's SPIR-V writes it back with its capability and extension and
// passes spirv-val; Sluice's GLSL spells it `demote` under
// GL_EXT_demote_to_helper_invocation and compiles with glslang. The same
// module runs on lavapipe in tests/tools/xcheck_spirv_test.cpp.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "exec/glsl_compiler/glsl_compile.h"
#include "ir/dump.h"
#include "output/glsl/glsl_output.h"
#include "output/spirv/spirv_output.h"
#include "read_checked.h"

using namespace sluice;

TEST_CASE("OpDemoteToHelperInvocation reads as Demote and is written back") {
  const auto path =
      std::filesystem::path(SLUICE_GOLDEN_DIR).parent_path() / "tools" / "xcheck_spirv" / "demote.spvasm";
  std::ifstream in(path);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  const ir::Module m = testing::read_checked(text.str(), "demote.spvasm");
  const std::string dump = ir::dump(m);
  INFO(dump);
  CHECK(dump.find("Demote") != std::string::npos);
  CHECK(dump.find("Discard") == std::string::npos);

  auto words = spirv::emit(m);
  REQUIRE(words.ok());
  auto assembly = spirv::disassemble(*words, spirv::TargetEnv::Vulkan1_0);
  REQUIRE(assembly.ok());
  CHECK(assembly->find("OpDemoteToHelperInvocation") != std::string::npos);
  CHECK(assembly->find("OpExtension \"SPV_EXT_demote_to_helper_invocation\"") != std::string::npos);

  auto glsl = glsl_out::emit(m, {});
  REQUIRE(glsl.ok());
  INFO(*glsl);
  CHECK(glsl->find("#extension GL_EXT_demote_to_helper_invocation : require") != std::string::npos);
  CHECK(glsl->find("demote;") != std::string::npos);
  auto compiled = exec::compile_glsl(*glsl, exec::ShaderStage::Fragment);
  INFO((compiled ? std::string() : compiled.error()));
  CHECK(compiled.ok());
}

TEST_CASE("Demote outside a fragment shader is a validator problem") {
  const std::string text = R"(
OpCapability Shader
OpCapability DemoteToHelperInvocationEXT
OpExtension "SPV_EXT_demote_to_helper_invocation"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpDemoteToHelperInvocation
OpReturn
OpFunctionEnd
)";
  // The reader validates what it read: the validator's problem is its error.
  auto m = spirv_in::read_bytes(text, {"demote.spvasm"});
  REQUIRE(!m.ok());
  CHECK(m.error().find("Demote in a Compute shader; only fragment shaders demote") != std::string::npos);
}
