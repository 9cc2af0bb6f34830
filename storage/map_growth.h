// How large the LMDB map is and how it grows (storage/FORMAT.md, "The map grows as needed"): pure
// arithmetic, so the policy is tested without a map; LmdbEnv applies it.
#pragma once

#include <cstdint>

namespace malachite::storage {

// Map sizes are whole MiB: a multiple of every system's page and of Windows' allocation
// granularity (64 KiB), as LMDB asks of a map size.
inline constexpr std::uint64_t kMapSizeUnit = std::uint64_t{1} << 20;
// The most one growth adds once the map has passed it; below it a growth doubles the map.
inline constexpr std::uint64_t kMapGrowthStepMax = std::uint64_t{1} << 30;

// The map a store opens with: `initial` (0: the system's platform::kInitialMapSize), at most
// `maximum`.
std::uint64_t InitialMapSize(std::uint64_t initial, std::uint64_t maximum);

// The map after `current` was found full: twice `current` below kMapGrowthStepMax, and
// kMapGrowthStepMax more from there, rounded up to kMapSizeUnit, at most `maximum`. `current`
// itself when it is at `maximum` already (the map cannot grow).
std::uint64_t NextMapSize(std::uint64_t current, std::uint64_t maximum);

// `next` cut down to what a map that takes disk (platform::kMappedFileTakesDisk) may take from a
// disk with `room` bytes free: at most half of that room more than `current`, in whole
// kMapSizeUnits, so the data file never takes the last of the disk and whatever else writes there
// (LMDB's own commit, the space reserve) keeps room. `current` when less than a unit fits.
std::uint64_t FitDiskRoom(std::uint64_t current, std::uint64_t next, std::uint64_t room);

}  // namespace malachite::storage
