# Test executables of the areas beyond the IR core; each exists once its
# library does.
if(TARGET sluice_lambdav)
  sluice_test(frontend/lambdav sluice_lambdav sluice_validator sluice_ir)
endif()
if(TARGET sluice_spirv_output)
  sluice_test(output/spirv sluice_spirv_output sluice_validator sluice_ir)
endif()
if(TARGET sluice_glsl_frontend)
  sluice_test(frontend/glsl sluice_glsl_frontend sluice_validator sluice_ir)
endif()
if(TARGET sluice_glsl_output)
  sluice_test(output/glsl sluice_glsl_output sluice_validator sluice_ir)
endif()
if(TARGET sluice_transform)
  sluice_test(transform sluice_transform sluice_validator sluice_ir)
endif()
if(TARGET sluice)
  sluice_test(tools sluice_validator sluice_ir)
endif()
if(TARGET sluice_exec)
  sluice_test(exec sluice_exec_glslang sluice_exec sluice_ir glslang::glslang glslang::SPIRV glslang::glslang-default-resource-limits)
endif()
include(${CMAKE_CURRENT_SOURCE_DIR}/output/glsl/links.cmake OPTIONAL)  # guarded by if(TARGET test_output_glsl) inside
include(${CMAKE_CURRENT_SOURCE_DIR}/output/spirv/links.cmake OPTIONAL)  # guarded by if(TARGET test_output_spirv) inside

# The generated λV loop nests (src/frontend/lambdav/loop_nests.h), written
# out for `sluice xcheck` and drawn on lavapipe: Sluice's SPIR-V must give
# the generator's expected colours, and Sluice's GLSL the same picture, with
# the default loop forms and with every driver workaround applied.
if(TARGET sluice_lambdav AND TARGET sluice)
  add_executable(lambdav-loop-gen ${CMAKE_CURRENT_SOURCE_DIR}/generators/lambdav_loop_gen.cpp)
  target_link_libraries(lambdav-loop-gen PRIVATE sluice_lambdav)
  set(loop_nests ${CMAKE_BINARY_DIR}/lambdav-loop-nests)
  add_test(NAME "xcheck: λV loop nests (setup)" COMMAND lambdav-loop-gen ${loop_nests} 200)
  set_tests_properties("xcheck: λV loop nests (setup)" PROPERTIES FIXTURES_SETUP lambdav_loop_nests)
  add_test(NAME "xcheck: λV loop nests" COMMAND sluice xcheck ${loop_nests})
  add_test(NAME "xcheck: λV loop nests, all workarounds" COMMAND sluice xcheck ${loop_nests} --workarounds=all -O0)
  set_tests_properties("xcheck: λV loop nests" "xcheck: λV loop nests, all workarounds" PROPERTIES
    FIXTURES_REQUIRED lambdav_loop_nests TIMEOUT 900)
  # Every λV program the λV tests evaluate at a pixel, with the evaluator's
  # colour as its `; expect` (SLUICE_LV_PROGRAMS_DIR), drawn the same ways.
  if(TARGET test_frontend_lambdav)
    set(lv_programs ${CMAKE_BINARY_DIR}/lambdav-test-programs)
    add_test(NAME "xcheck: λV test programs (setup)"
             COMMAND ${CMAKE_COMMAND} -E env SLUICE_LV_PROGRAMS_DIR=${lv_programs}
                     $<TARGET_FILE:test_frontend_lambdav>)
    set_tests_properties("xcheck: λV test programs (setup)" PROPERTIES FIXTURES_SETUP lambdav_test_programs)
    add_test(NAME "xcheck: λV test programs" COMMAND sluice xcheck ${lv_programs})
    add_test(NAME "xcheck: λV test programs, all workarounds" COMMAND sluice xcheck ${lv_programs} --workarounds=all)
    set_tests_properties("xcheck: λV test programs" "xcheck: λV test programs, all workarounds" PROPERTIES
      FIXTURES_REQUIRED lambdav_test_programs TIMEOUT 900)
  endif()
endif()

# Inputs the fuzzers found, through the fuzz targets' pipelines (any
# compiler); then, where clang with libFuzzer is installed, each fuzz
# target in regression mode: every saved input, then 20 s of fuzzing
# (scripts/fuzz --regression). The fuzz build is one fixture, made once.
# The sanitizer build of the fuzz targets is a second build, with clang, of
# the libraries they link (scripts/fuzz keeps it lean: -O1, no debug
# information, unity build; docs/testing.md gives its time), so ctest runs
# them only with -DSLUICE_FUZZ_TESTS=ON (`SLUICE_FUZZ_TESTS=ON scripts/test`);
# the saved inputs run in every build through test_fuzz.
option(SLUICE_FUZZ_TESTS "ctest builds the libFuzzer targets with clang and runs each in regression mode" OFF)
if(TARGET sluice_fuzz_pipeline)
  sluice_test(fuzz sluice_fuzz_pipeline)
endif()
if(TARGET sluice_fuzz_pipeline AND SLUICE_FUZZ_TESTS)
  find_program(SLUICE_CLANGXX NAMES clang++-14)
  find_file(SLUICE_LIBFUZZER libclang_rt.fuzzer-x86_64.a PATHS /usr/lib/llvm-14/lib/clang PATH_SUFFIXES
    14.0.6/lib/linux 14/lib/linux NO_DEFAULT_PATH)
  if(SLUICE_CLANGXX AND SLUICE_LIBFUZZER)
    add_test(NAME "fuzz: build" COMMAND ${PROJECT_SOURCE_DIR}/scripts/fuzz --build-only)
    set_tests_properties("fuzz: build" PROPERTIES FIXTURES_SETUP sluice_fuzz_build TIMEOUT 1200)
    foreach(target lambdav glsl ir spirv)
      add_test(NAME "fuzz: ${target} (regression)" COMMAND ${PROJECT_SOURCE_DIR}/scripts/fuzz ${target} 20
        --regression --out ${CMAKE_BINARY_DIR}/fuzz-runs/${target})
      set_tests_properties("fuzz: ${target} (regression)" PROPERTIES FIXTURES_REQUIRED sluice_fuzz_build TIMEOUT 600)
    endforeach()
  else()
    message(STATUS "clang++-14 with libFuzzer not found: the fuzz targets are not run (scripts/setup installs them)")
  endif()
endif()
if(TARGET sluice_spirv_cfg)
  sluice_test(frontend/spirv sluice_spirv_cfg sluice_spirv_module)
  target_compile_definitions(test_frontend_spirv PRIVATE SLUICE_SPIRV_TEST_DIR="${CMAKE_CURRENT_SOURCE_DIR}/frontend/spirv")
endif()
if(TARGET sluice_frontend_spirv AND TARGET sluice_exec_glslang AND TARGET sluice_glsl_output)
  sluice_test(frontend/spirv_reader sluice_frontend_spirv sluice_spirv_output sluice_glsl_output sluice_exec_glslang
              sluice_validator sluice_ir glslang::glslang glslang::SPIRV glslang::glslang-default-resource-limits)
endif()
