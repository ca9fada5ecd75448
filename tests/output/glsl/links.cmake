# Extra links of test_output_glsl (included from tests/areas.cmake): glslang
# and SPIRV-Tools compile and validate the emitted text in process; the front
# ends, where they exist, feed the round-trip and λV tests.
if(NOT TARGET test_output_glsl)
  return()
endif()
target_link_libraries(test_output_glsl PRIVATE glslang::glslang glslang::SPIRV
  glslang::glslang-default-resource-limits SPIRV-Tools-static)
if(TARGET sluice_glsl_frontend)
  target_link_libraries(test_output_glsl PRIVATE sluice_glsl_frontend)
  target_compile_definitions(test_output_glsl PRIVATE SLUICE_HAVE_GLSL_FRONTEND=1)
endif()
if(TARGET sluice_lambdav)
  target_link_libraries(test_output_glsl PRIVATE sluice_lambdav)
  target_compile_definitions(test_output_glsl PRIVATE SLUICE_HAVE_LAMBDAV=1)
endif()
# The λV tests' reference IR evaluator, to check that λV → GLSL → IR computes
# what the λV program's own IR computes.
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/frontend/lambdav/ir_eval.cpp)
  target_sources(test_output_glsl PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/frontend/lambdav/ir_eval.cpp)
  target_compile_definitions(test_output_glsl PRIVATE SLUICE_HAVE_IR_EVAL=1)
endif()
# bench/glsl_output_bench.cpp: bench/ is configured after tests/, so the
# links are added when the top directory is done (the bench builds as a
# stub without them).
function(sluice_glsl_output_bench_links)
  if(TARGET glsl_output_bench AND TARGET sluice_glsl_output AND TARGET sluice_glsl_frontend)
    get_filename_component(corpus ${PROJECT_SOURCE_DIR}/../shared/corpus ABSOLUTE)
    target_link_libraries(glsl_output_bench PRIVATE sluice_glsl_output sluice_glsl_frontend)
    target_compile_definitions(glsl_output_bench PRIVATE SLUICE_GLSL_OUTPUT_BENCH=1 SLUICE_CORPUS_DIR="${corpus}")
  endif()
endfunction()
cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL sluice_glsl_output_bench_links)
# The SPIR-V output tests' random IR trees and interpreters: the property
# test runs random trees through the GLSL output and glslang and compares.
set(spirv_tests ${CMAKE_CURRENT_SOURCE_DIR}/output/spirv)
if(EXISTS ${spirv_tests}/random_ir.cpp AND EXISTS ${spirv_tests}/ir_interpreter.cpp AND
   EXISTS ${spirv_tests}/spirv_interpreter.cpp)
  target_sources(test_output_glsl PRIVATE ${spirv_tests}/random_ir.cpp ${spirv_tests}/ir_interpreter.cpp
                 ${spirv_tests}/spirv_interpreter.cpp)
  target_include_directories(test_output_glsl PRIVATE ${spirv_tests})
  target_compile_definitions(test_output_glsl PRIVATE SLUICE_HAVE_RANDOM_IR=1)
endif()
