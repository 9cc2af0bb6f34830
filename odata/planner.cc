#include "odata/planner.h"

#include <utility>

#include "common/encoding.h"
#include "odata/ast.h"
#include "odata/key_cover.h"

namespace malachite::odata {
namespace {

PlanKind KindOf(const std::vector<KeyRange>& ranges) {
  if (ranges.empty()) return PlanKind::kEmpty;
  bool all_points = true;
  for (const KeyRange& range : ranges) all_points = all_points && range.IsPoint();
  if (all_points) return ranges.size() == 1 ? PlanKind::kPoint : PlanKind::kPoints;
  if (ranges.size() > 1) return PlanKind::kRanges;
  const KeyRange& range = ranges.front();
  if (!range.lower && !range.upper) return PlanKind::kTableScan;
  if (range.IsPartition()) return PlanKind::kPartition;
  if (range.InOnePartition()) return PlanKind::kRowRange;
  return PlanKind::kPartitionRange;
}

// What the top-level `and` conjuncts of a filter say about the keys.
struct KeyConditions {
  bool pk_eq = false, pk_range = false, rk_eq = false, rk_range = false;
};

// Azure: design guide "Design for querying" — the service narrows by the PartitionKey and RowKey
// conditions joined by `and` at the top of the filter; an `or` does not give it key lookups.
void CollectConjuncts(const Expr& expr, KeyConditions& out) {
  if (expr.kind == Expr::Kind::kAnd) {
    CollectConjuncts(*expr.left, out);
    CollectConjuncts(*expr.right, out);
    return;
  }
  if (expr.kind != Expr::Kind::kCompare || expr.literal.type != EdmType::kString) return;
  const bool eq = expr.op == CompareOp::kEq;
  const bool ordering = expr.op != CompareOp::kEq && expr.op != CompareOp::kNe;
  if (expr.property == "PartitionKey") {
    out.pk_eq = out.pk_eq || eq;
    out.pk_range = out.pk_range || ordering;
  } else if (expr.property == "RowKey") {
    out.rk_eq = out.rk_eq || eq;
    out.rk_range = out.rk_range || ordering;
  }
}

ServiceClass ClassifyForService(const Filter* filter) {
  if (filter == nullptr) return ServiceClass::kTableScan;
  KeyConditions keys;
  CollectConjuncts(filter->root(), keys);
  if (keys.pk_eq) {
    if (keys.rk_eq) return ServiceClass::kPoint;
    return keys.rk_range ? ServiceClass::kRowRange : ServiceClass::kPartitionScan;
  }
  return keys.pk_range ? ServiceClass::kPartitionRange : ServiceClass::kTableScan;
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
  KeyCover cover = CoverKeys(filter ? &filter->root() : nullptr, KeyNames{first_key, second_key});
  if (cover.ranges.size() == 1 && !cover.ranges.front().IsEmpty()) {
    plan.ranges_ = std::move(cover.ranges);  // already normal: skips NormalizeRanges' copy
  } else {
    plan.ranges_ = NormalizeRanges(std::move(cover.ranges));
  }
  plan.kind_ = KindOf(plan.ranges_);
  plan.residual_ = cover.exact ? nullptr : filter;
  return plan;
}

std::vector<KeyRange> ScanPlan::RangesFrom(std::string_view pk,
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
