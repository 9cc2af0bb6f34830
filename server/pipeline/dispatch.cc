#include "server/pipeline/dispatch.h"

#include "server/ops/acl_ops.h"
#include "server/ops/batch_ops.h"
#include "server/ops/entity_ops.h"
#include "server/ops/query_ops.h"
#include "server/ops/service_ops.h"
#include "server/ops/table_ops.h"

namespace malachite::server {

Result<Outcome> Dispatch(const RequestContext& ctx) {
  if (ctx.route.extra_segment != ExtraSegment::kNone) return HandleExtraSegment(ctx);
  switch (ctx.route.op) {
    case Operation::kQueryTables:
      return HandleQueryTables(ctx);
    case Operation::kGetTable:
      return HandleGetTable(ctx);
    case Operation::kCreateTable:
      return HandleCreateTable(ctx);
    case Operation::kDeleteTable:
      return HandleDeleteTable(ctx);
    case Operation::kQueryEntities:
      return HandleQueryEntities(ctx);
    case Operation::kGetEntity:
      return HandleGetEntity(ctx);
    case Operation::kInsertEntity:
      return HandleInsertEntity(ctx);
    case Operation::kUpdateEntity:
    case Operation::kMergeEntity:
    case Operation::kInsertOrReplaceEntity:
    case Operation::kInsertOrMergeEntity:
      return HandleWriteEntity(ctx);
    case Operation::kDeleteEntity:
      return HandleDeleteEntity(ctx);
    case Operation::kBatch:
      return HandleBatch(ctx);
    case Operation::kGetTableAcl:
      return HandleGetTableAcl(ctx);
    case Operation::kSetTableAcl:
      return HandleSetTableAcl(ctx);
    case Operation::kGetServiceProperties:
      return HandleGetServiceProperties(ctx);
    case Operation::kSetServiceProperties:
      return HandleSetServiceProperties(ctx);
    case Operation::kGetServiceStats:
      return HandleGetServiceStats(ctx);
    case Operation::kPreflight:
      return HandlePreflight(ctx);
    default:
      break;
  }
  return Fail(ErrorCode::kNotImplemented);
}

}  // namespace malachite::server
