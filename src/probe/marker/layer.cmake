# The marker runtime is its own small library (standard library only) so that other programs
# can link it alone: installed as roofline::marker (find_package / pkg-config). The probe layer
# links it, so the CLI and tests see it too.
file(GLOB ROOFLINE_MARKER_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
get_target_property(_roofline_sources roofline_probe SOURCES)
list(FILTER _roofline_sources EXCLUDE REGEX "/probe/marker/")
set_property(TARGET roofline_probe PROPERTY SOURCES ${_roofline_sources})
add_library(roofline_marker STATIC ${ROOFLINE_MARKER_SOURCES})
add_library(roofline::marker ALIAS roofline_marker)
set_target_properties(roofline_marker PROPERTIES POSITION_INDEPENDENT_CODE ON EXPORT_NAME marker)
target_include_directories(roofline_marker PUBLIC
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_link_libraries(roofline_marker PUBLIC Threads::Threads PRIVATE $<BUILD_INTERFACE:roofline_warnings>)
target_link_libraries(roofline_probe PUBLIC roofline_marker)

# Install: headers, the static library with an exported target, a relocatable CMake package
# (roofline-config.cmake) and pkg-config file (roofline.pc).
include(CMakePackageConfigHelpers)
install(FILES ${PROJECT_SOURCE_DIR}/include/roofline/marker.h ${PROJECT_SOURCE_DIR}/include/roofline/marker.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/roofline)
install(TARGETS roofline_marker EXPORT rooflineTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT rooflineTargets NAMESPACE roofline:: FILE roofline-targets.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/roofline)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/roofline-config.cmake.in
  ${PROJECT_BINARY_DIR}/roofline-config.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/roofline)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/roofline-config-version.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/roofline-config.cmake ${PROJECT_BINARY_DIR}/roofline-config-version.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/roofline)
configure_file(${CMAKE_CURRENT_LIST_DIR}/roofline.pc.in ${PROJECT_BINARY_DIR}/roofline.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/roofline.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
