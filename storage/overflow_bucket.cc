#include "storage/overflow_bucket.h"

#include <algorithm>

#include "storage/varint.h"

namespace malachite::storage {
namespace {

auto LowerBound(std::vector<BucketEntry>* entries, std::string_view suffix) {
  return std::lower_bound(entries->begin(), entries->end(), suffix,
                          [](const BucketEntry& e, std::string_view s) { return e.suffix < s; });
}

}  // namespace

bool ParseBucket(std::string_view bytes, std::vector<BucketEntry>* out) {
  out->clear();
  Reader r(bytes);
  std::uint8_t version = 0;
  std::uint64_t count = 0;
  if (!r.Byte(&version) || version != kBucketVersion || !r.Varint(&count)) return false;
  out->reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint64_t len = 0;
    BucketEntry e;
    if (!r.Varint(&len) || !r.Bytes(len, &e.suffix)) return false;
    if (!r.Varint(&len) || !r.Bytes(len, &e.record)) return false;
    out->push_back(e);
  }
  return r.empty();
}

std::optional<std::string_view> FindInBucket(std::string_view bytes, std::string_view suffix) {
  Reader r(bytes);
  std::uint8_t version = 0;
  std::uint64_t count = 0;
  if (!r.Byte(&version) || version != kBucketVersion || !r.Varint(&count)) return std::nullopt;
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint64_t len = 0;
    std::string_view s, record;
    if (!r.Varint(&len) || !r.Bytes(len, &s)) return std::nullopt;
    if (!r.Varint(&len) || !r.Bytes(len, &record)) return std::nullopt;
    if (s == suffix) return record;
    if (s > suffix) return std::nullopt;  // sorted: it is not further on
  }
  return std::nullopt;
}

std::string EncodeBucket(const std::vector<BucketEntry>& entries) {
  std::size_t size = 16;
  for (const auto& e : entries) size += e.suffix.size() + e.record.size() + 10;
  std::string out;
  out.reserve(size);
  out.push_back(static_cast<char>(kBucketVersion));
  AppendVarint(&out, entries.size());
  for (const auto& e : entries) {
    AppendVarint(&out, e.suffix.size());
    out.append(e.suffix);
    AppendVarint(&out, e.record.size());
    out.append(e.record);
  }
  return out;
}

void UpsertBucketEntry(std::vector<BucketEntry>* entries, BucketEntry entry) {
  auto it = LowerBound(entries, entry.suffix);
  if (it != entries->end() && it->suffix == entry.suffix) {
    it->record = entry.record;
  } else {
    entries->insert(it, entry);
  }
}

bool EraseBucketEntry(std::vector<BucketEntry>* entries, std::string_view suffix) {
  auto it = LowerBound(entries, suffix);
  if (it == entries->end() || it->suffix != suffix) return false;
  entries->erase(it);
  return true;
}

}  // namespace malachite::storage
