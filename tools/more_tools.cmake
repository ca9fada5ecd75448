# The `sluice` driver: every tools/*.cpp but ir-dump's; subcommands are
# listed in sluice_commands.h.
file(GLOB sluice_driver_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
list(REMOVE_ITEM sluice_driver_sources ${CMAKE_CURRENT_SOURCE_DIR}/ir_dump.cpp)
# xcheck's scheduling and report, also linked by tests/tools.
set(xcheck_run_sources process_pool.cpp xcheck_report.cpp xcheck_schedule.cpp)
list(TRANSFORM xcheck_run_sources PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/)
list(REMOVE_ITEM sluice_driver_sources ${xcheck_run_sources})
add_library(sluice_xcheck_run STATIC ${xcheck_run_sources})
target_link_libraries(sluice_xcheck_run PUBLIC sluice_flags fmt::fmt)
target_include_directories(sluice_xcheck_run PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
add_executable(sluice ${sluice_driver_sources})
target_link_libraries(sluice PRIVATE sluice_xcheck_run sluice_lambdav sluice_glsl_frontend sluice_frontend_spirv sluice_transform sluice_spirv_output
  sluice_glsl_output sluice_exec sluice_exec_glslang sluice_validator sluice_ir sluice_spirv_cfg CLI11::CLI11)
target_include_directories(sluice PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_compile_definitions(sluice PRIVATE SLUICE_VERSION="${PROJECT_VERSION}" SLUICE_HAVE_VALIDATOR=1)

# The driver tests (tests/tools) run the sluice binary: build it with them.
# The test target is made after this file is read, hence the deferred call.
function(sluice_driver_test_depends_on_driver)
  if(TARGET test_tools AND TARGET sluice)
    add_dependencies(test_tools sluice)
    target_link_libraries(test_tools PRIVATE sluice_xcheck_run)
  endif()
endfunction()
cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL sluice_driver_test_depends_on_driver)
