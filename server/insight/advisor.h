// The design advisor: names the patterns and anti-patterns of Azure's Table design guide (its
// design patterns, partitioning and performance checklist pages) that the observed traffic shows,
// each finding with its evidence (counts, keys, rates), the guide's recommendation and a link to
// its section; and, for a team moving from Azurite to the service, what the service does
// differently with the requests it saw (category kDiffersFromAzurite). Pure functions of a
// snapshot (usage_table.h, the throttle's partition rates): the detectors run off the request
// path, when /-/advisor is asked.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "server/insight/table_usage.h"
#include "server/traffic/throttle.h"

namespace malachite::server {

enum class Severity : std::uint8_t { kWarning, kInfo };

// What a finding is about: the design guide's patterns, or a request Azurite answers one way
// and the service (and Malachite) another.
enum class Category : std::uint8_t { kDesign, kDiffersFromAzurite };
// "design", "differs-from-azurite".
std::string_view CategoryName(Category category);

// One piece of evidence as a name and a JSON value (number or quoted string).
struct Fact {
  std::string name;
  std::string json;
};

struct Finding {
  std::string id;  // stable, for CI: "table-scan", "append-only", "hot-partition", ...
  Severity severity = Severity::kInfo;
  Category category = Category::kDesign;
  std::string pattern;  // the guide's name for it
  std::string account, table;
  std::string title;           // one line
  std::string evidence;        // what the advisor saw, in words
  std::vector<Fact> facts;     // the same, as numbers and keys
  std::string recommendation;  // what the guide recommends
  std::string guide;           // the public page (and section) of the guide
};

struct AdvisorInput {
  std::vector<TableUsage> tables;           // UsageTable::Snapshot()
  std::vector<PartitionReport> partitions;  // Throttle::Hottest()
  std::uint64_t partition_target = 2000;    // entities/s per partition (spec §12.1)
};

// Every finding, warnings first, then by account, table and id (a stable order).
std::vector<Finding> Advise(const AdvisorInput& input);

// {"findings":[{id, severity, category, pattern, account, table, title, evidence, facts:{...},
// recommendation, guide}], "summary":{"tables":n, "queries":{"point":n, ...}}}
std::string FindingsJson(const std::vector<Finding>& findings, const AdvisorInput& input);

// The detectors (detect_*.cc), each appending its findings.
void DetectPartitionPatterns(const AdvisorInput& input, std::vector<Finding>& out);
void DetectQueryPatterns(const AdvisorInput& input, std::vector<Finding>& out);
void DetectWritePatterns(const AdvisorInput& input, std::vector<Finding>& out);
// Category kDiffersFromAzurite: $filter literals of another type than the property
// (detect_filter_types.cc), values and requests the service refuses (detect_refusals.cc).
void DetectFilterTypes(const AdvisorInput& input, std::vector<Finding>& out);
void DetectRefusals(const AdvisorInput& input, std::vector<Finding>& out);

// Facts: an integer, a ratio (0..1, three decimals) and a string.
Fact IntFact(std::string name, std::uint64_t value);
Fact RatioFact(std::string name, double value);
Fact TextFact(std::string name, std::string_view value);

// Links to the guide's pages (learn.microsoft.com).
namespace guide {
inline constexpr std::string_view kPatterns =
    "https://learn.microsoft.com/azure/storage/tables/table-storage-design-patterns";
inline constexpr std::string_view kQuerying =
    "https://learn.microsoft.com/azure/storage/tables/table-storage-design-for-query";
inline constexpr std::string_view kModification =
    "https://learn.microsoft.com/azure/storage/tables/table-storage-design-for-modification";
inline constexpr std::string_view kPartitioning =
    "https://learn.microsoft.com/rest/api/storageservices/"
    "designing-a-scalable-partitioning-strategy-for-azure-table-storage";
inline constexpr std::string_view kChecklist =
    "https://learn.microsoft.com/azure/storage/tables/storage-performance-checklist";
// The REST reference pages the kDiffersFromAzurite findings cite.
inline constexpr std::string_view kQueryingEntities =
    "https://learn.microsoft.com/rest/api/storageservices/"
    "querying-tables-and-entities#constructing-filter-strings";
inline constexpr std::string_view kDataModel =
    "https://learn.microsoft.com/rest/api/storageservices/"
    "understanding-the-table-service-data-model";
inline constexpr std::string_view kBatch =
    "https://learn.microsoft.com/rest/api/storageservices/performing-entity-group-transactions";
inline constexpr std::string_view kServiceSas =
    "https://learn.microsoft.com/rest/api/storageservices/create-service-sas";
inline constexpr std::string_view kAccountSas =
    "https://learn.microsoft.com/rest/api/storageservices/create-account-sas";
// kPatterns + "#" + anchor.
std::string Pattern(std::string_view anchor);
}  // namespace guide

}  // namespace malachite::server
