# simdjson for cross builds (cmake/aarch64-linux-gnu.cmake sets simdjson_DIR here when the target's
# libsimdjson-dev is not installed). Debian's libsimdjson-dev is not Multi-Arch: same: installing
# libsimdjson-dev:arm64 removes the build machine's libsimdjson-dev. So the header is the native
# /usr/include/simdjson.h (one file for every architecture: it selects its kernels at compile time)
# and the library is the target's libsimdjson14 (/usr/lib/<triplet>/libsimdjson.so.14), which
# installs beside the native one. The target mirrors Debian's simdjsonTargets.cmake.
include(CMakeFindDependencyMacro)
find_dependency(Threads)

find_path(simdjson_INCLUDE_DIR simdjson.h)
# Without the -dev package there is no libsimdjson.so link: the versioned file (its SONAME is what
# the linker records).
find_library(simdjson_LIBRARY NAMES simdjson libsimdjson.so.14)
if(NOT simdjson_INCLUDE_DIR OR NOT simdjson_LIBRARY)
  set(simdjson_FOUND FALSE)
  set(simdjson_NOT_FOUND_MESSAGE "needs /usr/include/simdjson.h (libsimdjson-dev) and the \
target's libsimdjson14 (scripts/cross-deps installs both)")
  return()
endif()

if(NOT TARGET simdjson::simdjson)
  add_library(simdjson::simdjson SHARED IMPORTED)
  set_target_properties(simdjson::simdjson PROPERTIES
    IMPORTED_LOCATION "${simdjson_LIBRARY}"
    INTERFACE_COMPILE_DEFINITIONS "SIMDJSON_THREADS_ENABLED=1"
    INTERFACE_COMPILE_FEATURES "cxx_std_11"
    INTERFACE_INCLUDE_DIRECTORIES "${simdjson_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "Threads::Threads")
endif()
