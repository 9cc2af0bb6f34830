# CMake toolchain file: windows-x86_64 with Debian's MinGW-w64 GCC 12, POSIX threads model (the
# -posix compilers: std::thread and std::mutex on winpthreads; GCC 12's -win32 ones lack them).
# What it needs comes from `scripts/cross-deps windows`; the target's libraries from
# `scripts/static-deps windows`, whose prefix is passed as CMAKE_PREFIX_PATH and is then the only
# place libraries, headers and CMake packages are found (besides the toolchain's own). Use:
#   cmake -S . -B build/cross-windows -G Ninja -DMALACHITE_STATIC=ON \
#     -DCMAKE_TOOLCHAIN_FILE=cmake/x86_64-w64-mingw32.cmake \
#     -DCMAKE_PREFIX_PATH="$(scripts/static-deps windows)"
# (MALACHITE_ARCH=windows scripts/build does this.)
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(MALACHITE_CROSS_TRIPLET x86_64-w64-mingw32)

set(CMAKE_C_COMPILER ${MALACHITE_CROSS_TRIPLET}-gcc-posix)
set(CMAKE_CXX_COMPILER ${MALACHITE_CROSS_TRIPLET}-g++-posix)
set(CMAKE_RC_COMPILER ${MALACHITE_CROSS_TRIPLET}-windres)

# Roots: the toolchain's own (MinGW-w64's headers and import libraries) and the static-deps
# prefix. Nothing of the build machine's /usr is searched: its headers and libraries are Linux's.
# Programs (ccache, python3, sh) are the build machine's.
set(CMAKE_FIND_ROOT_PATH /usr/${MALACHITE_CROSS_TRIPLET} ${CMAKE_PREFIX_PATH})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config (FindEXPAT uses it for hints) reads the prefix's .pc files only (FindPkgConfig adds
# CMAKE_PREFIX_PATH's), never the build machine's.
set(ENV{PKG_CONFIG_LIBDIR} "")

# Built programs run under Wine: catch_discover_tests (at build time), ctest and the man page
# generator (app/CMakeLists.txt). cmake/wine-run keeps Wine quiet, gives it a prefix of its own
# made once per machine, and turns the programs' "\r\n" back into "\n".
set(CMAKE_CROSSCOMPILING_EMULATOR ${CMAKE_CURRENT_LIST_DIR}/wine-run)
