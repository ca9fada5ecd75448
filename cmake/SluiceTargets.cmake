# Shared flags and one helper per kind of target, so that each area of the
# tree owns a short CMakeLists.txt and new source files need no CMake edits.

# Warnings and sanitizers are Sluice's own build's business: BUILD_INTERFACE
# keeps them out of the installed package (SluicePackage.cmake), where this
# target only says where the headers are.
add_library(sluice_flags INTERFACE)
target_compile_options(sluice_flags INTERFACE $<BUILD_INTERFACE:-Wall -Wextra -Wpedantic -Wshadow
  -Wnon-virtual-dtor -Wimplicit-fallthrough>)
if(SLUICE_WERROR)
  target_compile_options(sluice_flags INTERFACE $<BUILD_INTERFACE:-Werror>)
endif()
if(SLUICE_FUZZ)
  # Coverage instrumentation for libFuzzer plus the sanitizers; every
  # undefined-behaviour report stops the run like a crash.
  target_compile_options(sluice_flags INTERFACE -fsanitize=fuzzer-no-link,address,undefined
    -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  target_link_options(sluice_flags INTERFACE -fsanitize=address,undefined)
endif()
if(SLUICE_SANITIZE)
  target_compile_options(sluice_flags INTERFACE $<BUILD_INTERFACE:-fsanitize=address,undefined -fno-omit-frame-pointer>)
  target_link_options(sluice_flags INTERFACE $<BUILD_INTERFACE:-fsanitize=address,undefined>)
endif()
target_include_directories(sluice_flags INTERFACE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src>
  $<INSTALL_INTERFACE:include/sluice>)
target_compile_features(sluice_flags INTERFACE cxx_std_20)

# sluice_library(NAME DEPS...): a static library from every .cpp in the
# current directory.
function(sluice_library name)
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  add_library(${name} STATIC ${sources})
  target_link_libraries(${name} PUBLIC sluice_flags ${ARGN})
endfunction()
