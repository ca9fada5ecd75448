// The SPIR-V reader on access chains with a constant index past the end of
// a vector, a matrix or an array, as GraphicsFuzz's never-executed code has
// them (exec/cov-vector-illegal-index-never-executed.amber,
// two-loops-mat-add.amber): the module reads into valid IR, its SPIR-V passes
// spirv-val and its GLSL compiles with glslang (which refuses a constant
// index out of range), each such access going to a local instead.
#include <catch2/catch.hpp>

#include <string>

#include "exec/glsl_compiler/glsl_compile.h"
#include "frontend/spirv/reader.h"
#include "ir/dump.h"
#include "output/glsl/glsl_output.h"
#include "output/spirv/spirv_output.h"
#include "validator/validator.h"

using namespace sluice;

namespace {

// Reads `text` into IR the validator accepts.
ir::Module read_valid(const std::string& text, const char* name) {
  auto m = spirv_in::read_bytes(text, {name});
  INFO((m.ok() ? std::string() : m.error()));
  REQUIRE(m.ok());
  const auto problems = validator::validate(*m);
  INFO(validator::describe(*m, problems));
  REQUIRE(problems.empty());
  return std::move(*m);
}

// The locals the reader made for accesses out of range.
std::size_t out_of_bounds_locals(const std::string& dump) {
  std::size_t locals = 0;
  for (std::size_t at = dump.find("out_of_bounds"); at != std::string::npos; at = dump.find("out_of_bounds", at + 1))
    ++locals;
  return locals;
}

// The module's GLSL, which glslang must compile.
std::string compiled_glsl(const ir::Module& m) {
  auto glsl = glsl_out::emit(m, {});
  REQUIRE(glsl.ok());
  INFO(*glsl);
  auto compiled = exec::compile_glsl(*glsl, exec::ShaderStage::Fragment);
  INFO((compiled ? std::string() : compiled.error()));
  CHECK(compiled.ok());
  return *glsl;
}

}  // namespace

TEST_CASE("constant indices out of range read as accesses to a local") {
  const std::string text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %out
OpExecutionMode %main OriginUpperLeft
OpDecorate %out Location 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v4 = OpTypeVector %float 4
%m2 = OpTypeMatrix %v4 2
%u3 = OpConstant %uint 3
%arr = OpTypeArray %float %u3
%pv4 = OpTypePointer Private %v4
%pm2 = OpTypePointer Private %m2
%parr = OpTypePointer Private %arr
%pf = OpTypePointer Private %float
%pcol = OpTypePointer Private %v4
%pout = OpTypePointer Output %v4
%vec = OpVariable %pv4 Private
%mat = OpVariable %pm2 Private
%a = OpVariable %parr Private
%out = OpVariable %pout Output
%i0 = OpConstant %int 0
%i4 = OpConstant %int 4
%i5 = OpConstant %int 5
%im1 = OpConstant %int -1
%f1 = OpConstant %float 1
%main = OpFunction %void None %fn
%entry = OpLabel
%p1 = OpAccessChain %pf %vec %i4
OpStore %p1 %f1
%p2 = OpAccessChain %pcol %mat %i5
%col = OpLoad %v4 %p2
%p3 = OpAccessChain %pf %mat %i0 %im1
%x = OpLoad %float %p3
%p4 = OpAccessChain %pf %a %i5
OpStore %p4 %x
%p5 = OpAccessChain %pf %vec %i0
%ok = OpLoad %float %p5
%r = OpCompositeInsert %v4 %ok %col 0
OpStore %out %r
OpReturn
OpFunctionEnd
)";
  const ir::Module m = read_valid(text, "oob.spvasm");
  const std::string dump = ir::dump(m);
  INFO(dump);
  // One local per access out of range (%p1 … %p4; %p3's second index); the
  // access in range (%p5) takes none.
  CHECK(out_of_bounds_locals(dump) == 4);

  auto words = spirv::emit(m);
  REQUIRE(words.ok());
  const auto val = spirv::validate(*words, spirv::TargetEnv::Vulkan1_0);
  INFO((val.empty() ? std::string() : val.front()));
  CHECK(val.empty());
  compiled_glsl(m);
}

// A negative constant index is out of range of a runtime-sized array too
// (OpAccessChain's indexes are signed; glslang refuses `v[-1]` for every
// array): it goes to a local, while an index in range keeps the access.
TEST_CASE("a negative constant index into a runtime array reads as an access to a local") {
  const std::string text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %out
OpExecutionMode %main OriginUpperLeft
OpDecorate %out Location 0
OpDecorate %rt ArrayStride 16
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf BufferBlock
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%v4 = OpTypeVector %float 4
%rt = OpTypeRuntimeArray %v4
%Buf = OpTypeStruct %rt
%pbuf = OpTypePointer Uniform %Buf
%pv4 = OpTypePointer Uniform %v4
%pout = OpTypePointer Output %v4
%buf = OpVariable %pbuf Uniform
%out = OpVariable %pout Output
%i0 = OpConstant %int 0
%i7 = OpConstant %int 7
%im1 = OpConstant %int -1
%main = OpFunction %void None %fn
%entry = OpLabel
%p1 = OpAccessChain %pv4 %buf %i0 %im1
%x = OpLoad %v4 %p1
%p2 = OpAccessChain %pv4 %buf %i0 %i7
%y = OpLoad %v4 %p2
%s = OpFAdd %v4 %x %y
OpStore %out %s
OpReturn
OpFunctionEnd
)";
  const ir::Module m = read_valid(text, "negative.spvasm");
  const std::string dump = ir::dump(m);
  INFO(dump);
  CHECK(out_of_bounds_locals(dump) == 1);
  CHECK(dump.find("AccessArrayElement") != std::string::npos);  // %p2 keeps its access
  CHECK(compiled_glsl(m).find("[7]") != std::string::npos);
}
