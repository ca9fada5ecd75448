# The `sluice` driver (tools/sluice*.cpp): subcommands in sluice_commands.h.
if(TARGET sluice_lambdav AND TARGET CLI11::CLI11)
  file(GLOB sluice_driver_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/sluice*.cpp)
  add_executable(sluice ${sluice_driver_sources})
  target_link_libraries(sluice PRIVATE sluice_lambdav sluice_ir CLI11::CLI11)
  target_compile_definitions(sluice PRIVATE SLUICE_VERSION="${PROJECT_VERSION}")
  if(TARGET sluice_validator)
    target_link_libraries(sluice PRIVATE sluice_validator)
    target_compile_definitions(sluice PRIVATE SLUICE_HAVE_VALIDATOR=1)
  endif()
endif()

# The driver tests (tests/tools) run the sluice binary: build it with them.
# The test target is made after this file is read, hence the deferred call.
function(sluice_driver_test_depends_on_driver)
  if(TARGET test_tools AND TARGET sluice)
    add_dependencies(test_tools sluice)
  endif()
endfunction()
cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL sluice_driver_test_depends_on_driver)
