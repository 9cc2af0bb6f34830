// Azure limits as named constants (spec §9). Every check in the code uses these names.
#pragma once

#include <cstddef>

namespace malachite::limits {

// Azure: spec §9.1 — table names are 3..63 characters.
inline constexpr std::size_t kTableNameMin = 3;
inline constexpr std::size_t kTableNameMax = 63;
// Azure: spec §9.2 — keys up to 1024 UTF-16 code units.
inline constexpr std::size_t kKeyMaxUtf16 = 1024;
// Azure: spec §9.3.
inline constexpr std::size_t kMaxCustomProperties = 252;
inline constexpr std::size_t kPropertyNameMax = 255;
inline constexpr std::size_t kPropertyValueMaxBytes = 64 * 1024;  // UTF-16 bytes or binary bytes
inline constexpr std::size_t kEntityMaxBytes = 1024 * 1024;
// Azure: spec §9.3 — request bodies (single operations and batches) up to 4 MiB.
inline constexpr std::size_t kRequestBodyMax = 4 * 1024 * 1024;
// Azure: spec §6.5 — a query page holds at most 1000 entities or tables.
inline constexpr std::size_t kMaxPageSize = 1000;
// Azure: spec §10.5 — Shared Key requests older (or newer) than 15 minutes are refused.
inline constexpr long long kMaxClockSkewSeconds = 15 * 60;

}  // namespace malachite::limits
