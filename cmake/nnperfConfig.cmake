# nnperfConfig.cmake - the CMake package of an installed nnperf: find_package(nnperf CONFIG REQUIRED), then link
# nnperf::nnperf (libnnperf.so) or nnperf::nnperf_static (libnnperf.a, which needs libyaml and jansson: found here
# through pkg-config as the build found them).
include(CMakeFindDependencyMacro)
find_dependency(PkgConfig)
if(NOT TARGET PkgConfig::YAML)
  pkg_check_modules(YAML REQUIRED IMPORTED_TARGET yaml-0.1)
endif()
if(NOT TARGET PkgConfig::JANSSON)
  pkg_check_modules(JANSSON REQUIRED IMPORTED_TARGET jansson)
endif()
include(${CMAKE_CURRENT_LIST_DIR}/nnperfTargets.cmake)
