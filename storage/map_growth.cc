#include "storage/map_growth.h"

#include <algorithm>

#include "platform/map_size.h"

namespace malachite::storage {
namespace {

std::uint64_t RoundUpToUnit(std::uint64_t bytes) {
  const std::uint64_t remainder = bytes % kMapSizeUnit;
  if (remainder == 0) return bytes;
  const std::uint64_t up = kMapSizeUnit - remainder;
  return bytes > UINT64_MAX - up ? UINT64_MAX - (UINT64_MAX % kMapSizeUnit) : bytes + up;
}

}  // namespace

std::uint64_t InitialMapSize(std::uint64_t initial, std::uint64_t maximum) {
  return std::min(initial == 0 ? platform::kInitialMapSize : initial, maximum);
}

std::uint64_t NextMapSize(std::uint64_t current, std::uint64_t maximum) {
  if (current >= maximum) return current;
  // Doubling reaches any size in a few growths while the map is small; past 1 GiB a map that takes
  // disk (Windows) would hold as much unused disk as data, so it grows by 1 GiB at a time: at most
  // 1 GiB (or, below that, as much as the data) is ever allocated and unused.
  const std::uint64_t step = std::min(current, kMapGrowthStepMax);
  const std::uint64_t next = current > UINT64_MAX - step ? UINT64_MAX : current + step;
  return std::min(std::max(RoundUpToUnit(next), kMapSizeUnit), maximum);
}

std::uint64_t FitDiskRoom(std::uint64_t current, std::uint64_t next, std::uint64_t room) {
  const std::uint64_t fits = room / 2 / kMapSizeUnit * kMapSizeUnit;
  if (next <= current || fits == 0) return current;
  return std::min(next, current + fits);
}

}  // namespace malachite::storage
