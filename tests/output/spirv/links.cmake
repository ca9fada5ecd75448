# Extra links of test_output_spirv (included from tests/areas.cmake): the
# RelaxedPrecision test compiles corpus shaders with the GLSL front end and,
# for reference, with glslang's own SPIR-V generator.
if(NOT TARGET test_output_spirv OR NOT TARGET sluice_glsl_frontend OR NOT TARGET sluice_exec_glslang)
  return()
endif()
target_link_libraries(test_output_spirv PRIVATE sluice_glsl_frontend sluice_exec_glslang)
target_compile_definitions(test_output_spirv PRIVATE SLUICE_HAVE_GLSL_FRONTEND=1)
# The λV loop-form size test compiles λV and runs Sluice's pipelines.
if(TARGET sluice_lambdav AND TARGET sluice_transform)
  target_link_libraries(test_output_spirv PRIVATE sluice_lambdav sluice_transform)
endif()
