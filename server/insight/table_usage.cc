#include "server/insight/table_usage.h"

#include <algorithm>

#include "common/refusal.h"
#include "server/insight/query_shape.h"

namespace malachite::server {
namespace {

bool Succeeded(const RequestFacts& facts) { return facts.status >= 200 && facts.status < 300; }

// Wasteful or scanning queries get a shape; point and range queries that return what they read
// are only counted by class.
bool WorthAShape(const QueryStats& query) {
  const odata::ServiceClass cls = *query.service_class;
  const bool scans = cls == odata::ServiceClass::kPartitionScan ||
                     cls == odata::ServiceClass::kPartitionRange ||
                     cls == odata::ServiceClass::kTableScan;
  return scans || (query.scanned >= 100 && query.returned * 10 < query.scanned);
}

// The index of the shape of `filter` in usage.shapes (added when new), or SIZE_MAX when the
// table already keeps kMaxShapes others.
std::size_t ShapeIndex(TableUsage& usage, std::string_view filter, odata::ServiceClass cls) {
  if (usage.last_shape < usage.shapes.size() && usage.last_filter == filter &&
      usage.shapes[usage.last_shape].service_class == cls) {
    return usage.last_shape;
  }
  std::string shape = QueryShape(filter);
  auto it = std::find_if(usage.shapes.begin(), usage.shapes.end(), [&](const QueryShapeStats& s) {
    return s.service_class == cls && s.shape == shape;
  });
  if (it == usage.shapes.end()) {
    if (usage.shapes.size() >= kMaxShapes) return SIZE_MAX;
    it = usage.shapes.insert(
        usage.shapes.end(),
        QueryShapeStats{cls, std::move(shape), std::string(filter.substr(0, kMaxExample))});
  }
  usage.last_filter.assign(filter);
  usage.last_shape = static_cast<std::size_t>(it - usage.shapes.begin());
  return usage.last_shape;
}

void ObserveQuery(TableUsage& usage, const RequestFacts& facts) {
  const QueryStats& query = *facts.query;
  usage.queries[static_cast<std::size_t>(*query.service_class)]++;
  usage.scanned += query.scanned;
  usage.returned += query.returned;
  if (facts.op != Operation::kQueryEntities || !WorthAShape(query)) return;
  const std::size_t index = ShapeIndex(usage, facts.filter, *query.service_class);
  if (index == SIZE_MAX) return;
  QueryShapeStats& stats = usage.shapes[index];
  stats.count++;
  stats.scanned += query.scanned;
  stats.returned += query.returned;
}

// True when `pk` was seen before (as far as the direct-mapped table remembers); remembers it.
bool SeenBefore(InsertTrend& trend, std::string_view pk) {
  if (trend.recent.empty()) trend.recent.assign(InsertTrend::kRecentKeys, 0);
  // 0 marks an empty slot.
  const std::uint64_t hash = std::hash<std::string_view>{}(pk) | 1;
  std::uint64_t& slot = trend.recent[hash % InsertTrend::kRecentKeys];
  const bool seen = slot == hash;
  slot = hash;
  return seen;
}

// Azure: design guide, prepend/append anti-pattern — inserts whose PartitionKeys keep moving to
// new, greater values land on the newest partition only.
void ObserveInsert(InsertTrend& trend, std::string_view pk, std::uint64_t entities) {
  trend.inserts += entities;
  if (!trend.seen) {
    trend.seen = true;
    trend.last_pk = pk;
    SeenBefore(trend, pk);
    return;
  }
  if (pk == trend.last_pk) return;
  (pk > trend.last_pk ? trend.up : trend.down)++;
  if (SeenBefore(trend, pk)) trend.revisits++;
  trend.last_pk = pk;
}

void ObserveSingleWrite(WriteBursts& bursts, std::string_view pk,
                        std::chrono::steady_clock::time_point at) {
  bursts.single_writes++;
  const bool continues = bursts.run > 0 && pk == bursts.last_pk && at - bursts.last_at <= kBurstGap;
  if (continues) {
    bursts.run++;
  } else {
    bursts.run = 1;
    bursts.run_start = at;
    bursts.last_pk = pk;
  }
  bursts.last_at = at;
  if (bursts.run == kBurstLength) bursts.bursts++;
  if (bursts.run > bursts.max_run) {
    bursts.max_run = bursts.run;
    if (bursts.max_run_pk != pk) bursts.max_run_pk = pk;
    bursts.max_run_time = at - bursts.run_start;
  }
}

void ObserveLimits(EntityLimits& limits, const WriteStats& write, std::string_view pk) {
  limits.writes++;
  if (write.largest_entity_bytes >= kNearSizeBytes) limits.near_size++;
  if (write.most_properties >= kNearProperties) limits.near_properties++;
  if (write.largest_entity_bytes > limits.max_bytes) {
    limits.max_bytes = write.largest_entity_bytes;
    limits.max_bytes_pk = pk;
  }
  if (write.most_properties > limits.max_properties) {
    limits.max_properties = write.most_properties;
    limits.max_properties_pk = pk;
  }
}

void ObserveConflict(TableUsage& usage, const RequestFacts& facts) {
  usage.conflict_total++;
  auto it = std::find_if(usage.conflicts.begin(), usage.conflicts.end(), [&](const auto& c) {
    return c.partition_key == facts.partition_key && c.row_key == facts.row_key;
  });
  if (it != usage.conflicts.end()) {
    it->count++;
  } else if (usage.conflicts.size() < kMaxConflicts) {
    usage.conflicts.push_back(
        EtagConflict{std::string(facts.partition_key), std::string(facts.row_key), 1});
  }
}

// Azure: spec §6.2 — a comparison of mismatched types matches on the operator alone; the
// $filter that made it is kept (once) for the advisor to name the property and fix the literal.
void ObserveMismatch(TableUsage& usage, std::string_view filter, const odata::TypeMismatch& m) {
  auto it = std::find_if(usage.mismatches.begin(), usage.mismatches.end(), [&](const auto& s) {
    return s.mismatch.literal_offset == m.literal_offset && s.mismatch.stored == m.stored &&
           s.mismatch.literal == m.literal && s.filter == filter;
  });
  if (it != usage.mismatches.end()) {
    it->count++;
  } else if (usage.mismatches.size() < kMaxMismatches && filter.size() <= kMaxExample) {
    usage.mismatches.push_back(TypeMismatchStats{std::string(filter), m, 1});
  }
}

// "GET /devstoreaccount1/orders()?sp=r&sig" with the value of a SAS's `sig` left out (it would
// let anyone who reads the advisor replay the token), cut at kMaxExample bytes.
std::string ExampleRequest(std::string_view method, std::string_view target) {
  std::string out(method);
  out += ' ';
  const std::size_t sig = std::min(target.find("?sig="), target.find("&sig="));
  if (sig == std::string_view::npos) {
    out += target;
  } else {
    out += target.substr(0, sig + 4);
    const std::size_t next = target.find('&', sig + 5);
    if (next != std::string_view::npos) out += target.substr(next);
  }
  if (out.size() > kMaxExample) out.resize(kMaxExample);
  return out;
}

void ObserveRefusal(TableUsage& usage, const RequestFacts& facts) {
  const ErrorCode code = facts.refusal != nullptr ? facts.refusal->code : *facts.error;
  const std::string_view detail =
      facts.refusal != nullptr ? std::string_view(facts.refusal->detail) : std::string_view();
  const std::optional<RefusalClass> cls = ClassifyRefusal(code, detail);
  if (!cls) return;
  RefusalStats& stats = usage.refusals[static_cast<std::size_t>(*cls)];
  if (stats.count++ > 0) return;
  stats.code = code;
  stats.op = *facts.op;
  stats.request = ExampleRequest(facts.method, facts.target);
  stats.detail = detail.substr(0, kMaxExample);
}

bool IsInsertLike(Operation op) {
  return op == Operation::kInsertEntity || op == Operation::kInsertOrReplaceEntity ||
         op == Operation::kInsertOrMergeEntity || op == Operation::kBatch;
}

}  // namespace

std::optional<RefusalClass> ClassifyRefusal(ErrorCode code, std::string_view detail) {
  switch (code) {
    case ErrorCode::kPropertyValueTooLarge:
      return RefusalClass::kPropertyValueTooLarge;
    case ErrorCode::kEntityTooLarge:
      return RefusalClass::kEntityTooLarge;
    case ErrorCode::kTooManyProperties:
      return RefusalClass::kTooManyProperties;
    case ErrorCode::kRequestBodyTooLarge:
      return RefusalClass::kRequestBodyTooLarge;
    case ErrorCode::kAuthorizationPermissionMismatch:
      return RefusalClass::kSasPermission;
    case ErrorCode::kAuthorizationResourceTypeMismatch:
      return RefusalClass::kSasResourceType;
    default:
      break;
  }
  switch (RefusalOf(detail)) {
    case Refusal::kDateTimeRange:
      return RefusalClass::kDateTimeRange;
    case Refusal::kInt32Range:
      return RefusalClass::kInt32Range;
    case Refusal::kInt64Range:
      return RefusalClass::kInt64Range;
    case Refusal::kDoubleRange:
      return RefusalClass::kDoubleRange;
    case Refusal::kKeyCharacter:
      return RefusalClass::kKeyCharacter;
    case Refusal::kBatchOperations:
      return RefusalClass::kBatchOperations;
    case Refusal::kSasKeyRange:
      return RefusalClass::kSasKeyRange;
    default:
      return std::nullopt;
  }
}

void Observe(TableUsage& usage, const RequestFacts& facts, bool billable) {
  const Operation op = *facts.op;
  const auto index = static_cast<std::size_t>(op);
  if (billable) usage.transactions[index]++;
  usage.requests[index]++;
  if (facts.error == ErrorCode::kUpdateConditionNotSatisfied && TraitsOf(op).writes_entity) {
    ObserveConflict(usage, facts);
  }
  if (facts.error || facts.refusal != nullptr) ObserveRefusal(usage, facts);
  if (!Succeeded(facts)) return;
  if (facts.query != nullptr && facts.query->service_class) ObserveQuery(usage, facts);
  if (facts.query != nullptr && facts.query->type_mismatch && op == Operation::kQueryEntities) {
    ObserveMismatch(usage, facts.filter, *facts.query->type_mismatch);
  }
  if (IsInsertLike(op) && facts.write != nullptr) {
    ObserveInsert(usage.inserts, facts.partition_key, facts.entities);
  }
  if (TraitsOf(op).writes_entity) {
    ObserveSingleWrite(usage.bursts, facts.partition_key, facts.at);
    if (op == Operation::kDeleteEntity) usage.single_deletes++;
  }
  if (facts.write != nullptr) ObserveLimits(usage.limits, *facts.write, facts.partition_key);
}

void ResetObservations(TableUsage& usage) {
  TableUsage fresh;
  fresh.account = std::move(usage.account);
  fresh.table = std::move(usage.table);
  fresh.transactions = usage.transactions;
  usage = std::move(fresh);
}

}  // namespace malachite::server
