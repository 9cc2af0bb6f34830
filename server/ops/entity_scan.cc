#include "server/ops/entity_scan.h"

#include <utility>

namespace malachite::server {
namespace {

// The clock is read once every kBudgetStride examined entities, to keep it off the hot path
// (a scan examines millions of entities per second, a clock read costs ~20 ns).
constexpr std::uint64_t kBudgetStride = 256;

// Fills one page: examines entities in key order until the page is full or the budget is spent;
// the entity seen then is the continuation.
class PageBuilder {
 public:
  PageBuilder(const odata::ScanPlan& plan, const ScanLimits& limits,
              FunctionRef<void(const EntityJsonSource&)> on_match, EntityPage& page)
      : plan_(plan), limits_(limits), on_match_(on_match), page_(page) {}

  // False once the page is complete (then page.next names this entity).
  bool Visit(const storage::EntityView& entity) {
    // The keys are read only to end the page: a non-key filter never decodes them.
    if (Stop()) {
      page_.next =
          KeyBound{std::string(entity.partition_key()), std::string(entity.row_key()), true};
      return false;
    }
    if (plan_.Matches(entity)) {  // the view reads properties in place
      ++page_.matched;
      on_match_(StoredEntityJson(entity));
    }
    // Only the first entities, and only until one mismatch is found: a scan of millions pays
    // one comparison of a counter per entity.
    if (page_.scanned <= kTypeSamples && !page_.type_mismatch && plan_.residual() != nullptr) {
      page_.type_mismatch = odata::FindTypeMismatch(plan_.residual()->root(), &entity);
    }
    return true;
  }

 private:
  // True when the page ends before the entity at hand (the caller records it as the
  // continuation); otherwise counts it as examined.
  bool Stop() {
    // Azure: spec §6.5 — a full page, or a spent budget, ends the page; the continuation is the
    // first entity not examined, so every entity is examined on exactly one page.
    const bool full = page_.matched >= limits_.top;
    const bool late = page_.scanned > 0 && page_.scanned % kBudgetStride == 0 &&
                      std::chrono::steady_clock::now() > limits_.deadline;
    if (full || late) return true;
    ++page_.scanned;
    return false;
  }

  const odata::ScanPlan& plan_;
  const ScanLimits& limits_;
  FunctionRef<void(const EntityJsonSource&)> on_match_;
  EntityPage& page_;
};

}  // namespace

Result<EntityPage> ScanPage(storage::ReadView& view, const storage::TableInfo& table,
                            const odata::ScanPlan& plan, const std::optional<KeyBound>& start,
                            const ScanLimits& limits,
                            FunctionRef<void(const EntityJsonSource&)> on_match,
                            const KeyRange* within) {
  std::vector<KeyRange> clipped;
  if (start) clipped = plan.RangesFrom(start->partition_key, start->row_key);
  if (within) clipped = IntersectRanges(start ? clipped : plan.ranges(), *within);
  const std::vector<KeyRange>& ranges = start || within ? clipped : plan.ranges();

  EntityPage page;
  PageBuilder builder(plan, limits, on_match, page);
  for (const KeyRange& range : ranges) {
    if (range.IsPoint()) {
      // A single key: one B-tree lookup instead of a cursor.
      bool more = true;
      auto found = view.VisitEntity(
          table, range.lower->partition_key, *range.lower->row_key,
          [&](const storage::EntityView& entity) { more = builder.Visit(entity); });
      if (!found) return tl::unexpected(found.error());
      if (!more) break;
      continue;
    }
    bool stopped = false;
    auto scanned = view.ScanEntities(table, range, [&](const storage::EntityView& entity) {
      stopped = !builder.Visit(entity);
      return !stopped;
    });
    if (!scanned) return tl::unexpected(scanned.error());
    if (stopped) break;
  }
  return page;
}

}  // namespace malachite::server
