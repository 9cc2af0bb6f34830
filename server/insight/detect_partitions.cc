// Detectors over where the writes go: the prepend/append anti-pattern and hot partitions.
#include <fmt/format.h>

#include <algorithm>

#include "server/insight/advisor.h"

namespace malachite::server {
namespace {

constexpr std::uint64_t kMinInserts = 100;
constexpr std::uint64_t kMinKeyChanges = 3;
constexpr double kMonotonicShare = 0.9;
constexpr double kMaxRevisitShare = 0.1;
constexpr double kHotShareOfTarget = 0.5;

double Share(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0 : static_cast<double>(part) / static_cast<double>(whole);
}

// Azure: design guide, prepend/append anti-pattern — PartitionKeys that only grow (timestamps,
// increasing ids) send every insert to the newest partition, one server at 2,000 entities/s.
// A round robin over the same keys also moves up most of the time, but comes back to keys it
// has seen: that is spread load, not an append.
void DetectAppend(const TableUsage& usage, std::vector<Finding>& out) {
  const InsertTrend& t = usage.inserts;
  const std::uint64_t changes = t.up + t.down;
  if (t.inserts < kMinInserts || changes < kMinKeyChanges) return;
  if (Share(t.revisits, changes) > kMaxRevisitShare) return;
  const bool append = Share(t.up, changes) >= kMonotonicShare;
  const bool prepend = Share(t.down, changes) >= kMonotonicShare;
  if (!append && !prepend) return;
  Finding f;
  f.id = append ? "append-only" : "prepend-only";
  f.severity = Severity::kWarning;
  f.pattern = "Prepend/append anti-pattern";
  f.account = usage.account;
  f.table = usage.table;
  f.title = fmt::format("Inserts always go to the {} PartitionKey: one hot partition at a time",
                        append ? "newest (greatest)" : "smallest");
  f.evidence = fmt::format(
      "{} entities inserted; the PartitionKey changed {} times, {} of them to a {} key and only "
      "{} back to a key seen before: each insert goes to the {} PartitionKey so far (now '{}'). "
      "The service serves that end of the key range from one partition server, limited to "
      "about 2,000 entities/s, while the others idle.",
      t.inserts, changes, append ? t.up : t.down, append ? "greater" : "smaller", t.revisits,
      append ? "newest" : "smallest", t.last_pk);
  f.facts = {IntFact("inserts", t.inserts), IntFact("key_changes", changes),
             IntFact(append ? "increasing_changes" : "decreasing_changes", append ? t.up : t.down),
             IntFact("revisited_keys", t.revisits), TextFact("current_partition", t.last_pk)};
  f.recommendation =
      "Spread the inserts over many partitions: prefix the time-ordered key with a hash or a "
      "bucket number (e.g. '<hash % N>_<timestamp>') and query the N buckets in parallel. For "
      "log-like data written in time order and rarely read, consider Blob storage (log data "
      "anti-pattern).";
  f.guide = guide::Pattern("prepend-append-anti-pattern");
  out.push_back(std::move(f));
}

bool IsHot(const PartitionReport& p, std::uint64_t target) {
  return Share(p.peak, target) >= kHotShareOfTarget || p.throttled > 0;
}

// Azure: scalable partitioning strategy — one partition is served by one server at about
// 2,000 entities/s; a partition near or over it is throttled (503 ServerBusy) under load. One
// finding per table: its hottest partition, and how many others ran hot too.
void DetectHotPartitions(const std::vector<const PartitionReport*>& hot, std::uint64_t target,
                         std::vector<Finding>& out) {
  const PartitionReport& p = **std::max_element(hot.begin(), hot.end(),
                                                [](auto* a, auto* b) { return a->peak < b->peak; });
  std::uint64_t throttled = 0;
  for (const PartitionReport* h : hot) throttled += h->throttled;
  const double peak_share = Share(p.peak, target);
  Finding f;
  f.id = "hot-partition";
  f.severity = peak_share >= 1.0 || throttled > 0 ? Severity::kWarning : Severity::kInfo;
  f.pattern = "Scalable partitioning strategy (hot partition)";
  f.account = p.account;
  f.table = p.table;
  f.title = fmt::format("Partition '{}' runs {} the {} entities/s target", p.partition_key,
                        peak_share >= 1.0 ? "over" : "near", target);
  f.evidence = fmt::format(
      "Partition '{}' peaked at {} entities/s ({:.0f}% of the {}/s per-partition target), now "
      "{:.0f}/s; {} entities counted while tracked; {} requests throttled.",
      p.partition_key, p.peak, 100 * peak_share, target, p.rate, p.total, p.throttled);
  if (hot.size() > 1) {
    f.evidence += fmt::format(
        " {} other partitions of this table peaked above half the target "
        "({} requests throttled in all).",
        hot.size() - 1, throttled);
  }
  f.facts = {TextFact("partition", p.partition_key),
             IntFact("peak_entities_per_second", p.peak),
             IntFact("target_entities_per_second", target),
             RatioFact("peak_share_of_target", peak_share),
             IntFact("entities", p.total),
             IntFact("throttled_requests", throttled),
             IntFact("hot_partitions", hot.size())};
  f.recommendation =
      "Spread the load over more PartitionKey values (hash prefixes, bucketing) so that no single "
      "partition approaches the target, and load-test a partition at its expected peak: the real "
      "service answers 503 ServerBusy over the target and may move the partition (a few seconds "
      "of 503/500 OperationTimedOut).";
  f.guide = std::string(guide::kPartitioning);
  out.push_back(std::move(f));
}

}  // namespace

void DetectPartitionPatterns(const AdvisorInput& input, std::vector<Finding>& out) {
  for (const TableUsage& usage : input.tables) DetectAppend(usage, out);
  // The hot partitions, grouped by table in order of first appearance.
  std::vector<std::vector<const PartitionReport*>> tables;
  for (const PartitionReport& p : input.partitions) {
    if (!IsHot(p, input.partition_target)) continue;
    auto it = std::find_if(tables.begin(), tables.end(), [&](const auto& group) {
      return group.front()->account == p.account && group.front()->table == p.table;
    });
    if (it == tables.end()) it = tables.emplace(tables.end());
    it->push_back(&p);
  }
  for (const auto& hot : tables) DetectHotPartitions(hot, input.partition_target, out);
}

}  // namespace malachite::server
