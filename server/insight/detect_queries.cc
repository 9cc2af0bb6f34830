// Detectors over the queries: table scans, partition scans, ranges over partitions, and
// queries that scan far more than they return.
#include <fmt/format.h>

#include "server/insight/advisor.h"
#include "server/insight/query_shape.h"

namespace malachite::server {
namespace {

constexpr std::uint64_t kWastefulScan = 1000;

bool Wasteful(const QueryShapeStats& s) {
  return s.scanned >= kWastefulScan && s.returned * 10 < s.scanned;
}

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

std::string ShapeText(const QueryShapeStats& s) {
  return s.shape.empty() ? std::string("(no $filter)") : "$filter=" + s.shape;
}

// A finding `id` about shape `s`, titled `title` + the shape, with the shape's evidence.
Finding Base(const TableUsage& usage, const QueryShapeStats& s, std::string id, Severity severity,
             std::string_view title) {
  Finding f;
  f.id = std::move(id);
  f.severity = severity;
  f.title = std::string(title) + ShapeText(s);
  f.account = usage.account;
  f.table = usage.table;
  f.evidence = fmt::format("{} {} of shape {} scanned {} entities and returned {}{}.", s.count,
                           s.count == 1 ? "query" : "queries", ShapeText(s), s.scanned, s.returned,
                           s.example.empty() ? "" : " (e.g. $filter=" + s.example + ")");
  f.facts = {TextFact("shape", s.shape),
             TextFact("example", s.example),
             TextFact("service_class", odata::ServiceClassName(s.service_class)),
             IntFact("queries", s.count),
             IntFact("scanned", s.scanned),
             IntFact("returned", s.returned)};
  return f;
}

// Azure: design guide "Design for querying" — without a PartitionKey condition the service
// scans every partition of the table.
Finding TableScan(const TableUsage& usage, const QueryShapeStats& s) {
  Finding f = Base(usage, s, "table-scan", Severity::kWarning, "Table scan in Azure: ");
  const std::vector<std::string> keys = EqualityProperties(s.example);
  if (keys.empty()) {
    f.pattern = "Design for querying (table scan)";
    f.recommendation =
        "Give the query a PartitionKey condition (PartitionKey eq, best with RowKey eq or a RowKey "
        "range): the service answers point and range queries from one partition, a table scan "
        "reads every partition and pays a transaction per page of 1,000 entities or 5 seconds.";
    f.guide = std::string(guide::kQuerying);
    return f;
  }
  f.pattern = "Inter-partition secondary index / index entities";
  f.facts.push_back(TextFact("looked_up_by", Join(keys)));
  f.recommendation = fmt::format(
      "The query looks entities up by {}: store a copy (or an index entity listing the keys) "
      "under a PartitionKey/RowKey made of that value, in this table or another one, so that "
      "the lookup becomes a point or range query; keep the copies consistent with an entity "
      "group transaction or the eventually consistent transactions pattern.",
      Join(keys));
  f.guide = guide::Pattern("inter-partition-secondary-index-pattern");
  return f;
}

// Azure: design guide — a partition scan reads the whole partition to apply the filter.
Finding PartitionScan(const TableUsage& usage, const QueryShapeStats& s) {
  Finding f = Base(usage, s, "partition-scan", Wasteful(s) ? Severity::kWarning : Severity::kInfo,
                   "Partition scan in Azure: ");
  const std::vector<std::string> keys = EqualityProperties(s.example);
  if (keys.empty()) {
    f.pattern = "Compound key";
    f.recommendation =
        "Narrow the query to a RowKey range: put what you filter on at the start of the RowKey "
        "(compound key pattern, e.g. RowKey '<kind>_<id>'), so the query reads only the entities "
        "it returns.";
    f.guide = guide::Pattern("compound-key-pattern");
    return f;
  }
  f.pattern = "Intra-partition secondary index";
  f.facts.push_back(TextFact("looked_up_by", Join(keys)));
  f.recommendation = fmt::format(
      "The query looks entities up by {} inside one partition: store each entity a second time "
      "in the same partition under a RowKey made of that value (e.g. '{}_<value>'), updated "
      "together in one entity group transaction, so the lookup becomes a point query.",
      Join(keys), keys.front());
  f.guide = guide::Pattern("intra-partition-secondary-index-pattern");
  return f;
}

Finding PartitionRange(const TableUsage& usage, const QueryShapeStats& s) {
  Finding f = Base(usage, s, "partition-range", Wasteful(s) ? Severity::kWarning : Severity::kInfo,
                   "Range over several partitions: ");
  f.pattern = "Design for querying (range over partitions)";
  f.recommendation =
      "A PartitionKey range is served partition by partition and may return continuation tokens "
      "at partition-server boundaries. Prefer PartitionKey eq with a RowKey range when the data "
      "read together can live in one partition.";
  f.guide = std::string(guide::kQuerying);
  return f;
}

// Azure: performance checklist "queries scan only rows they return".
Finding LargeScanSmallResult(const TableUsage& usage, const QueryShapeStats& s) {
  Finding f = Base(usage, s, "large-scan-small-result", Severity::kWarning,
                   "Queries read far more entities than they return: ");
  f.pattern = "Query efficiency (scanned vs returned)";
  f.recommendation =
      "Move the condition that discards most entities into the keys: a RowKey range (compound "
      "key) or a secondary index entity, so that the service reads only what it returns; every "
      "entity scanned counts toward the partition's 2,000 entities/s.";
  f.guide = std::string(guide::kChecklist);
  return f;
}

}  // namespace

void DetectQueryPatterns(const AdvisorInput& input, std::vector<Finding>& out) {
  for (const TableUsage& usage : input.tables) {
    for (const QueryShapeStats& s : usage.shapes) {
      switch (s.service_class) {
        case odata::ServiceClass::kTableScan:
          out.push_back(TableScan(usage, s));
          break;
        case odata::ServiceClass::kPartitionScan:
          out.push_back(PartitionScan(usage, s));
          break;
        case odata::ServiceClass::kPartitionRange:
          out.push_back(PartitionRange(usage, s));
          break;
        default:
          if (Wasteful(s)) out.push_back(LargeScanSmallResult(usage, s));
          break;
      }
    }
  }
}

}  // namespace malachite::server
