// The order-preserving encoding of entity keys and key ranges (storage/FORMAT.md, "Entity keys").
//
//   key = table id (8 bytes, big-endian) | Map(PartitionKey) | 0x00 | Map(RowKey)
//
// Map() is the UTF-8 bytes with the lead bytes 0xEE -> 0xF5 and 0xEF -> 0xF6, so that plain
// byte order (LMDB's) equals the service's order: PartitionKey, then RowKey, ordinal by UTF-16
// code unit.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "storage/store.h"

namespace malachite::storage {

inline constexpr std::size_t kTableIdBytes = 8;

// Appends `v` as 8 big-endian bytes (so byte order is numeric order).
void AppendU64BE(std::string* out, std::uint64_t v);
// REQUIRES: bytes.size() >= 8.
std::uint64_t ReadU64BE(std::string_view bytes);

// The 8-byte prefix every key of table `table_id` starts with.
std::string EncodeTablePrefix(std::uint64_t table_id);

// Appends the encoded key to *out (which is not cleared).
// REQUIRES: pk contains no U+0000 (ValidateKey forbids it), both are valid UTF-8.
void AppendEntityKey(std::string* out, std::uint64_t table_id, std::string_view pk,
                     std::string_view rk);
std::string EncodeEntityKey(std::uint64_t table_id, std::string_view pk, std::string_view rk);

// Splits an encoded key. Returns false when `key` is not a well-formed entity key. *pk and *rk
// are overwritten (their capacity is reused: no allocation once warm).
bool DecodeEntityKey(std::string_view key, std::uint64_t* table_id, std::string* pk,
                     std::string* rk);

// Appends the partition key and then the row key of the encoded entity key `key` to *out,
// decoded, and sets *pk_size to the partition key's length (the row key is the rest). Returns
// false, with *out unchanged, when `key` is not a well-formed entity key.
bool AppendDecodedKeys(std::string* out, std::string_view key, std::size_t* pk_size);

// Sets *pk and *rk to views into the encoded entity key `key` (living as long as its bytes) when
// the keys read the same encoded as decoded: all ASCII, the common case, so no byte to unmap.
// Returns false, with *pk and *rk unchanged, when they do not or `key` is not a well-formed
// entity key: AppendDecodedKeys then decodes or rejects it.
bool KeysInPlace(std::string_view key, std::string_view* pk, std::string_view* rk);

// A half-open range [start, stop) of encoded keys.
struct EncodedRange {
  std::string start;
  std::string stop;
};

// The encoded keys of `range` inside table `table_id`. An empty or inverted range gives
// start >= stop (callers visit nothing). REQUIRES: table_id < UINT64_MAX.
EncodedRange EncodeKeyRange(std::uint64_t table_id, const KeyRange& range);

// `table=7 pk="a" rk="b"`; non-printable bytes as \xNN, '"' and '\' escaped. For tests/logs.
std::string DumpEntityKey(std::string_view key);
// `[start, stop)` with each side as `table=N "<rest>"`: the table id, then the bytes after it
// unmapped and escaped as in DumpEntityKey, the 0x00 separator as \x00 (e.g.
// `[table=7 "p\x00a", table=7 "p\x00c\x00")`). `<short key>` for a side under 8 bytes. For tests.
std::string DumpEncodedRange(const EncodedRange& range);

// Catalog key: account | 0x00 | ascii-lower(name).
std::string EncodeCatalogKey(std::string_view account, std::string_view name);
// Appends the catalog key to *out (which is not cleared).
void AppendCatalogKey(std::string* out, std::string_view account, std::string_view name);

}  // namespace malachite::storage
