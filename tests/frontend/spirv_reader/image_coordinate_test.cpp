// An image instruction's coordinate may have more components than the image
// needs in SPIR-V (spirv-val checks "at least"); the IR, like every GLSL
// texture and image function, takes exactly that many, so the reader drops
// the rest (a projective lookup's q is the last needed component, SPIR-V
// 1.6 §3.3.10). Found by the spirv fuzz target (CI's 20-second campaign):
// the reader made invalid IR of a valid module for OpImageRead; the GLSL
// output then wrote texelFetch(sampler2D, ivec3, int), which glslang rejects.
#include <catch2/catch.hpp>

#include <string>

#include "exec/glsl_compiler/glsl_compile.h"
#include "output/glsl/glsl_output.h"
#include "read_checked.h"

using namespace sluice;

namespace {

// imageStore(img, c, imageLoad(img, c)) on a storage image of DIM with a
// COORD-typed constant coordinate c = (1, 2[, 3]).
std::string module_text(const std::string& dim, const std::string& coord_type, const std::string& coord) {
  return R"(
               OpCapability Shader
               OpCapability Image1D
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %img
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %img DescriptorSet 0
               OpDecorate %img Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
        %int = OpTypeInt 32 1
       %uint = OpTypeInt 32 0
      %v2int = OpTypeVector %int 2
      %v3int = OpTypeVector %int 3
     %v3uint = OpTypeVector %uint 3
    %v4float = OpTypeVector %float 4
         %it = OpTypeImage %float )" +
         dim + R"( 0 0 0 2 Rgba32f
        %pit = OpTypePointer UniformConstant %it
        %img = OpVariable %pit UniformConstant
      %int_1 = OpConstant %int 1
      %int_2 = OpConstant %int 2
      %int_3 = OpConstant %int 3
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
          %c = OpConstantComposite )" +
         coord_type + " " + coord + R"(
       %main = OpFunction %void None %fn
          %l = OpLabel
          %i = OpLoad %it %img
          %r = OpImageRead %v4float %i %c
               OpImageWrite %i %c %r
               OpReturn
               OpFunctionEnd
)";
}

// A fragment shader sampling a sampler2D with coordinates of three and four
// components: OpImageFetch at ivec3, OpImageSampleImplicitLod at vec3 and
// OpImageSampleProjImplicitLod at vec4 (q is the third component).
const char* kSampling = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint Fragment %main "main" %tex %o
               OpExecutionMode %main OriginUpperLeft
               OpDecorate %tex DescriptorSet 0
               OpDecorate %tex Binding 0
               OpDecorate %o Location 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
        %int = OpTypeInt 32 1
      %v3int = OpTypeVector %int 3
    %v3float = OpTypeVector %float 3
    %v4float = OpTypeVector %float 4
         %it = OpTypeImage %float 2D 0 0 0 1 Unknown
         %st = OpTypeSampledImage %it
        %pst = OpTypePointer UniformConstant %st
        %tex = OpVariable %pst UniformConstant
         %po = OpTypePointer Output %v4float
          %o = OpVariable %po Output
      %int_0 = OpConstant %int 0
      %int_1 = OpConstant %int 1
      %int_2 = OpConstant %int 2
      %int_3 = OpConstant %int 3
  %float_0_5 = OpConstant %float 0.5
 %float_0_25 = OpConstant %float 0.25
    %float_2 = OpConstant %float 2
    %float_4 = OpConstant %float 4
          %c = OpConstantComposite %v3int %int_1 %int_2 %int_3
          %f = OpConstantComposite %v3float %float_0_5 %float_0_25 %float_4
          %p = OpConstantComposite %v4float %float_0_5 %float_0_25 %float_2 %float_4
       %main = OpFunction %void None %fn
          %l = OpLabel
          %s = OpLoad %st %tex
          %i = OpImage %it %s
          %r = OpImageFetch %v4float %i %c Lod %int_0
          %q = OpImageSampleImplicitLod %v4float %s %f
          %w = OpImageSampleProjImplicitLod %v4float %s %p
         %a1 = OpFAdd %v4float %r %q
         %a2 = OpFAdd %v4float %a1 %w
               OpStore %o %a2
               OpReturn
               OpFunctionEnd
)";

std::string read_to_glsl(const std::string& text, exec::ShaderStage stage = exec::ShaderStage::Compute) {
  const ir::Module m = testing::read_checked(text, "coordinate.spvasm");
  auto glsl = glsl_out::emit(m, {});
  REQUIRE(glsl.ok());
  auto compiled = exec::compile_glsl(*glsl, stage);
  INFO(*glsl);
  INFO((compiled ? std::string() : compiled.error()));
  CHECK(compiled.ok());
  return *glsl;
}

}  // namespace

TEST_CASE("storage-image coordinates longer than the image needs are cut to its components") {
  SECTION("image1D read and written at ivec3(1, 2, 3): x") {
    const std::string glsl = read_to_glsl(module_text("1D", "%v3int", "%int_1 %int_2 %int_3"));
    CHECK(glsl.find("imageLoad(v2, ivec3(1, 2, 3).x)") != std::string::npos);
    CHECK(glsl.find("imageStore(v2, ivec3(1, 2, 3).x,") != std::string::npos);
  }
  SECTION("image2D at uvec3(1, 2, 3): signed (1, 2)") {
    const std::string glsl = read_to_glsl(module_text("2D", "%v3uint", "%uint_1 %uint_2 %uint_3"));
    CHECK(glsl.find("imageStore(v2, ivec3(uvec3(1u, 2u, 3u)).xy,") != std::string::npos);
  }
  SECTION("an exact coordinate is kept") {
    const std::string glsl = read_to_glsl(module_text("2D", "%v2int", "%int_1 %int_2"));
    CHECK(glsl.find("imageLoad(v2, ivec2(1, 2))") != std::string::npos);
  }
}

TEST_CASE("sampling and fetch coordinates longer than the image needs are cut to its components") {
  const std::string glsl = read_to_glsl(kSampling, exec::ShaderStage::Fragment);
  CHECK(glsl.find("texelFetch(v2, ivec3(1, 2, 3).xy, 0)") != std::string::npos);
  CHECK(glsl.find("texture(v2, vec3(0.5, 0.25, 4.0).xy)") != std::string::npos);
  CHECK(glsl.find("textureProj(v2, vec4(0.5, 0.25, 2.0, 4.0).xyz)") != std::string::npos);  // q = 2.0
}
