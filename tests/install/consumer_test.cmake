# cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DCXX=... -DGENERATOR=... -P consumer_test.cmake
# Installs BUILD_DIR into WORK_DIR/prefix, checks the installed layout,
# builds examples/consumer against it and runs it: the SPIR-V it writes must
# start with the SPIR-V magic number and its output must show the
# diagnostic of the broken GLSL shader. WORK_DIR is removed on success.
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f bin/sluice bin/ir-dump include/sluice/ir/builder.h include/sluice/ir/opcode.def
          include/sluice/output/spirv/spirv_output.h)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "the install lacks ${f}")
  endif()
endforeach()
file(GLOB config ${prefix}/lib*/cmake/Sluice/SluiceConfig.cmake ${prefix}/lib/*/cmake/Sluice/SluiceConfig.cmake)
if(NOT config)
  message(FATAL_ERROR "the install lacks lib/cmake/Sluice/SluiceConfig.cmake")
endif()

run("installed sluice --version" ${prefix}/bin/sluice --version)
if(NOT output MATCHES "glslang [0-9]+\\.[0-9]+" OR NOT output MATCHES "SPIRV-Tools")
  message(FATAL_ERROR "sluice --version names no glslang or SPIRV-Tools version:\n${output}")
endif()

set(launcher)
find_program(CCACHE ccache)
if(CCACHE)
  set(launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${CCACHE})
endif()
run("configuring examples/consumer" ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/consumer -B ${WORK_DIR}/build
    -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${prefix} ${launcher})
run("building examples/consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run("running the consumer" ${WORK_DIR}/build/consumer ${WORK_DIR}/out.spv)
if(NOT output MATCHES "valid for vulkan1.0")
  message(FATAL_ERROR "the consumer did not report valid SPIR-V:\n${output}")
endif()
if(NOT output MATCHES "broken.frag:2:[0-9]+: error: ")
  message(FATAL_ERROR "the consumer did not print the GLSL diagnostic:\n${output}")
endif()
file(READ ${WORK_DIR}/out.spv magic LIMIT 4 HEX)
if(NOT magic STREQUAL "03022307")
  message(FATAL_ERROR "out.spv does not start with the SPIR-V magic number (read ${magic})")
endif()
message(STATUS "consumer output:\n${output}")
file(REMOVE_RECURSE ${WORK_DIR})
