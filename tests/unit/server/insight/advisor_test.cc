// The design advisor's detectors (server/insight/detect_*.cc): each fed the observations of a
// request sequence (Observe, as the pipeline records them) and checked on the findings it names.
#include "server/insight/advisor.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "server/insight/usage_table.h"

namespace malachite::server {
namespace {

using Clock = std::chrono::steady_clock;
const Clock::time_point kT0{};

// Observations of one table, fed request by request.
class Table {
 public:
  Table() {
    usage_.account = "devstoreaccount1";
    usage_.table = "orders";
  }

  void Insert(std::string_view pk, Clock::time_point at = kT0, std::uint64_t entities = 1) {
    RequestFacts facts = Facts(Operation::kInsertEntity, 201);
    facts.partition_key = pk;
    facts.entities = entities;
    facts.at = at;
    const WriteStats stats{100, 3};
    facts.write = &stats;
    Observe(usage_, facts, true);
  }

  void Query(odata::ServiceClass cls, std::string_view filter, std::uint64_t scanned,
             std::uint64_t returned) {
    RequestFacts facts = Facts(Operation::kQueryEntities, 200);
    const QueryStats stats{scanned, returned, cls};
    facts.query = &stats;
    facts.filter = filter;
    Observe(usage_, facts, true);
  }

  void Write(WriteStats stats, std::string_view pk = "p") {
    RequestFacts facts = Facts(Operation::kInsertOrReplaceEntity, 204);
    facts.partition_key = pk;
    facts.write = &stats;
    Observe(usage_, facts, true);
  }

  void Conflict(std::string_view pk, std::string_view rk) {
    RequestFacts facts = Facts(Operation::kUpdateEntity, 412);
    facts.error = ErrorCode::kUpdateConditionNotSatisfied;
    facts.partition_key = pk;
    facts.row_key = rk;
    Observe(usage_, facts, true);
  }

  // "<id>:<severity>" of every finding, in Advise's order.
  std::string Ids(std::vector<PartitionReport> partitions = {}) const {
    std::string out;
    for (const Finding& f : Findings(std::move(partitions))) {
      out += (out.empty() ? "" : " ") + f.id + ":" +
             (f.severity == Severity::kWarning ? "warning" : "info");
    }
    return out;
  }

  std::vector<Finding> Findings(std::vector<PartitionReport> partitions = {}) const {
    return Advise(AdvisorInput{{usage_}, std::move(partitions), 2000});
  }

  const TableUsage& usage() const { return usage_; }

 private:
  RequestFacts Facts(Operation op, int status) const {
    RequestFacts facts;
    facts.op = op;
    facts.account = usage_.account;
    facts.table = usage_.table;
    facts.status = status;
    return facts;
  }

  TableUsage usage_;
};

std::string FactOf(const Finding& f, std::string_view name) {
  for (const auto& fact : f.facts) {
    if (fact.name == name) return fact.json;
  }
  return "(none)";
}

}  // namespace

TEST_CASE("advisor: inserts into ever newer PartitionKeys are the append anti-pattern",
          "[advisor]") {
  Table t;
  // Time-bucketed keys: 30 inserts per bucket, 10 buckets, after one older outlier (a second
  // apart, so that they are no burst of batchable writes).
  t.Insert("p1");
  for (int i = 0; i < 300; ++i) {
    t.Insert(fmt::format("2026-11-24T03:{:02}", i / 30), kT0 + std::chrono::seconds(i + 1));
  }
  const auto findings = t.Findings();
  REQUIRE(t.Ids() == "append-only:warning");
  const Finding& f = findings.front();
  CHECK(f.pattern == "Prepend/append anti-pattern");
  CHECK(f.guide ==
        "https://learn.microsoft.com/azure/storage/tables/"
        "table-storage-design-patterns#prepend-append-anti-pattern");
  CHECK(f.evidence ==
        "301 entities inserted; the PartitionKey changed 10 times, 9 of them to a greater key and "
        "only 0 back to a key seen before: each insert goes to the newest PartitionKey so far (now "
        "'2026-11-24T03:09'). The service serves that end of the key range from one partition "
        "server, limited to about 2,000 entities/s, while the others idle.");
}

TEST_CASE("advisor: decreasing keys are the prepend anti-pattern, a round robin is neither",
          "[advisor]") {
  Table prepend;
  for (int i = 0; i < 200; ++i) prepend.Insert(fmt::format("{:08}", 99999999 - i));
  CHECK(prepend.Ids() == "prepend-only:warning");

  Table round_robin;
  for (int i = 0; i < 300; ++i) round_robin.Insert(fmt::format("p{}", i % 10));
  CHECK(round_robin.Ids() == "");

  Table few;  // too few inserts to tell
  for (int i = 0; i < 50; ++i) few.Insert(fmt::format("{:04}", i));
  CHECK(few.Ids() == "");
}

TEST_CASE("advisor: a table scan names the index patterns for the property it looks up",
          "[advisor]") {
  Table t;
  t.Query(odata::ServiceClass::kTableScan, "Email eq 'a@example.com'", 5000, 1);
  t.Query(odata::ServiceClass::kTableScan, "Email eq 'b@example.com'", 5000, 1);
  t.Query(odata::ServiceClass::kPoint, "PartitionKey eq 'p' and RowKey eq 'r'", 1, 1);
  const auto findings = t.Findings();
  REQUIRE(t.Ids() == "table-scan:warning");
  const Finding& f = findings.front();
  CHECK(f.title == "Table scan in Azure: $filter=Email eq ?");
  CHECK(f.evidence ==
        "2 queries of shape $filter=Email eq ? scanned 10000 entities and returned 2 (e.g. "
        "$filter=Email eq 'a@example.com').");
  CHECK(FactOf(f, "looked_up_by") == "\"Email\"");
  CHECK(f.pattern == "Inter-partition secondary index / index entities");
  CHECK(f.guide.ends_with("#inter-partition-secondary-index-pattern"));
}

TEST_CASE("advisor: a table scan without a lookup asks for a PartitionKey condition", "[advisor]") {
  Table t;
  t.Query(odata::ServiceClass::kTableScan, "", 1000, 1000);
  const auto findings = t.Findings();
  REQUIRE(t.Ids() == "table-scan:warning");
  CHECK(findings.front().title == "Table scan in Azure: (no $filter)");
  CHECK(findings.front().guide ==
        "https://learn.microsoft.com/azure/storage/tables/table-storage-design-for-query");
}

TEST_CASE("advisor: partition scans suggest an intra-partition index or a compound key",
          "[advisor]") {
  Table lookup;
  lookup.Query(odata::ServiceClass::kPartitionScan, "PartitionKey eq 'dept' and Name eq 'x'", 2000,
               1);
  auto findings = lookup.Findings();
  REQUIRE(lookup.Ids() == "partition-scan:warning");  // wasteful: 2,000 read for 1
  CHECK(findings.front().guide.ends_with("#intra-partition-secondary-index-pattern"));
  CHECK(FactOf(findings.front(), "looked_up_by") == "\"Name\"");

  Table range;
  range.Query(odata::ServiceClass::kPartitionScan, "PartitionKey eq 'dept' and Age gt 30", 10, 8);
  findings = range.Findings();
  REQUIRE(range.Ids() == "partition-scan:info");
  CHECK(findings.front().guide.ends_with("#compound-key-pattern"));
}

TEST_CASE("advisor: range queries that read far more than they return are named", "[advisor]") {
  Table t;
  for (int i = 0; i < 3; ++i) {
    t.Query(odata::ServiceClass::kRowRange,
            "PartitionKey eq 'p' and RowKey ge 'a' and RowKey lt 'z' and Qty eq 5", 1000, 3);
  }
  t.Query(odata::ServiceClass::kRowRange, "PartitionKey eq 'p' and RowKey ge 'a'", 50, 50);
  const auto findings = t.Findings();
  REQUIRE(t.Ids() == "large-scan-small-result:warning");
  CHECK(FactOf(findings.front(), "scanned") == "3000");
  CHECK(FactOf(findings.front(), "returned") == "9");
}

TEST_CASE("advisor: single writes to one partition in quick succession could be batches",
          "[advisor]") {
  Table burst;
  for (int i = 0; i < 25; ++i) burst.Insert("p", kT0 + std::chrono::milliseconds(5 * i));
  auto findings = burst.Findings();
  REQUIRE(burst.Ids() == "batchable-writes:info");
  CHECK(findings.front().evidence ==
        "1 runs of 10 or more single-entity writes to one partition, each within 200 ms of the "
        "previous; the longest: 25 writes to partition 'p' in 120 ms (25 single-entity writes in "
        "all).");

  Table slow;  // a write every half second is no burst
  for (int i = 0; i < 25; ++i) slow.Insert("p", kT0 + std::chrono::milliseconds(500 * i));
  CHECK(slow.Ids() == "");
  Table spread;  // alternating partitions never run
  for (int i = 0; i < 25; ++i) spread.Insert(i % 2 ? "a" : "b", kT0 + std::chrono::milliseconds(i));
  CHECK(spread.Ids() == "");
}

TEST_CASE("advisor: entities near 1 MiB or 252 properties point at the large/wide patterns",
          "[advisor]") {
  Table t;
  t.Write(WriteStats{900 * 1024, 3}, "big");
  t.Write(WriteStats{2000, 240}, "wide");
  t.Write(WriteStats{2000, 10}, "small");
  const auto findings = t.Findings();
  REQUIRE(t.Ids() == "near-property-limit:warning near-size-limit:warning");
  CHECK(findings[0].evidence ==
        "1 of 3 written entities had 200 or more custom properties; the widest had 240, in "
        "partition 'wide'.");
  CHECK(findings[1].evidence ==
        "1 of 3 written entities were at least 80% of 1 MiB (billable size); the largest, "
        "921600 bytes, in partition 'big'.");
}

TEST_CASE("advisor: repeated 412s on one entity are an ETag hot spot", "[advisor]") {
  Table t;
  t.Conflict("p", "counter");
  t.Conflict("p", "other");
  CHECK(t.Ids() == "");
  t.Conflict("p", "counter");
  t.Conflict("p", "counter");
  const auto findings = t.Findings();
  REQUIRE(t.Ids() == "etag-hot-spot:warning");
  CHECK(findings.front().evidence ==
        "3 writes to entity (PartitionKey 'p', RowKey 'counter') failed with 412 "
        "UpdateConditionNotSatisfied (4 conflicts in the table).");
}

TEST_CASE("advisor: a partition near or over the 2,000 entities/s target is hot", "[advisor]") {
  Table t;
  PartitionReport near{"devstoreaccount1", "orders", "p7", 1200.0, 1500, 9000, 0, false};
  PartitionReport over{"devstoreaccount1", "orders", "p9", 2100.0, 2400, 9000, 12, false};
  PartitionReport calm{"devstoreaccount1", "orders", "p1", 100.0, 300, 900, 0, false};
  CHECK(t.Ids({near, calm}) == "hot-partition:info");
  const auto findings = t.Findings({over});
  REQUIRE(t.Ids({over}) == "hot-partition:warning");
  CHECK(findings.front().evidence ==
        "Partition 'p9' peaked at 2400 entities/s (120% of the 2000/s per-partition target), now "
        "2100/s; 9000 entities counted while tracked; 12 requests throttled.");
  // One finding per table, led by its hottest partition.
  PartitionReport elsewhere{"devstoreaccount1", "logs", "x", 1100.0, 1100, 900, 0, false};
  CHECK(t.Ids({near, over, calm, elsewhere}) == "hot-partition:warning hot-partition:info");
  CHECK(t.Findings({near, over, calm})
            .front()
            .evidence.ends_with(" 1 other partitions of this table peaked above half the target "
                                "(12 requests throttled in "
                                "all)."));
}

TEST_CASE("advisor: findings as JSON for CI, with the query classes seen", "[advisor]") {
  Table t;
  t.Query(odata::ServiceClass::kTableScan, "Qty eq 7", 10, 1);
  const AdvisorInput input{{t.usage()}, {}, 2000};
  const std::string json = FindingsJson(Advise(input), input);
  CHECK(json.starts_with("{\"findings\":[{\"id\":\"table-scan\",\"severity\":\"warning\","));
  CHECK(json.ends_with(
      "\"summary\":{\"tables\":1,\"queries\":{\"point\":0,\"row-range\":0,\"partition-scan\":0,"
      "\"partition-range\":0,\"table-scan\":1}}}\n"));
}

}  // namespace malachite::server
