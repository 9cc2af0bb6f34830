// Overflow buckets: how entity keys longer than LMDB's key limit are stored (storage/FORMAT.md,
// "Long keys").
//
// LMDB: MDB_MAXKEYSIZE is 511 bytes in Debian's build, but PartitionKey and RowKey may each be
// 1024 UTF-16 units (about 3 KB of UTF-8). An encoded key shorter than kBucketKeyBytes is an LMDB
// key as is; a longer one is stored in the bucket under its first kBucketKeyBytes bytes, as an
// entry (rest of the key, entity record) of a list sorted by that rest. No short key is that long,
// so a bucket key never equals an entity key, and every long key sharing the prefix lives in the
// one bucket: LMDB order of (short keys, buckets) plus the order inside buckets is key order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace malachite::storage {

inline constexpr std::size_t kBucketKeyBytes = 500;
inline constexpr std::uint8_t kBucketVersion = 1;

// True when the LMDB key of an encoded entity key is a bucket (the key is that long or longer).
inline bool IsLongKey(std::string_view encoded_key) {
  return encoded_key.size() >= kBucketKeyBytes;
}

struct BucketEntry {
  std::string_view suffix;  // the encoded key minus its first kBucketKeyBytes bytes
  std::string_view record;  // the entity record
};

// Parses a bucket into entries (views into `bytes`), in suffix order. False when malformed.
bool ParseBucket(std::string_view bytes, std::vector<BucketEntry>* out);
// The record stored under `suffix`, or nullopt (also for a malformed bucket).
std::optional<std::string_view> FindInBucket(std::string_view bytes, std::string_view suffix);
// Encodes entries. REQUIRES: sorted by suffix, no duplicates.
std::string EncodeBucket(const std::vector<BucketEntry>& entries);
// Inserts or replaces the entry for `suffix`, keeping the order.
void UpsertBucketEntry(std::vector<BucketEntry>* entries, BucketEntry entry);
// Removes the entry for `suffix`; false when absent.
bool EraseBucketEntry(std::vector<BucketEntry>* entries, std::string_view suffix);

}  // namespace malachite::storage
