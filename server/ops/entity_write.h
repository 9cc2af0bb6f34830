// One single-entity write (spec §4.5–4.10) as three reusable steps — decode + validate from the
// request, apply inside a WriteFn, render the success response — shared by the standalone
// entity handlers (entity_ops.cc) and the operations of an entity group transaction
// (batch_ops.cc), so that a batch validates and answers each operation exactly as its
// single-request form.
#pragma once

#include <string>
#include <string_view>

#include "common/entity.h"
#include "common/error.h"
#include "server/http/message.h"
#include "server/http/route.h"
#include "server/ops/handler.h"
#include "server/wire/entity_json_parse.h"
#include "server/wire/entity_json_render.h"
#include "server/wire/select.h"
#include "storage/store.h"

namespace malachite::server {

// True for Insert, Update, Merge, InsertOrReplace, InsertOrMerge and Delete Entity.
bool IsEntityWrite(Operation op);

// A decoded, validated entity write. Owns its data (the request may be gone when it applies).
struct EntityWrite {
  Operation op = Operation::kInsertEntity;
  Entity entity;         // keys always set; no properties for Delete; timestamp set by Apply
  std::string if_match;  // Update, Merge, Delete (validated syntax); empty otherwise
  PreferReturn prefer = PreferReturn::kNone;  // Insert only
};

// Decodes `request` routed as `route` (REQUIRES: IsEntityWrite(route.op)). Insert takes both keys
// from the body, the others from the URL (body keys ignored). Errors: ParseEntityJson and
// ValidateEntity errors, kPropertiesNeedValue (Insert without PartitionKey/RowKey in the body),
// kMissingRequiredHeader (Delete without If-Match), CheckIfMatch errors.
Result<EntityWrite> DecodeEntityWrite(const Request& request, const Route& route);
// The same into `out` (REQUIRES: a default EntityWrite), so that a caller collecting many writes
// (a $batch) decodes each where it is kept instead of moving it there. On an error `out` holds a
// partial write.
Result<void> DecodeEntityWrite(const Request& request, const Route& route, EntityWrite& out);

// The table `name` of `account` looked up inside the writer's transaction, so that a concurrent
// Delete Table happens entirely before (kTableNotFound) or after the write.
Result<storage::TableInfo> FindTableForWrite(storage::WriteContext& write, std::string_view account,
                                             std::string_view name);

// Applies `write` to `table` (entity_apply.h); on success write.entity.timestamp is the new ETag
// (unset for Delete). Errors: kEntityAlreadyExists, kResourceNotFound,
// kUpdateConditionNotSatisfied, merged-entity validation errors, storage errors.
Result<void> ApplyEntityWrite(storage::WriteContext& context, const storage::TableInfo& table,
                              EntityWrite& write);

// The advisor's facts about `write` (request_charge.h), decoded from a body of `body_bytes`: its
// property count, and its entity's billable size when the body has at least 64 KiB — a smaller
// body cannot carry an entity near the 1 MiB limit, so the size is left 0 there (and for a
// Delete) to keep the common write from walking its strings once more.
WriteStats StatsOf(const EntityWrite& write, std::size_t body_bytes);

// Receives the success answer of a write in order: Status once, then each Header, and Body
// (only for an answer with content) before the Content-Type header that describes it.
class WriteAnswer {
 public:
  virtual ~WriteAnswer() = default;
  virtual void Status(int status) = 0;
  // `value` lives only during the call.
  virtual void Header(std::string_view name, std::string_view value) = 0;
  // The string the entity JSON is appended to.
  virtual std::string& Body() = 0;
};

// Gives the success answer of an applied write to `answer` (spec §4.5–4.10): Insert 201 with
// the entity at `level` (or 204 + DataServiceId with return-no-content; Preference-Applied when
// Prefer was given), ETag and Location; Update/Merge/upserts 204 + ETag; Delete 204.
// `where.table` is the stored table name.
void RenderEntityWrite(const EntityWrite& write, const EntityLocation& where, MetadataLevel level,
                       WriteAnswer& answer);
// The same answer set on `response` (its status, its body, and each header by Response::Set).
void RenderEntityWrite(const EntityWrite& write, const EntityLocation& where, MetadataLevel level,
                       Response& response);

// "<table>(PartitionKey='<pk>',RowKey='<rk>')" with each key's quotes doubled and then
// percent-encoded (spec §4.5 Location/DataServiceId), e.g. t(PartitionKey='a%3A1',RowKey='b').
std::string EntityPath(std::string_view table, std::string_view pk, std::string_view rk);
// Appends EntityPath(table, pk, rk) to `out`.
void AppendEntityUrlPath(std::string& out, std::string_view table, std::string_view pk,
                         std::string_view rk);

}  // namespace malachite::server
