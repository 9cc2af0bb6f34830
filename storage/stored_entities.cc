#include "storage/stored_entities.h"

#include "storage/key_codec.h"

namespace malachite::storage {

void StoredEntities::Add(std::string_view partition_key, std::string_view row_key,
                         std::string_view record) {
  if (entries_.empty()) Reserve(partition_key.size() + row_key.size() + record.size());
  entries_.push_back(Offsets{bytes_.size(), partition_key.size(), row_key.size(), record.size()});
  bytes_.append(partition_key).append(row_key).append(record);
}

bool StoredEntities::AddEncoded(std::string_view key, std::string_view record) {
  if (entries_.empty()) Reserve(key.size() + record.size());
  const std::size_t start = bytes_.size();
  std::size_t pk_size = 0;
  if (!AppendDecodedKeys(&bytes_, key, &pk_size)) return false;
  const std::size_t keys_size = bytes_.size() - start;
  entries_.push_back(Offsets{start, pk_size, keys_size - pk_size, record.size()});
  bytes_.append(record);
  return true;
}

void StoredEntities::Add(const Entity& entity) {
  const std::size_t start = bytes_.size();
  if (entries_.empty()) Reserve(entity.partition_key.size() + entity.row_key.size() + 64);
  bytes_.append(entity.partition_key).append(entity.row_key);
  const std::size_t record_start = bytes_.size();
  EncodeEntityRecord(entity, &bytes_);
  entries_.push_back(Offsets{start, entity.partition_key.size(), entity.row_key.size(),
                             bytes_.size() - record_start});
}

void StoredEntities::Reserve(std::size_t entry_bytes) {
  // A page of entities like its first one fits without the buffer's copies as it doubles; the
  // default page is 1,000 entities, but most listings are shorter.
  constexpr std::size_t kEntries = 128;
  bytes_.reserve(kEntries * entry_bytes);
  entries_.reserve(kEntries);
}

StoredEntities::Entry StoredEntities::operator[](std::size_t i) const {
  const Offsets& at = entries_[i];
  const std::string_view all(bytes_);
  return Entry{all.substr(at.start, at.partition_key),
               all.substr(at.start + at.partition_key, at.row_key),
               all.substr(at.start + at.partition_key + at.row_key, at.record)};
}

}  // namespace malachite::storage
