# Cluster layer: MPI when CMake finds it (Debian: libmpich-dev, scripts/deps.d/cluster.txt).
# MPI is linked into one shared module only, roofline_mpi (mpi_module/roofline_mpi.c), that
# mpi_cluster.cpp opens with dlopen when a command measures a cluster; the roofline library and
# executable do not link MPI, so no other command loads it or the signal handlers of its stack.
# The module lands in LIBDIR/roofline/ of the build tree and of the install tree alike, found
# from the executable's folder (bin/../LIBDIR/roofline/roofline_mpi.so). Without MPI the module
# is not built and `roofline cluster` reports MPI unavailable.
if(ROOFLINE_MPI)
  find_package(MPI COMPONENTS C)
endif()
if(ROOFLINE_MPI AND MPI_C_FOUND)
  add_library(roofline_mpi MODULE ${CMAKE_CURRENT_LIST_DIR}/mpi_module/roofline_mpi.c)
  target_link_libraries(roofline_mpi PRIVATE MPI::MPI_C)
  set(_roofline_mpi_reldir "${CMAKE_INSTALL_LIBDIR}/roofline")
  set_target_properties(roofline_mpi PROPERTIES
    PREFIX "" OUTPUT_NAME roofline_mpi C_VISIBILITY_PRESET hidden
    LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/${_roofline_mpi_reldir})
  target_compile_options(roofline_mpi PRIVATE -Wall -Wextra $<$<BOOL:${ROOFLINE_WERROR}>:-Werror>)
  install(TARGETS roofline_mpi LIBRARY DESTINATION ${_roofline_mpi_reldir})
  add_dependencies(roofline_cluster roofline_mpi)
  target_link_libraries(roofline_cluster PRIVATE ${CMAKE_DL_LIBS})
  set_property(SOURCE ${CMAKE_CURRENT_LIST_DIR}/mpi_cluster.cpp APPEND PROPERTY COMPILE_DEFINITIONS
    ROOFLINE_HAVE_MPI=1
    ROOFLINE_MPI_MODULE_RELATIVE="${_roofline_mpi_reldir}/roofline_mpi.so"
    ROOFLINE_MPI_MODULE_BUILD="${PROJECT_BINARY_DIR}/${_roofline_mpi_reldir}/roofline_mpi.so")
  message(STATUS "roofline: MPI ${MPI_C_VERSION} found: cluster measurement enabled (module roofline_mpi)")
else()
  message(STATUS "roofline: MPI not found or ROOFLINE_MPI=OFF: `roofline cluster` reports it unavailable")
endif()
