// Query Entities (spec §4.11, §6) and the query options every entity read shares ($filter,
// $select, continuation tokens). Reads use one short-lived storage::ReadView inside the call
// (ARCHITECTURE.md rule 2).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/entity.h"
#include "odata/filter.h"
#include "server/ops/entity_scan.h"
#include "server/ops/handler.h"
#include "server/wire/entity_json_parse.h"
#include "server/wire/entity_json_render.h"
#include "server/wire/select.h"

namespace malachite::server {

// Azure: spec §4.11, §6.5 — one page of entities in (PartitionKey, RowKey) order starting at the
// NextPartitionKey/NextRowKey continuation (inclusive; NextRowKey absent = start of that
// partition), filtered by $filter, projected by $select, at most $top (<= 1000) entities. Only
// the key ranges of the filter's odata::ScanPlan are scanned. When the scan stops early (page
// full, or ctx.query_budget spent: a partial, possibly empty, page),
// x-ms-continuation-NextPartitionKey/NextRowKey name the first entity not examined, so every
// entity appears exactly once across pages. Decodes and plans at once (errors: kInvalidInput for a
// bad $filter/$select/$top/continuation token) and sets Outcome::partition_charge when the plan
// stays inside one PartitionKey; the Outcome's `read` scans, sets Outcome::query_stats and, with
// ctx.explain, x-malachite-query-plan (plan dump, scanned=N returned=M). Its errors:
// kTableNotFound, storage errors.
Result<Outcome> HandleQueryEntities(const RequestContext& ctx);

// The table of ctx.route in `view`. Errors: kTableNotFound, storage errors.
Result<storage::TableInfo> FindTableForRead(storage::ReadView& view, const RequestContext& ctx);

// The `$filter` of `query` as a checked Filter; nullopt when absent, empty or blank (a caller
// must not build a Filter from blank text). Errors: those of odata::Filter::Parse.
Result<std::optional<odata::Filter>> ParseFilterParam(const QueryParams& query);
// The `$select` of `query`; everything when absent or empty. Errors: kInvalidInput.
Result<Selection> ParseSelectParam(const QueryParams& query);

// Emulator: spec §6.5 says continuation values are opaque and must never be raw keys (they may
// hold bytes invalid in headers). A token is "1!" + base64url(key) without padding, so even the
// empty key has a non-empty token.
std::string EncodeContinuationKey(std::string_view key);
// The key inside a token from EncodeContinuationKey; kInvalidInput when malformed.
Result<std::string> DecodeContinuationKey(std::string_view token);

}  // namespace malachite::server
