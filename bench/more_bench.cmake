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
endif()
