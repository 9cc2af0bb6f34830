#include "odata/planner.h"

#include <utility>

#include "common/encoding.h"
#include "odata/ast.h"
#include "odata/evaluator.h"

namespace malachite::odata {
namespace {

// The planner works on sets of keys described as unions of boxes: a PartitionKey interval times
// a RowKey interval. `and` intersects boxes, `or` unites them, `not` is pushed down to the
// comparisons (De Morgan), where negating a key comparison is exact because keys are always
// present Strings and String order is total. Every set is a superset of the keys the expression
// matches; `exact` says it is the very set, so no residual is needed.

struct EndPoint {
  std::string value;
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
  std::vector<Box> boxes;
  bool exact = true;
};

// Unions wider than this collapse (each `and` of two unions multiplies their sizes).
constexpr std::size_t kMaxBoxes = 64;

KeySet All(bool exact) { return KeySet{{Box{}}, exact}; }

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

// The keys satisfying `key op value` as a union of intervals.
std::vector<Interval> KeyIntervals(CompareOp op, const std::string& value) {
  switch (op) {
    case CompareOp::kEq:
      return {Interval{EndPoint{value, true}, EndPoint{value, true}}};
    case CompareOp::kNe:
      return {Interval{std::nullopt, EndPoint{value, false}},
              Interval{EndPoint{value, false}, std::nullopt}};
    case CompareOp::kGt:
      return {Interval{EndPoint{value, false}, std::nullopt}};
    case CompareOp::kGe:
      return {Interval{EndPoint{value, true}, std::nullopt}};
    case CompareOp::kLt:
      return {Interval{std::nullopt, EndPoint{value, false}}};
    case CompareOp::kLe:
      return {Interval{std::nullopt, EndPoint{value, true}}};
  }
  return {Interval{}};
}

// The property names that are the first and second key: PartitionKey and RowKey for entities,
// TableName alone for the table catalog.
struct KeyNames {
  std::string_view first;
  std::string_view second;
};

KeySet PlanComparison(const Expr& expr, bool negated, const KeyNames& keys) {
  const bool on_pk = expr.property == keys.first;
  if (!on_pk && (keys.second.empty() || expr.property != keys.second)) {
    return All(false);  // not a key: no narrowing
  }
  const Literal& literal = expr.literal;
  if (literal.type != EdmType::kString) {
    // Azure: spec §6.2 — a key is a String, so against another type the comparison is the same
    // constant for every entity (the evaluator's cross-type rule): everything or nothing.
    ValueView key;  // an empty String; the value does not matter across types
    const bool holds = CompareValues(key, expr.op, literal.value) != negated;
    return holds ? All(true) : KeySet{};
  }
  if (!UsableKeyLiteral(literal)) return All(false);
  KeySet set;
  for (Interval& interval :
       KeyIntervals(negated ? Negate(expr.op) : expr.op, literal.value.bytes)) {
    if (interval.IsEmpty()) continue;  // e.g. `RowKey lt ''`
    Box box;
    (on_pk ? box.pk : box.rk) = std::move(interval);
    set.boxes.push_back(std::move(box));
  }
  return set;
}

KeySet Unite(KeySet a, KeySet b) {
  a.exact = a.exact && b.exact;
  for (Box& box : b.boxes) a.boxes.push_back(std::move(box));
  for (const Box& box : a.boxes) {
    if (box.pk.IsFull() && box.rk.IsFull()) return All(a.exact);
  }
  if (a.boxes.size() > kMaxBoxes) return All(false);
  return a;
}

KeySet IntersectSets(KeySet a, KeySet b) {
  if (a.boxes.size() * b.boxes.size() > kMaxBoxes) {
    // Too many pieces: either operand alone is still a superset of the intersection.
    KeySet& smaller = a.boxes.size() <= b.boxes.size() ? a : b;
    smaller.exact = false;
    return std::move(smaller);
  }
  KeySet out;
  out.exact = a.exact && b.exact;
  for (const Box& x : a.boxes) {
    for (const Box& y : b.boxes) {
      Box box{Intersect(x.pk, y.pk), Intersect(x.rk, y.rk)};
      if (!box.pk.IsEmpty() && !box.rk.IsEmpty()) out.boxes.push_back(std::move(box));
    }
  }
  // A superset that is empty proves the true set empty too.
  if (out.boxes.empty()) out.exact = true;
  return out;
}

KeySet PlanExpr(const Expr& expr, bool negated, const KeyNames& keys) {
  switch (expr.kind) {
    case Expr::Kind::kCompare:
      return PlanComparison(expr, negated, keys);
    case Expr::Kind::kNot:
      return PlanExpr(*expr.left, !negated, keys);
    case Expr::Kind::kAnd:
    case Expr::Kind::kOr: {
      KeySet left = PlanExpr(*expr.left, negated, keys);
      KeySet right = PlanExpr(*expr.right, negated, keys);
      // De Morgan: under a negation `and` becomes `or` and vice versa.
      const bool unite = (expr.kind == Expr::Kind::kOr) != negated;
      return unite ? Unite(std::move(left), std::move(right))
                   : IntersectSets(std::move(left), std::move(right));
    }
  }
  return All(false);
}

// The key range covering a box. A RowKey interval only bounds the range where the PartitionKey
// end is inclusive (inside that partition); elsewhere every RowKey of a partition is scanned,
// so the range is exact only when the PartitionKey is a single value or the RowKey is free.
PlanRange RangeOf(const Box& box, bool* exact) {
  if (!box.pk.IsPoint() && !box.rk.IsFull()) *exact = false;
  PlanRange range;
  if (box.pk.lo) {
    PlanBound& lower = range.lower.emplace();
    lower.partition_key = box.pk.lo->value;
    lower.inclusive = box.pk.lo->inclusive;
    if (box.pk.lo->inclusive && box.rk.lo) {
      lower.row_key = box.rk.lo->value;
      lower.inclusive = box.rk.lo->inclusive;
    }
  }
  if (box.pk.hi) {
    PlanBound& upper = range.upper.emplace();
    upper.partition_key = box.pk.hi->value;
    upper.inclusive = box.pk.hi->inclusive;
    if (box.pk.hi->inclusive && box.rk.hi) {
      upper.row_key = box.rk.hi->value;
      upper.inclusive = box.rk.hi->inclusive;
    }
  }
  return range;
}

PlanKind KindOf(const std::vector<PlanRange>& ranges) {
  if (ranges.empty()) return PlanKind::kEmpty;
  bool all_points = true;
  for (const PlanRange& range : ranges) all_points = all_points && range.IsPoint();
  if (all_points) return ranges.size() == 1 ? PlanKind::kPoint : PlanKind::kPoints;
  if (ranges.size() > 1) return PlanKind::kRanges;
  const PlanRange& range = ranges.front();
  if (!range.lower && !range.upper) return PlanKind::kTableScan;
  if (range.IsPartition()) return PlanKind::kPartition;
  if (range.InOnePartition()) return PlanKind::kRowRange;
  return PlanKind::kPartitionRange;
}

// Azure: design guide "Design for querying" — the service narrows by the PartitionKey and RowKey
// conditions joined by `and` at the top of the filter; an `or` does not give it key lookups.
void CollectConjuncts(const Expr& expr, std::vector<const Expr*>& out) {
  if (expr.kind == Expr::Kind::kAnd) {
    CollectConjuncts(*expr.left, out);
    CollectConjuncts(*expr.right, out);
  } else {
    out.push_back(&expr);
  }
}

ServiceClass ClassifyForService(const Filter* filter) {
  if (filter == nullptr) return ServiceClass::kTableScan;
  std::vector<const Expr*> conjuncts;
  CollectConjuncts(filter->root(), conjuncts);
  bool pk_eq = false, pk_range = false, rk_eq = false, rk_range = false;
  for (const Expr* c : conjuncts) {
    if (c->kind != Expr::Kind::kCompare || c->literal.type != EdmType::kString) continue;
    const bool eq = c->op == CompareOp::kEq;
    const bool ordering = c->op != CompareOp::kEq && c->op != CompareOp::kNe;
    if (c->property == "PartitionKey") {
      pk_eq = pk_eq || eq;
      pk_range = pk_range || ordering;
    } else if (c->property == "RowKey") {
      rk_eq = rk_eq || eq;
      rk_range = rk_range || ordering;
    }
  }
  if (pk_eq) {
    if (rk_eq) return ServiceClass::kPoint;
    return rk_range ? ServiceClass::kRowRange : ServiceClass::kPartitionScan;
  }
  return pk_range ? ServiceClass::kPartitionRange : ServiceClass::kTableScan;
}

// The filter dump with bytes outside printable ASCII as \xNN (it goes into a header).
std::string PrintableDump(const Filter& filter) {
  std::string out;
  for (char c : filter.Dump()) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte > 0x7e) {
      out += "\\x";
      AppendHex(out, std::string_view(&c, 1), HexCase::kUpper);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace

std::string_view PlanKindName(PlanKind kind) {
  switch (kind) {
    case PlanKind::kEmpty:
      return "empty";
    case PlanKind::kPoint:
      return "point";
    case PlanKind::kPoints:
      return "points";
    case PlanKind::kRowRange:
      return "row-range";
    case PlanKind::kPartition:
      return "partition";
    case PlanKind::kPartitionRange:
      return "partition-range";
    case PlanKind::kRanges:
      return "ranges";
    case PlanKind::kTableScan:
      return "table-scan";
  }
  return "?";
}

std::string_view ServiceClassName(ServiceClass service) {
  switch (service) {
    case ServiceClass::kPoint:
      return "point";
    case ServiceClass::kRowRange:
      return "row-range";
    case ServiceClass::kPartitionScan:
      return "partition-scan";
    case ServiceClass::kPartitionRange:
      return "partition-range";
    case ServiceClass::kTableScan:
      return "table-scan";
  }
  return "?";
}

ScanPlan ScanPlan::Make(const Filter* filter) {
  ScanPlan plan = Build(filter, "PartitionKey", "RowKey");
  plan.service_ = ClassifyForService(filter);
  return plan;
}

ScanPlan ScanPlan::MakeForTables(const Filter* filter) {
  ScanPlan plan = Build(filter, "TableName", {});
  plan.for_tables_ = true;
  return plan;
}

ScanPlan ScanPlan::Build(const Filter* filter, std::string_view first_key,
                         std::string_view second_key) {
  ScanPlan plan;
  const KeyNames keys{first_key, second_key};
  const KeySet set = filter ? PlanExpr(filter->root(), false, keys) : All(true);
  bool exact = set.exact;
  std::vector<PlanRange> ranges;
  ranges.reserve(set.boxes.size());
  for (const Box& box : set.boxes) ranges.push_back(RangeOf(box, &exact));
  plan.ranges_ = NormalizeRanges(std::move(ranges));
  plan.kind_ = KindOf(plan.ranges_);
  plan.residual_ = exact ? nullptr : filter;
  return plan;
}

std::vector<PlanRange> ScanPlan::RangesFrom(std::string_view pk,
                                            std::optional<std::string_view> rk) const {
  return ClipRanges(ranges_, pk, rk);
}

std::string ScanPlan::Dump() const {
  std::string out = "plan=";
  out += PlanKindName(kind_);
  if (kind_ == PlanKind::kPoints || kind_ == PlanKind::kRanges) {
    out += "(" + std::to_string(ranges_.size()) + ")";
  }
  if (!for_tables_) {
    out += " service=";
    out += ServiceClassName(service_);
  }
  out += " ranges=" + DumpRanges(ranges_);
  out += " residual=";
  out += residual_ ? PrintableDump(*residual_) : "none";
  return out;
}

}  // namespace malachite::odata
