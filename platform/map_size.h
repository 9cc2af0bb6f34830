// What a memory-mapped data file costs on this system, and so the map size a store starts with
// (storage/FORMAT.md, "The map grows as needed"). Facts, not calls: the one header of this folder
// with an #if, because a constant has no implementation file to choose.
#pragma once

#include <cstdint>

namespace malachite::platform {

// kInitialMapSize's value for "the whole configured maximum".
inline constexpr std::uint64_t kWholeMap = UINT64_MAX;

#if defined(_WIN32)
// Windows maps no more than a file holds, so LMDB sets data.mdb's end to the whole map size each
// time it maps it (mdb_env_map: SetEndOfFile): the map is disk. A store starts with a small map and
// grows it as the data grows.
inline constexpr bool kMappedFileTakesDisk = true;
inline constexpr std::uint64_t kInitialMapSize = std::uint64_t{64} << 20;
#else
// POSIX maps past the end of a file, which grows only as pages are written: the map is address
// space, so a store maps the configured maximum at once and never needs to grow it.
inline constexpr bool kMappedFileTakesDisk = false;
inline constexpr std::uint64_t kInitialMapSize = kWholeMap;
#endif

}  // namespace malachite::platform
