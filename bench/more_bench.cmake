# Extra links for benchmarks beyond the IR core.
if(TARGET lambdav_bench AND TARGET sluice_lambdav)
  target_link_libraries(lambdav_bench PRIVATE sluice_lambdav)
endif()
# GLSL front end: glsl_bench compiles the shared corpus, and times glslang
# by itself next to it.
if(TARGET glsl_bench AND TARGET sluice_glsl_frontend)
  get_filename_component(SLUICE_BENCH_CORPUS_DIR ${PROJECT_SOURCE_DIR}/../shared/corpus ABSOLUTE)
  target_link_libraries(glsl_bench PRIVATE sluice_glsl_frontend glslang::glslang glslang::glslang-default-resource-limits)
  target_compile_definitions(glsl_bench PRIVATE SLUICE_CORPUS_DIR="${SLUICE_BENCH_CORPUS_DIR}")
  if(SLUICE_SANITIZE)  # glslang has no RTTI for UBSan's vptr check
    set_property(SOURCE ${CMAKE_CURRENT_SOURCE_DIR}/glsl_bench.cpp APPEND PROPERTY COMPILE_OPTIONS -fno-sanitize=vptr)
  endif()
endif()
if(TARGET spirv_bench AND TARGET sluice_spirv_output)
  target_link_libraries(spirv_bench PRIVATE sluice_spirv_output)
endif()
# λV programs through -O1 into the SPIR-V output.
if(TARGET lambdav_spirv_bench)
  if(TARGET sluice_lambdav AND TARGET sluice_transform AND TARGET sluice_spirv_output)
    target_link_libraries(lambdav_spirv_bench PRIVATE sluice_lambdav sluice_transform sluice_spirv_output)
  else()
    set_target_properties(lambdav_spirv_bench PROPERTIES EXCLUDE_FROM_ALL ON)
  endif()
endif()
# The SPIR-V structured-control-flow analysis.
if(TARGET spirv_cfg_bench)
  if(TARGET sluice_spirv_cfg)
    target_link_libraries(spirv_cfg_bench PRIVATE sluice_spirv_cfg)
  else()
    set_target_properties(spirv_cfg_bench PROPERTIES EXCLUDE_FROM_ALL ON)
  endif()
endif()
