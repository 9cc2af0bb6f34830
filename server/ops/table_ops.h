// The table operations (spec §4.1–4.4): Query Tables, Get Table, Create Table, Delete Table.
// The reads return a ReadFn that reads the store and renders the response (errors below are its
// errors); the writes decode the request and return the WriteFn and a `finish` that renders once
// the write is durable.
#pragma once

#include "server/ops/handler.h"

namespace malachite::server {

// Azure: spec §4.1 — 200 + {"odata.metadata":"<base>/$metadata#Tables","value":[...]} in
// case-insensitive name order; `$filter` on TableName, `$top` (page size), `$select`,
// `NextTableName` continuation; x-ms-continuation-NextTableName when more tables remain.
// Errors: kInvalidInput (bad $filter/$top/$select).
Result<Outcome> HandleQueryTables(const RequestContext& ctx);

// Azure: spec §4.2 — 200 + the single table body, or kTableNotFound.
Result<Outcome> HandleGetTable(const RequestContext& ctx);

// Azure: spec §4.3 — 201 + body + Location, or 204 with Prefer: return-no-content.
// Errors: kInvalidInput (malformed body, TableName not a string), kPropertiesNeedValue (no
// TableName), ValidateTableName errors, kTableAlreadyExists (from finish).
Result<Outcome> HandleCreateTable(const RequestContext& ctx);

// Azure: spec §4.4 — 204; kTableNotFound (from finish) when absent.
Result<Outcome> HandleDeleteTable(const RequestContext& ctx);

}  // namespace malachite::server
