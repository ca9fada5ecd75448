# `cmake --install build --prefix P`: the tools, the libraries, their headers
# and a CMake package, so that another project can
#
#   find_package(Sluice REQUIRED)
#   target_link_libraries(app PRIVATE Sluice::ir Sluice::spirv_output)
#
# Headers go to P/include/sluice/<area>/ and are included as in Sluice's own
# sources ("ir/builder.h"). The package finds the libraries Sluice's
# libraries link (SluiceConfig.cmake.in). docs/library.md shows the use.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SLUICE_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Sluice)

# sluice_package_library(TARGET NAME): installs TARGET and the headers of
# its source directory, exported as Sluice::NAME.
function(sluice_package_library target name)
  if(NOT TARGET ${target})
    return()
  endif()
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  install(TARGETS ${target} EXPORT SluiceTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    return()  # no sources, no headers of its own
  endif()
  get_target_property(dir ${target} SOURCE_DIR)
  file(RELATIVE_PATH area ${PROJECT_SOURCE_DIR}/src ${dir})
  install(DIRECTORY ${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/sluice/${area}
          FILES_MATCHING PATTERN "*.h" PATTERN "*.def")
endfunction()

# The libraries of the package, one line each; a new library is a new line.
sluice_package_library(sluice_flags flags)  # the include directory every library shares
sluice_package_library(sluice_fmt fmt_runtime)  # fmt's compiled part (src/fmt_runtime), in place of libfmt.so
sluice_package_library(sluice_ir ir)
sluice_package_library(sluice_validator validator)
sluice_package_library(sluice_lambdav frontend_lambdav)
sluice_package_library(sluice_glsl_frontend frontend_glsl)
sluice_package_library(sluice_transform transform)
sluice_package_library(sluice_spirv_output spirv_output)
sluice_package_library(sluice_glsl_output glsl_output)
sluice_package_library(sluice_exec exec)
sluice_package_library(sluice_exec_glslang exec_glslang)
sluice_package_library(sluice_spirv_module spirv_module)
sluice_package_library(sluice_spirv_cfg spirv_cfg)
sluice_package_library(sluice_frontend_spirv frontend_spirv)

install(TARGETS sluice ir-dump RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT SluiceTargets NAMESPACE Sluice:: DESTINATION ${SLUICE_PACKAGE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/SluiceConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/SluiceConfig.cmake INSTALL_DESTINATION ${SLUICE_PACKAGE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/SluiceConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/SluiceConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/SluiceConfigVersion.cmake
  DESTINATION ${SLUICE_PACKAGE_DIR})
