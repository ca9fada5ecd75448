# "install: consumer": `cmake --install` into a scratch prefix, then
# examples/consumer configured against that prefix with find_package(Sluice),
# built and run (consumer_test.cmake). Needs the whole build (ctest runs
# after it), as any `cmake --install` does.
add_test(NAME "install: consumer"
         COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${CMAKE_BINARY_DIR} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
                 -DWORK_DIR=${CMAKE_BINARY_DIR}/install-test -DCXX=${CMAKE_CXX_COMPILER}
                 -DGENERATOR=${CMAKE_GENERATOR} -P ${CMAKE_CURRENT_LIST_DIR}/consumer_test.cmake)
set_tests_properties("install: consumer" PROPERTIES TIMEOUT 600)
