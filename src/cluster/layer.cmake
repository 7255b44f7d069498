# Cluster layer: MPI when CMake finds it (Debian: libmpich-dev, scripts/deps.d/cluster.txt).
# Every source of the layer is always compiled; mpi_cluster.cpp builds its MPI edge only when
# ROOFLINE_HAVE_MPI is defined and a stub that reports MPI as unavailable otherwise, so the
# single-machine build needs no MPI at all.
if(ROOFLINE_MPI)
  find_package(MPI COMPONENTS C)
endif()
if(ROOFLINE_MPI AND MPI_C_FOUND)
  target_link_libraries(roofline PRIVATE MPI::MPI_C)
  set_property(SOURCE ${CMAKE_CURRENT_LIST_DIR}/mpi_cluster.cpp
               APPEND PROPERTY COMPILE_DEFINITIONS ROOFLINE_HAVE_MPI=1)
  message(STATUS "roofline: MPI ${MPI_C_VERSION} found: cluster measurement enabled")
else()
  message(STATUS "roofline: MPI not found or ROOFLINE_MPI=OFF: `roofline cluster` reports it unavailable")
endif()
