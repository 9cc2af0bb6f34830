#include "server/ops/service_ops.h"

#include <memory>

#include "common/datetime.h"
#include "server/ops/cors.h"
#include "server/ops/table_settings.h"
#include "server/wire/service_properties_parse.h"
#include "server/wire/service_properties_record.h"

namespace malachite::server {

namespace {

// Get Service Properties' read.
Result<void> ReadProperties(const RequestContext& ctx, Outcome& outcome) {
  auto view = ctx.store.Read();
  if (!view) return tl::unexpected(view.error());
  auto properties = ReadServiceProperties(**view, ctx.route.account);
  if (!properties) return tl::unexpected(properties.error());
  view->reset();
  outcome.response.body = RenderServicePropertiesXml(*properties);
  outcome.response.Set("Content-Type", "application/xml");
  return {};
}

}  // namespace

Result<Outcome> HandleGetServiceProperties(const RequestContext& /*ctx*/) {
  return ReadOnly(ReadProperties);
}

Result<Outcome> HandleSetServiceProperties(const RequestContext& ctx) {
  auto update = ParseServicePropertiesXml(ctx.request.body);
  if (!update) return tl::unexpected(update.error());
  auto state = std::make_shared<ServicePropertiesUpdate>(std::move(*update));
  Outcome outcome;
  outcome.write = [state,
                   account = ctx.route.account](storage::WriteContext& write) -> Result<void> {
    // Read, merge and write in one transaction: concurrent partial updates do not lose fields.
    auto record = write.GetServiceProperties(account);
    if (!record) return tl::unexpected(record.error());
    ServiceProperties properties = DefaultServiceProperties();
    if (*record) {
      auto stored = DecodeServicePropertiesRecord(**record);
      if (!stored) return tl::unexpected(stored.error());
      properties = std::move(*stored);
    }
    state->ApplyTo(properties);
    return write.SetServiceProperties(account, EncodeServicePropertiesRecord(properties));
  };
  outcome.finish = [](Response& response, Result<void> written) -> Result<void> {
    if (!written) return written;
    response.status = 202;  // Azure: spec §4.15 — 202 Accepted, no body
    response.body.clear();
    return {};
  };
  return outcome;
}

Result<Outcome> HandleGetServiceStats(const RequestContext& ctx) {
  Outcome outcome;
  std::string& body = outcome.response.body;
  body = R"(<?xml version="1.0" encoding="utf-8"?><StorageServiceStats><GeoReplication>)";
  body += "<Status>live</Status><LastSyncTime>";
  body += FormatRfc1123(ctx.clock.Now());
  body += "</LastSyncTime></GeoReplication></StorageServiceStats>";
  outcome.response.Set("Content-Type", "application/xml");
  return outcome;
}

namespace {

// The preflight's read of the account's CORS rules (through the cache, as the actual requests'
// CORS headers: a browser sends a preflight before many of them).
Result<void> ReadPreflight(const RequestContext& ctx, Outcome& outcome) {
  auto properties = CachedServiceProperties(ctx.store, ctx.route.account);
  if (!properties) return tl::unexpected(properties.error());
  if (auto ok = AnswerPreflight((*properties)->cors, ctx.request, outcome.response); !ok) {
    return tl::unexpected(ok.error());
  }
  return {};
}

}  // namespace

Result<Outcome> HandlePreflight(const RequestContext& /*ctx*/) { return ReadOnly(ReadPreflight); }

}  // namespace malachite::server
