#include "storage/stored_entities.h"

namespace malachite::storage {

void StoredEntities::Add(std::string_view partition_key, std::string_view row_key,
                         std::string_view record) {
  entries_.push_back(Offsets{bytes_.size(), partition_key.size(), row_key.size(), record.size()});
  bytes_.append(partition_key).append(row_key).append(record);
}

void StoredEntities::Add(const Entity& entity) {
  const std::size_t start = bytes_.size();
  bytes_.append(entity.partition_key).append(entity.row_key);
  const std::size_t record_start = bytes_.size();
  EncodeEntityRecord(entity, &bytes_);
  entries_.push_back(Offsets{start, entity.partition_key.size(), entity.row_key.size(),
                             bytes_.size() - record_start});
}

StoredEntities::Entry StoredEntities::operator[](std::size_t i) const {
  const Offsets& at = entries_[i];
  const std::string_view all(bytes_);
  return Entry{all.substr(at.start, at.partition_key),
               all.substr(at.start + at.partition_key, at.row_key),
               all.substr(at.start + at.partition_key + at.row_key, at.record)};
}

}  // namespace malachite::storage
