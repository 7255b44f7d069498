# probe: hwloc (Debian's libhwloc-dev) for the topology when pkg-config finds it; without it the
# topology comes from sysfs and CPUID (src/probe/topology.cpp).
if(TARGET PkgConfig::HWLOC)
  target_link_libraries(roofline_probe PRIVATE PkgConfig::HWLOC)
  target_compile_definitions(roofline_probe PRIVATE ROOFLINE_HAVE_HWLOC=1)
endif()
