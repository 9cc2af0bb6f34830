#include "server/ops/acl_ops.h"

#include <memory>

#include "server/auth/acl_xml.h"
#include "server/ops/entity_write.h"
#include "server/ops/table_settings.h"
#include "server/wire/xml_util.h"

namespace malachite::server {
namespace {

// Azure: spec §4.14 — the emulator refuses ACL bodies over 10 000 bytes.
constexpr std::size_t kMaxAclBodyBytes = 10'000;

}  // namespace

namespace {

// Get Table ACL's read.
Result<void> ReadAcl(const RequestContext& ctx, Outcome& outcome) {
  auto view = ctx.store.Read();
  if (!view) return tl::unexpected(view.error());
  auto table = (*view)->FindTable(ctx.route.account, ctx.route.table);
  if (!table) return tl::unexpected(table.error());
  if (!*table) return Fail(ErrorCode::kTableNotFound);
  auto acl = ReadTableAcl(**view, **table);
  if (!acl) return tl::unexpected(acl.error());
  view->reset();
  // Azure: spec §4.13 — the body starts with a UTF-8 byte order mark (the stored record does not).
  outcome.response.body = std::string(kUtf8Bom) + RenderAclXml(*acl);
  outcome.response.Set("Content-Type", "application/xml");
  return {};
}

}  // namespace

Result<Outcome> HandleGetTableAcl(const RequestContext& /*ctx*/) { return ReadOnly(ReadAcl); }

Result<Outcome> HandleSetTableAcl(const RequestContext& ctx) {
  if (ctx.request.body.size() > kMaxAclBodyBytes) return Fail(ErrorCode::kRequestBodyTooLarge);
  auto acl = ParseAclXml(ctx.request.body);
  if (!acl) return tl::unexpected(acl.error());
  struct State {
    std::string account, table, record;
  };
  auto state =
      std::make_shared<State>(State{ctx.route.account, ctx.route.table, EncodeAclRecord(*acl)});
  Outcome outcome;
  outcome.write = [state](storage::WriteContext& write) -> Result<void> {
    auto table = FindTableForWrite(write, state->account, state->table);
    if (!table) return tl::unexpected(table.error());
    return write.SetTableAcl(*table, state->record);
  };
  outcome.finish = [](Response& response, Result<void> written) -> Result<void> {
    if (!written) return written;
    response.status = 204;
    response.body.clear();
    return {};
  };
  return outcome;
}

}  // namespace malachite::server
