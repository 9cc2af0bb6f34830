// Detectors over the writes: single writes that could be batches, entities near the limits,
// ETag conflicts on one entity, many single deletes.
#include <fmt/format.h>

#include <chrono>

#include "server/insight/advisor.h"

namespace malachite::server {
namespace {

constexpr std::uint64_t kConflictHotSpot = 3;
constexpr std::uint64_t kManyDeletes = 1000;

Finding For(const TableUsage& usage, std::string id, Severity severity, std::string pattern,
            std::string title) {
  Finding f;
  f.id = std::move(id);
  f.severity = severity;
  f.pattern = std::move(pattern);
  f.title = std::move(title);
  f.account = usage.account;
  f.table = usage.table;
  return f;
}

// Azure: performance checklist "batching" — writes to one partition can be one entity group
// transaction: one request, one billed transaction, up to 100 entities.
void DetectBatchable(const TableUsage& usage, std::vector<Finding>& out) {
  const WriteBursts& b = usage.bursts;
  if (b.bursts == 0) return;
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(b.max_run_time).count();
  Finding f = For(usage, "batchable-writes", Severity::kInfo,
                  "Batching updates with entity group transactions",
                  "Single-entity writes to one partition in quick succession could be batches");
  f.evidence = fmt::format(
      "{} runs of {} or more single-entity writes to one partition, each within {} ms of the "
      "previous; the longest: {} writes to partition '{}' in {} ms ({} single-entity writes in "
      "all).",
      b.bursts, kBurstLength, kBurstGap.count(), b.max_run, b.max_run_pk, ms, b.single_writes);
  f.facts = {IntFact("bursts", b.bursts), IntFact("longest_run", b.max_run),
             TextFact("longest_run_partition", b.max_run_pk), IntFact("longest_run_ms", ms),
             IntFact("single_writes", b.single_writes)};
  f.recommendation = fmt::format(
      "Send writes to the same partition as one entity group transaction ($batch: up to 100 "
      "operations and 4 MiB, atomic): the longest run would have been {} request(s) and as many "
      "billed transactions instead of {}.",
      (b.max_run + 99) / 100, b.max_run);
  f.guide = std::string(guide::kChecklist) + "#batch-transactions";
  out.push_back(std::move(f));
}

// Azure: spec §9.3 — entities up to 1 MiB and 252 custom properties.
void DetectLimits(const TableUsage& usage, std::vector<Finding>& out) {
  const EntityLimits& l = usage.limits;
  if (l.near_size > 0) {
    Finding f = For(usage, "near-size-limit", Severity::kWarning, "Large entities",
                    "Entities near the 1 MiB limit");
    f.evidence = fmt::format(
        "{} of {} written entities were at least 80% of 1 MiB (billable size); the largest, "
        "{} bytes, in partition '{}'.",
        l.near_size, l.writes, l.max_bytes, l.max_bytes_pk);
    f.facts = {IntFact("near_limit_writes", l.near_size), IntFact("writes", l.writes),
               IntFact("largest_entity_bytes", l.max_bytes), TextFact("partition", l.max_bytes_pk)};
    f.recommendation =
        "Keep large values in Blob storage and store the blob's name in the entity (large "
        "entities pattern), or split the value over several entities.";
    f.guide = guide::Pattern("large-entities-pattern");
    out.push_back(std::move(f));
  }
  if (l.near_properties > 0) {
    Finding f = For(usage, "near-property-limit", Severity::kWarning, "Wide entities",
                    "Entities near the 252-property limit");
    f.evidence = fmt::format(
        "{} of {} written entities had {} or more custom properties; the widest had {}, in "
        "partition '{}'.",
        l.near_properties, l.writes, kNearProperties, l.max_properties, l.max_properties_pk);
    f.facts = {IntFact("near_limit_writes", l.near_properties), IntFact("writes", l.writes),
               IntFact("most_properties", l.max_properties),
               TextFact("partition", l.max_properties_pk)};
    f.recommendation =
        "Split the logical entity over several entities of one partition (wide entities "
        "pattern), written together in one entity group transaction.";
    f.guide = guide::Pattern("wide-entities-pattern");
    out.push_back(std::move(f));
  }
}

// Azure: spec §4.6 — a write whose If-Match is stale gets 412; many on one entity mean writers
// keep racing for it.
void DetectEtagHotSpot(const TableUsage& usage, std::vector<Finding>& out) {
  const EtagConflict* worst = nullptr;
  for (const EtagConflict& c : usage.conflicts) {
    if (worst == nullptr || c.count > worst->count) worst = &c;
  }
  if (worst == nullptr || worst->count < kConflictHotSpot) return;
  Finding f = For(usage, "etag-hot-spot", Severity::kWarning, "Optimistic concurrency hot spot",
                  "Frequent 412 ETag conflicts on one entity");
  f.evidence = fmt::format(
      "{} writes to entity (PartitionKey '{}', RowKey '{}') failed with 412 "
      "UpdateConditionNotSatisfied ({} conflicts in the table).",
      worst->count, worst->partition_key, worst->row_key, usage.conflict_total);
  f.facts = {TextFact("partition", worst->partition_key), TextFact("row", worst->row_key),
             IntFact("conflicts", worst->count), IntFact("table_conflicts", usage.conflict_total)};
  f.recommendation =
      "Many writers update the same entity: split it (one entity per writer, combined when "
      "read), let writers Merge disjoint properties, or funnel the updates through a queue; "
      "retry a 412 only after reading the entity again.";
  f.guide = std::string(guide::kModification);
  out.push_back(std::move(f));
}

// Azure: design guide, high-volume delete pattern.
void DetectManyDeletes(const TableUsage& usage, std::vector<Finding>& out) {
  if (usage.single_deletes < kManyDeletes) return;
  Finding f = For(usage, "high-volume-delete", Severity::kInfo, "High volume delete",
                  "Many single-entity deletes");
  f.evidence = fmt::format("{} Delete Entity requests in this table.", usage.single_deletes);
  f.facts = {IntFact("deletes", usage.single_deletes)};
  f.recommendation =
      "When entities expire together (e.g. by date), keep each period in its own table and "
      "delete the whole table at once: one transaction instead of one per entity.";
  f.guide = guide::Pattern("high-volume-delete-pattern");
  out.push_back(std::move(f));
}

}  // namespace

void DetectWritePatterns(const AdvisorInput& input, std::vector<Finding>& out) {
  for (const TableUsage& usage : input.tables) {
    DetectBatchable(usage, out);
    DetectLimits(usage, out);
    DetectEtagHotSpot(usage, out);
    DetectManyDeletes(usage, out);
  }
}

}  // namespace malachite::server
