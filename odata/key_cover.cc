#include "odata/key_cover.h"

#include <array>
#include <cstdint>
#include <memory_resource>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "common/encoding.h"
#include "odata/evaluator.h"

namespace malachite::odata {
namespace {

// The planner works on sets of keys described as unions of boxes: a PartitionKey interval times
// a RowKey interval. `and` intersects boxes, `or` unites them, `not` is pushed down to the
// comparisons (De Morgan), where negating a key comparison is exact because keys are always
// present Strings and String order is total. Every set is a superset of the keys the expression
// matches; `exact` says it is the very set, so no residual is needed.
//
// Planning runs once per query request, so it allocates nothing on the heap in the common case:
// end points are views into the tree's decoded literals (the tree outlives CoverKeys), and every
// list of boxes lives in a stack arena that CoverKeys releases at once.

struct EndPoint {
  std::string_view value;  // a literal's decoded bytes in the tree
  bool inclusive = true;
};

// Strings between `lo` and `hi` (unset: unbounded).
struct Interval {
  std::optional<EndPoint> lo;
  std::optional<EndPoint> hi;

  bool IsFull() const { return !lo && !hi; }
  bool IsPoint() const {
    return lo && hi && lo->inclusive && hi->inclusive && lo->value == hi->value;
  }
  bool IsEmpty() const {
    if (hi && !hi->inclusive && hi->value.empty()) return true;  // below the least string
    if (!lo || !hi) return false;
    const int order = CompareUtf16Order(lo->value, hi->value);
    return order > 0 || (order == 0 && !(lo->inclusive && hi->inclusive));
  }
};

// The tighter of two lower (or, with `upper`, upper) ends.
const std::optional<EndPoint>& Tighter(const std::optional<EndPoint>& a,
                                       const std::optional<EndPoint>& b, bool upper) {
  if (!a) return b;
  if (!b) return a;
  const int order = CompareUtf16Order(a->value, b->value);
  if (order == 0) return a->inclusive ? b : a;
  return (order > 0) != upper ? a : b;
}

Interval Intersect(const Interval& a, const Interval& b) {
  return Interval{Tighter(a.lo, b.lo, false), Tighter(a.hi, b.hi, true)};
}

struct Box {
  Interval pk;
  Interval rk;
};

struct KeySet {
  std::pmr::vector<Box> boxes;
  bool exact = true;
};

// Unions wider than this collapse (each `and` of two unions multiplies their sizes).
constexpr std::size_t kMaxBoxes = 64;

// Where one CoverKeys call keeps its boxes: a few kilobytes on the stack, then the heap.
class Planning {
 public:
  explicit Planning(const KeyNames& keys) : keys_(keys) {}
  Planning(const Planning&) = delete;
  Planning& operator=(const Planning&) = delete;

  const KeyNames& keys() const { return keys_; }
  KeySet None() { return KeySet{std::pmr::vector<Box>(&arena_), true}; }
  KeySet All(bool exact) {
    KeySet set{std::pmr::vector<Box>(&arena_), exact};
    set.boxes.emplace_back();
    return set;
  }

 private:
  const KeyNames& keys_;
  std::array<std::byte, 2048> buffer_;
  std::pmr::monotonic_buffer_resource arena_{buffer_.data(), buffer_.size()};
};

CompareOp Negate(CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return CompareOp::kNe;
    case CompareOp::kNe:
      return CompareOp::kEq;
    case CompareOp::kGt:
      return CompareOp::kLe;
    case CompareOp::kGe:
      return CompareOp::kLt;
    case CompareOp::kLt:
      return CompareOp::kGe;
    case CompareOp::kLe:
      return CompareOp::kGt;
  }
  return op;
}

// A String literal a key range may be built from. Storage encodes keys as UTF-8 with a 00
// terminator after the PartitionKey, so a bound with a NUL or invalid UTF-8 would not sort where
// the evaluator puts it; such comparisons do not narrow.
bool UsableKeyLiteral(const Literal& literal) {
  return literal.type == EdmType::kString && literal.value.bytes.find('\0') == std::string::npos &&
         IsValidUtf8(literal.value.bytes);
}

// The keys satisfying one comparison: one interval, two for `ne`.
struct Intervals {
  std::array<Interval, 2> items;
  std::size_t count = 1;
};

// The keys satisfying `key op value` as a union of intervals.
Intervals KeyIntervals(CompareOp op, std::string_view value) {
  switch (op) {
    case CompareOp::kEq:
      return {{Interval{EndPoint{value, true}, EndPoint{value, true}}}};
    case CompareOp::kNe:
      return {{Interval{std::nullopt, EndPoint{value, false}},
               Interval{EndPoint{value, false}, std::nullopt}},
              2};
    case CompareOp::kGt:
      return {{Interval{EndPoint{value, false}, std::nullopt}}};
    case CompareOp::kGe:
      return {{Interval{EndPoint{value, true}, std::nullopt}}};
    case CompareOp::kLt:
      return {{Interval{std::nullopt, EndPoint{value, false}}}};
    case CompareOp::kLe:
      return {{Interval{std::nullopt, EndPoint{value, true}}}};
  }
  return {{Interval{}}};
}

// What one comparison says about the keys.
struct KeyCondition {
  enum Kind : std::uint8_t {
    kNoNarrowing,  // not a key, or a literal no key range can be built from
    kConstant,     // the same for every key: `holds`
    kIntervals,    // the keys in `intervals`, on the PartitionKey (`on_pk`) or the RowKey
  };
  Kind kind = kNoNarrowing;
  bool holds = false;
  bool on_pk = true;
  Intervals intervals;
};

KeyCondition ClassifyComparison(const Expr& expr, bool negated, const KeyNames& keys) {
  const bool on_pk = expr.property == keys.first;
  if (!on_pk && (keys.second.empty() || expr.property != keys.second)) {
    return {};  // not a key: no narrowing
  }
  const Literal& literal = expr.literal;
  if (literal.type != EdmType::kString) {
    // Azure: spec §6.2 — a key is a String, so against another type the comparison is the same
    // constant for every entity (the evaluator's cross-type rule): everything or nothing.
    PropertyView key;  // an empty String; the value does not matter across types
    const bool holds = CompareValues(key, expr.op, literal.value) != negated;
    return {KeyCondition::kConstant, holds, on_pk, {}};
  }
  if (!UsableKeyLiteral(literal)) return {};
  return {KeyCondition::kIntervals, false, on_pk,
          KeyIntervals(negated ? Negate(expr.op) : expr.op, literal.value.bytes)};
}

KeySet PlanComparison(const Expr& expr, bool negated, Planning& planning) {
  const KeyCondition condition = ClassifyComparison(expr, negated, planning.keys());
  if (condition.kind == KeyCondition::kNoNarrowing) return planning.All(false);
  if (condition.kind == KeyCondition::kConstant) {
    return condition.holds ? planning.All(true) : planning.None();
  }
  KeySet set = planning.None();
  for (std::size_t i = 0; i < condition.intervals.count; ++i) {
    const Interval& interval = condition.intervals.items[i];
    if (interval.IsEmpty()) continue;  // e.g. `RowKey lt ''`
    Box& box = set.boxes.emplace_back();
    (condition.on_pk ? box.pk : box.rk) = interval;
  }
  return set;
}

// `set` (a single box) and `expr`, computed in place when `expr` is a comparison that narrows to
// one interval or not at all: the usual and-chain of key conditions, planned without a set per
// comparison. False (and `set` untouched) when `expr` needs the general IntersectSets.
bool NarrowInPlace(KeySet& set, const Expr& expr, bool negated, const KeyNames& keys) {
  if (expr.kind != Expr::Kind::kCompare) return false;
  const KeyCondition condition = ClassifyComparison(expr, negated, keys);
  if (condition.kind == KeyCondition::kNoNarrowing) {
    set.exact = false;  // the and with everything, inexactly
    return true;
  }
  if (condition.kind != KeyCondition::kIntervals || condition.intervals.count != 1) return false;
  const Interval& interval = condition.intervals.items[0];
  Interval& side = condition.on_pk ? set.boxes.front().pk : set.boxes.front().rk;
  side = Intersect(side, interval);
  if (interval.IsEmpty() || side.IsEmpty()) {
    // A superset that is empty proves the true set empty too.
    set.boxes.clear();
    set.exact = true;
  }
  return true;
}

KeySet Unite(KeySet a, KeySet b, Planning& planning) {
  a.exact = a.exact && b.exact;
  for (const Box& box : b.boxes) a.boxes.push_back(box);
  for (const Box& box : a.boxes) {
    if (box.pk.IsFull() && box.rk.IsFull()) return planning.All(a.exact);
  }
  if (a.boxes.size() > kMaxBoxes) return planning.All(false);
  return a;
}

KeySet IntersectSets(KeySet a, KeySet b, Planning& planning) {
  if (a.boxes.size() * b.boxes.size() > kMaxBoxes) {
    // Too many pieces: either operand alone is still a superset of the intersection.
    KeySet& smaller = a.boxes.size() <= b.boxes.size() ? a : b;
    smaller.exact = false;
    return std::move(smaller);
  }
  if (a.boxes.size() == 1 && b.boxes.size() == 1) {
    // The usual `and` of two single boxes: narrowed in place.
    Box& box = a.boxes.front();
    box = Box{Intersect(box.pk, b.boxes.front().pk), Intersect(box.rk, b.boxes.front().rk)};
    if (box.pk.IsEmpty() || box.rk.IsEmpty()) a.boxes.clear();
    a.exact = a.boxes.empty() || (a.exact && b.exact);
    return a;
  }
  KeySet out = planning.None();
  out.exact = a.exact && b.exact;
  for (const Box& x : a.boxes) {
    for (const Box& y : b.boxes) {
      Box box{Intersect(x.pk, y.pk), Intersect(x.rk, y.rk)};
      if (!box.pk.IsEmpty() && !box.rk.IsEmpty()) out.boxes.push_back(box);
    }
  }
  // A superset that is empty proves the true set empty too.
  if (out.boxes.empty()) out.exact = true;
  return out;
}

KeySet PlanExpr(const Expr& expr, bool negated, Planning& planning) {
  switch (expr.kind) {
    case Expr::Kind::kCompare:
      return PlanComparison(expr, negated, planning);
    case Expr::Kind::kConstant:
      // Every key or none, exactly: `false` plans to nothing, `true and RowKey eq '1'` to the
      // RowKey condition alone.
      return expr.constant != negated ? planning.All(true) : planning.None();
    case Expr::Kind::kNot:
      return PlanExpr(*expr.left, !negated, planning);
    case Expr::Kind::kAnd:
    case Expr::Kind::kOr: {
      // De Morgan: under a negation `and` becomes `or` and vice versa.
      const bool unite = (expr.kind == Expr::Kind::kOr) != negated;
      KeySet left = PlanExpr(*expr.left, negated, planning);
      if (!unite && left.boxes.size() == 1 &&
          NarrowInPlace(left, *expr.right, negated, planning.keys())) {
        return left;
      }
      KeySet right = PlanExpr(*expr.right, negated, planning);
      return unite ? Unite(std::move(left), std::move(right), planning)
                   : IntersectSets(std::move(left), std::move(right), planning);
    }
  }
  return planning.All(false);
}

// The key range covering a box. A RowKey interval only bounds the range where the PartitionKey
// end is inclusive (inside that partition); elsewhere every RowKey of a partition is scanned,
// so the range is exact only when the PartitionKey is a single value or the RowKey is free.
KeyRange RangeOf(const Box& box, bool* exact) {
  if (!box.pk.IsPoint() && !box.rk.IsFull()) *exact = false;
  KeyRange range;
  if (box.pk.lo) {
    KeyBound& lower = range.lower.emplace();
    lower.partition_key.assign(box.pk.lo->value);
    lower.inclusive = box.pk.lo->inclusive;
    if (box.pk.lo->inclusive && box.rk.lo) {
      lower.row_key.emplace(box.rk.lo->value);
      lower.inclusive = box.rk.lo->inclusive;
    }
  }
  if (box.pk.hi) {
    KeyBound& upper = range.upper.emplace();
    upper.partition_key.assign(box.pk.hi->value);
    upper.inclusive = box.pk.hi->inclusive;
    if (box.pk.hi->inclusive && box.rk.hi) {
      upper.row_key.emplace(box.rk.hi->value);
      upper.inclusive = box.rk.hi->inclusive;
    }
  }
  return range;
}

}  // namespace

KeyCover CoverKeys(const Expr* expr, const KeyNames& keys) {
  Planning planning(keys);
  const KeySet set = expr ? PlanExpr(*expr, false, planning) : planning.All(true);
  KeyCover cover;
  cover.exact = set.exact;
  cover.ranges.reserve(set.boxes.size());
  for (const Box& box : set.boxes) cover.ranges.push_back(RangeOf(box, &cover.exact));
  return cover;
}

}  // namespace malachite::odata
