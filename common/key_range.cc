#include "common/key_range.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "common/encoding.h"

namespace malachite {
namespace {

// A position between keys. Every bound is one cut: a lower bound says "keys after this cut", an
// upper bound "keys before it". Comparing cuts orders bounds of either kind uniformly.
struct Cut {
  enum Pos : std::uint8_t {
    kMinusInf,        // before every key
    kPartitionStart,  // before every key of partition `pk`
    kBeforeRow,       // just before key (pk, rk)
    kAfterRow,        // just after key (pk, rk)
    kPartitionEnd,    // after every key of partition `pk`
    kPlusInf,         // after every key
  };
  Pos pos = kMinusInf;
  std::string_view pk;
  std::string_view rk;
};

Cut LowerCut(const std::optional<KeyBound>& bound) {
  if (!bound) return {Cut::kMinusInf, {}, {}};
  if (!bound->row_key) {
    return {bound->inclusive ? Cut::kPartitionStart : Cut::kPartitionEnd, bound->partition_key, {}};
  }
  return {bound->inclusive ? Cut::kBeforeRow : Cut::kAfterRow, bound->partition_key,
          *bound->row_key};
}

Cut UpperCut(const std::optional<KeyBound>& bound) {
  if (!bound) return {Cut::kPlusInf, {}, {}};
  if (!bound->row_key) {
    return {bound->inclusive ? Cut::kPartitionEnd : Cut::kPartitionStart, bound->partition_key, {}};
  }
  return {bound->inclusive ? Cut::kAfterRow : Cut::kBeforeRow, bound->partition_key,
          *bound->row_key};
}

// Where a cut lies relative to the keys of its own partition: start, among the rows, end.
int PartitionRank(Cut::Pos pos) {
  return pos == Cut::kPartitionStart ? 0 : pos == Cut::kPartitionEnd ? 2 : 1;
}

int CompareCuts(const Cut& a, const Cut& b) {
  const bool a_inf = a.pos == Cut::kMinusInf || a.pos == Cut::kPlusInf;
  const bool b_inf = b.pos == Cut::kMinusInf || b.pos == Cut::kPlusInf;
  if (a_inf || b_inf) {
    const int x = a_inf ? (a.pos == Cut::kMinusInf ? -1 : 1) : 0;
    const int y = b_inf ? (b.pos == Cut::kMinusInf ? -1 : 1) : 0;
    return x - y;
  }
  if (const int c = CompareUtf16Order(a.pk, b.pk); c != 0) return c;
  const int rank_a = PartitionRank(a.pos), rank_b = PartitionRank(b.pos);
  if (rank_a != rank_b) return rank_a - rank_b;
  if (rank_a != 1) return 0;
  if (const int c = CompareUtf16Order(a.rk, b.rk); c != 0) return c;
  return static_cast<int>(a.pos) - static_cast<int>(b.pos);  // before < after
}

void AppendBound(std::string& out, const KeyBound& bound) {
  AppendQuotedKey(out, bound.partition_key);
  out.push_back('/');
  if (bound.row_key) {
    AppendQuotedKey(out, *bound.row_key);
  } else {
    out.push_back('*');
  }
}

}  // namespace

bool KeyRange::IsPoint() const {
  return lower && upper && lower->row_key && upper->row_key && lower->inclusive &&
         upper->inclusive && lower->partition_key == upper->partition_key &&
         *lower->row_key == *upper->row_key;
}

bool KeyRange::IsPartition() const {
  return lower && upper && !lower->row_key && !upper->row_key && lower->inclusive &&
         upper->inclusive && lower->partition_key == upper->partition_key;
}

bool KeyRange::InOnePartition() const {
  if (!lower || !upper || lower->partition_key != upper->partition_key) return false;
  // An exclusive edge lies outside its partition (after it for a lower bound, before it for an
  // upper bound), so such a range is empty or reaches into other partitions.
  return (lower->row_key || lower->inclusive) && (upper->row_key || upper->inclusive);
}

bool KeyRange::IsEmpty() const { return CompareCuts(LowerCut(lower), UpperCut(upper)) >= 0; }

std::vector<KeyRange> NormalizeRanges(std::vector<KeyRange> ranges) {
  ranges.erase(
      std::remove_if(ranges.begin(), ranges.end(), [](const KeyRange& r) { return r.IsEmpty(); }),
      ranges.end());
  std::sort(ranges.begin(), ranges.end(), [](const KeyRange& a, const KeyRange& b) {
    return CompareCuts(LowerCut(a.lower), LowerCut(b.lower)) < 0;
  });
  std::vector<KeyRange> merged;
  merged.reserve(ranges.size());
  for (KeyRange& range : ranges) {
    if (!merged.empty() && CompareCuts(LowerCut(range.lower), UpperCut(merged.back().upper)) <= 0) {
      // Overlapping or touching: one range up to the larger upper bound.
      if (CompareCuts(UpperCut(range.upper), UpperCut(merged.back().upper)) > 0) {
        merged.back().upper = std::move(range.upper);
      }
      continue;
    }
    merged.push_back(std::move(range));
  }
  return merged;
}

std::vector<KeyRange> ClipRanges(const std::vector<KeyRange>& ranges, std::string_view pk,
                                 std::optional<std::string_view> rk) {
  const Cut start{rk ? Cut::kBeforeRow : Cut::kPartitionStart, pk, rk.value_or("")};
  std::vector<KeyRange> clipped;
  for (const KeyRange& range : ranges) {
    if (CompareCuts(UpperCut(range.upper), start) <= 0) continue;  // wholly before the start
    clipped.push_back(range);
    if (CompareCuts(LowerCut(range.lower), start) < 0) {
      clipped.back().lower =
          KeyBound{std::string(pk), rk ? std::optional<std::string>(*rk) : std::nullopt, true};
    }
  }
  return clipped;
}

std::vector<KeyRange> IntersectRanges(const std::vector<KeyRange>& ranges, const KeyRange& within) {
  std::vector<KeyRange> out;
  out.reserve(ranges.size());
  for (const KeyRange& range : ranges) {
    KeyRange narrowed = range;
    // The later of the two lower cuts and the earlier of the two upper cuts.
    if (CompareCuts(LowerCut(within.lower), LowerCut(range.lower)) > 0) {
      narrowed.lower = within.lower;
    }
    if (CompareCuts(UpperCut(within.upper), UpperCut(range.upper)) < 0) {
      narrowed.upper = within.upper;
    }
    if (!narrowed.IsEmpty()) out.push_back(std::move(narrowed));
  }
  return out;
}

bool RangeContains(const KeyRange& range, std::string_view pk, std::string_view rk) {
  return CompareCuts(LowerCut(range.lower), Cut{Cut::kBeforeRow, pk, rk}) <= 0 &&
         CompareCuts(Cut{Cut::kAfterRow, pk, rk}, UpperCut(range.upper)) <= 0;
}

void AppendQuotedKey(std::string& out, std::string_view key) {
  out.push_back('\'');
  for (char c : key) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte > 0x7e || c == '\\') {
      out += "\\x";
      AppendHex(out, std::string_view(&c, 1), HexCase::kUpper);
    } else {
      if (c == '\'') out.push_back('\'');
      out.push_back(c);
    }
  }
  out.push_back('\'');
}

std::string DumpRange(const KeyRange& range) {
  std::string out;
  if (range.IsPoint() || range.IsPartition()) {
    AppendBound(out, *range.lower);
    return out;
  }
  if (range.lower) {
    out.push_back(range.lower->inclusive ? '[' : '(');
    AppendBound(out, *range.lower);
  } else {
    out += "(-inf";
  }
  out += " .. ";
  if (range.upper) {
    AppendBound(out, *range.upper);
    out.push_back(range.upper->inclusive ? ']' : ')');
  } else {
    out += "+inf)";
  }
  return out;
}

std::string DumpRanges(const std::vector<KeyRange>& ranges) {
  std::string out = "[";
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    if (i > 0) out += ", ";
    out += DumpRange(ranges[i]);
  }
  out.push_back(']');
  return out;
}

}  // namespace malachite
