// StoredEntities: entities copied out of a read transaction in their stored form (decoded keys,
// the record bytes of storage/FORMAT.md), all in one buffer, so a page of query results costs no
// allocation per entity and nothing is decoded that the response does not need.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/entity.h"
#include "storage/entity_codec.h"

namespace malachite::storage {

class StoredEntities {
 public:
  // One entity; its views live until the container is changed or destroyed.
  struct Entry {
    std::string_view partition_key;
    std::string_view row_key;
    std::string_view record;  // an entity record (storage/FORMAT.md)
  };

  // Copies the keys and the record bytes.
  void Add(std::string_view partition_key, std::string_view row_key, std::string_view record);
  // Copies an entity as LMDB holds it: its encoded key (key_codec.h), decoded straight into the
  // buffer, and its record. False, with nothing added, when the key is malformed.
  bool AddEncoded(std::string_view key, std::string_view record);
  // Adds a decoded entity, encoded as it would be stored.
  void Add(const Entity& entity);

  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  Entry operator[](std::size_t i) const;

 private:
  struct Offsets {
    std::size_t start = 0;  // of the partition key in bytes_; row key and record follow it
    std::size_t partition_key = 0;
    std::size_t row_key = 0;
    std::size_t record = 0;
  };
  // Sizes the buffers for a page of entries of about `entry_bytes` each.
  void Reserve(std::size_t entry_bytes);

  std::string bytes_;
  std::vector<Offsets> entries_;
};

}  // namespace malachite::storage
