#include "storage/key_codec.h"

#include <algorithm>
#include <cstring>

#include "storage/dump_text.h"

namespace malachite::storage {
namespace {

// Azure: spec §3 "Ordering" — keys compare ordinally by UTF-16 code unit. UTF-8 byte order is
// code point order, which differs only where UTF-16 puts U+E000..U+FFFF (one unit, 0xE000+) after
// the supplementary planes (surrogates 0xD800..0xDFFF). In UTF-8 those BMP characters have the lead
// bytes 0xEE/0xEF; moving them to 0xF5/0xF6 (bytes UTF-8 never uses) sorts them after the 4-byte
// sequences (0xF0..0xF4). Continuation bytes are 0x80..0xBF, so only lead bytes are touched, and
// the surrogate range itself cannot occur in valid UTF-8.
constexpr unsigned char kMapped[2] = {0xF5, 0xF6};

void AppendMapped(std::string* out, std::string_view text) {
  std::size_t begin = out->size();
  out->append(text);
  for (std::size_t i = begin; i < out->size(); ++i) {
    unsigned char c = static_cast<unsigned char>((*out)[i]);
    if (c == 0xEE || c == 0xEF) (*out)[i] = static_cast<char>(kMapped[c - 0xEE]);
  }
}

void AssignUnmapped(std::string* out, std::string_view bytes) {
  out->assign(bytes);
  for (char& ch : *out) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c == 0xF5 || c == 0xF6) ch = static_cast<char>(c - 0xF5 + 0xEE);
  }
}

// True when no byte of text[0, n) has its high bit set. Eight bytes per test, a ragged tail tested
// as the last eight bytes (overlapping); text shorter than eight bytes is tested byte by byte.
bool IsAscii(const char* text, std::size_t n) {
  constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;
  if (n < 8) {
    for (std::size_t i = 0; i < n; ++i) {
      if ((static_cast<unsigned char>(text[i]) & 0x80) != 0) return false;
    }
    return true;
  }
  for (std::size_t i = 0; i < n; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, text + std::min(i, n - 8), 8);
    if ((word & kHighBits) != 0) return false;
  }
  return true;
}

// `table=N "<escaped rest>"` for bytes that may not be a whole key (range ends).
std::string DumpRaw(std::string_view key) {
  if (key.size() < kTableIdBytes) return "<short key>";
  std::string out = "table=" + std::to_string(ReadU64BE(key)) + " \"";
  std::string rest;
  AssignUnmapped(&rest, key.substr(kTableIdBytes));
  AppendDumpEscaped(&out, rest);
  out.push_back('"');
  return out;
}

}  // namespace

void AppendU64BE(std::string* out, std::uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) out->push_back(static_cast<char>(v >> shift));
}

std::uint64_t ReadU64BE(std::string_view bytes) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < 8; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[i]);
  return v;
}

std::string EncodeTablePrefix(std::uint64_t table_id) {
  std::string out;
  AppendU64BE(&out, table_id);
  return out;
}

void AppendEntityKey(std::string* out, std::uint64_t table_id, std::string_view pk,
                     std::string_view rk) {
  out->reserve(out->size() + kTableIdBytes + pk.size() + 1 + rk.size());
  AppendU64BE(out, table_id);
  AppendMapped(out, pk);
  // The 0x00 terminator sorts a partition before every longer one it prefixes ("a" < "ab").
  out->push_back('\0');
  AppendMapped(out, rk);
}

std::string EncodeEntityKey(std::uint64_t table_id, std::string_view pk, std::string_view rk) {
  std::string out;
  AppendEntityKey(&out, table_id, pk, rk);
  return out;
}

bool DecodeEntityKey(std::string_view key, std::uint64_t* table_id, std::string* pk,
                     std::string* rk) {
  if (key.size() < kTableIdBytes + 1) return false;
  std::size_t zero = key.find('\0', kTableIdBytes);
  if (zero == std::string_view::npos) return false;
  *table_id = ReadU64BE(key);
  AssignUnmapped(pk, key.substr(kTableIdBytes, zero - kTableIdBytes));
  AssignUnmapped(rk, key.substr(zero + 1));
  return true;
}

bool AppendDecodedKeys(std::string* out, std::string_view key, std::size_t* pk_size) {
  if (key.size() < kTableIdBytes + 1) return false;
  const std::size_t zero = key.find('\0', kTableIdBytes);
  if (zero == std::string_view::npos) return false;
  const std::size_t begin = out->size();
  out->append(key.substr(kTableIdBytes, zero - kTableIdBytes)).append(key.substr(zero + 1));
  // Most keys are ASCII, which holds no remapped lead byte: they are passed over in a few tests.
  char* text = out->data();
  if (!IsAscii(text + begin, out->size() - begin)) {
    for (std::size_t i = begin; i < out->size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(text[i]);
      if (c == 0xF5 || c == 0xF6) text[i] = static_cast<char>(c - 0xF5 + 0xEE);
    }
  }
  *pk_size = zero - kTableIdBytes;
  return true;
}

bool KeysInPlace(std::string_view key, std::string_view* pk, std::string_view* rk) {
  if (key.size() < kTableIdBytes + 1) return false;
  const std::size_t zero = key.find('\0', kTableIdBytes);
  if (zero == std::string_view::npos) return false;
  if (!IsAscii(key.data() + kTableIdBytes, key.size() - kTableIdBytes)) return false;
  *pk = key.substr(kTableIdBytes, zero - kTableIdBytes);
  *rk = key.substr(zero + 1);
  return true;
}

EncodedRange EncodeKeyRange(std::uint64_t table_id, const KeyRange& range) {
  EncodedRange out;
  // Lower bound -> first key included.
  if (!range.lower) {
    AppendU64BE(&out.start, table_id);
  } else if (!range.lower->row_key) {
    // Partition edge: all of partition P starts at P|00; excluding P starts right after it, at
    // P|01 (a longer partition P+c has c >= 0x01 because keys never contain U+0000).
    AppendEntityKey(&out.start, table_id, range.lower->partition_key, {});
    if (!range.lower->inclusive) out.start.back() = '\x01';
  } else {
    AppendEntityKey(&out.start, table_id, range.lower->partition_key, *range.lower->row_key);
    // The immediate successor of a byte string s is s|00.
    if (!range.lower->inclusive) out.start.push_back('\0');
  }
  // Upper bound -> first key excluded.
  if (!range.upper) {
    AppendU64BE(&out.stop, table_id + 1);
  } else if (!range.upper->row_key) {
    AppendEntityKey(&out.stop, table_id, range.upper->partition_key, {});
    if (range.upper->inclusive) out.stop.back() = '\x01';
  } else {
    AppendEntityKey(&out.stop, table_id, range.upper->partition_key, *range.upper->row_key);
    if (range.upper->inclusive) out.stop.push_back('\0');
  }
  return out;
}

std::string DumpEntityKey(std::string_view key) {
  std::uint64_t id = 0;
  std::string pk, rk;
  if (!DecodeEntityKey(key, &id, &pk, &rk)) return "<malformed key " + DumpRaw(key) + ">";
  std::string out = "table=" + std::to_string(id) + " pk=\"";
  AppendDumpEscaped(&out, pk);
  out += "\" rk=\"";
  AppendDumpEscaped(&out, rk);
  out.push_back('"');
  return out;
}

std::string DumpEncodedRange(const EncodedRange& range) {
  return "[" + DumpRaw(range.start) + ", " + DumpRaw(range.stop) + ")";
}

void AppendCatalogKey(std::string* out, std::string_view account, std::string_view name) {
  out->reserve(out->size() + account.size() + 1 + name.size());
  out->append(account);
  out->push_back('\0');
  for (char c : name) out->push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
}

std::string EncodeCatalogKey(std::string_view account, std::string_view name) {
  std::string out;
  AppendCatalogKey(&out, account, name);
  return out;
}

}  // namespace malachite::storage
