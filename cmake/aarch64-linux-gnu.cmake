# CMake toolchain file: linux-aarch64 (arm64) with Debian's multiarch cross toolchain. What it needs
# comes from `scripts/cross-deps arm64`. Use:
#   cmake -S . -B build/cross-arm64 -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
# The target's libraries and CMake packages are the multiarch ones in /usr/lib/aarch64-linux-gnu
# (and its cmake/); headers are shared in /usr/include (the arm64-specific ones are in
# /usr/include/aarch64-linux-gnu, which the cross compiler searches by itself).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(MALACHITE_CROSS_TRIPLET aarch64-linux-gnu)

set(CMAKE_C_COMPILER ${MALACHITE_CROSS_TRIPLET}-gcc)
set(CMAKE_CXX_COMPILER ${MALACHITE_CROSS_TRIPLET}-g++)
# Multiarch: find_library and find_package search <prefix>/lib/aarch64-linux-gnu and
# <prefix>/lib/aarch64-linux-gnu/cmake/<name>*, not the build machine's x86_64-linux-gnu ones.
set(CMAKE_LIBRARY_ARCHITECTURE ${MALACHITE_CROSS_TRIPLET})

# Roots: the cross toolchain's own (its libc) and the machine's, where the multiarch packages
# live. Programs (ccache, python3, sh) are the build machine's; libraries, headers and CMake
# packages come only from under these roots.
set(CMAKE_FIND_ROOT_PATH /usr/${MALACHITE_CROSS_TRIPLET} /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# The root "/" holds the build machine's libraries too: its multiarch directories are ignored, so
# that no hint or fallback can pick one of them.
set(CMAKE_IGNORE_PATH /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu
                      /usr/include/x86_64-linux-gnu)
# pkg-config (FindOpenSSL and FindEXPAT use it for hints) reads the target's .pc files.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/${MALACHITE_CROSS_TRIPLET}/pkgconfig:/usr/share/pkgconfig")

# Built programs run under qemu: catch_discover_tests (at build time), ctest and the man page
# generator (server/CMakeLists.txt). -L /: the multiarch libc6:arm64 (which the :arm64 -dev
# packages pull in) provides both /lib/ld-linux-aarch64.so.1 and /lib/aarch64-linux-gnu/libc.so.6.
# Not -L /usr/aarch64-linux-gnu: that loader is libc6-arm64-cross's (2.36-8cross1) but it still
# loads libc.so.6 from /lib/aarch64-linux-gnu (libc6:arm64, 2.36-9+deb12u*), and with that
# mismatched pair pthread_create spins forever.
find_program(MALACHITE_QEMU qemu-aarch64-static NO_CMAKE_FIND_ROOT_PATH)
if(MALACHITE_QEMU)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${MALACHITE_QEMU} -L /)
endif()
