#include "server/pipeline/service.h"

#include <algorithm>

#include "common/datetime.h"
#include "common/encoding.h"
#include "common/limits.h"
#include "server/http/host_style.h"
#include "server/http/negotiation.h"
#include "server/http/router.h"
#include "server/ops/cors.h"
#include "server/ops/table_settings.h"
#include "server/pipeline/dispatch.h"
#include "server/pipeline/failure_log.h"
#include "server/wire/error_render.h"

namespace malachite::server {
namespace {

// Azure: spec §2.2 — the real service says "Windows-Azure-Table/1.0 Microsoft-HTTPAPI/2.0".
constexpr std::string_view kServerHeader = "Malachite/0.1 Windows-Azure-Table/1.0";

// The Date header changes once a second; format it once per second per thread.
const std::string& DateHeader(DateTime now) {
  thread_local std::int64_t cached_second = -1;
  thread_local std::string cached_text;
  const std::int64_t second = now.ticks / kTicksPerSecond;
  if (second != cached_second) {
    cached_text = FormatRfc1123(DateTime{second * kTicksPerSecond});
    cached_second = second;
  }
  return cached_text;
}

// The bearer verifier of --oauth, or null. main() has checked that it can be built.
std::shared_ptr<const BearerVerifier> MakeBearerVerifier(const OAuthConfig& oauth) {
  if (!oauth.enabled) return nullptr;
  auto verifier = BearerVerifier::Create(oauth);
  return verifier ? std::move(*verifier) : nullptr;
}

HostRouting MakeHostRouting(const ServerConfig& config,
                            std::shared_ptr<const AccountDirectory> accounts) {
  HostRouting routing{config.host_style, {}, {}};
  routing.find = [accounts = std::move(accounts)](std::string_view label) {
    const auto set = accounts->Current();
    const Account* account = set->FindCaseless(label);
    return account ? std::optional<std::string>(account->name) : std::nullopt;
  };
  return routing;
}

AccountNames MakeAccountNames(std::shared_ptr<const AccountDirectory> accounts) {
  return AccountNames{
      [accounts](std::string_view name) { return accounts->Current()->Find(name) != nullptr; },
      [accounts] {
        std::vector<std::string> names;
        accounts->Current()->ForEach(
            [&](const Account& account) { names.push_back(account.name); });
        return names;
      }};
}

}  // namespace

Service::Service(const ServerConfig& config, storage::Store& store, const Clock& clock)
    : default_host_(config.host + ":" + std::to_string(config.port)),
      explain_(config.explain),
      loose_(config.loose),
      any_version_(config.loose || config.skip_api_version_check),
      query_budget_(config.query_budget_ms),
      accounts_(std::make_shared<AccountDirectory>(config.accounts)),
      authenticator_(accounts_, MakeBearerVerifier(config.oauth)),
      host_routing_(MakeHostRouting(config, accounts_)),
      traffic_(std::make_unique<TrafficControl>(config, clock)),
      insight_(
          std::make_unique<Insight>(config, store, clock, *traffic_, MakeAccountNames(accounts_))),
      store_(store),
      clock_(clock) {}

void Service::ForgetAccount(std::string_view account) const {
  insight_->ForgetAccount(account);
  traffic_->throttle().ForgetAccount(account);
}

std::string Service::BaseUrl(const Exchange& exchange) const {
  // Azure: spec §4.1 — odata.metadata and friends are built from the Host header + account.
  return AccountEndpoint(exchange.request, exchange.route, default_host_);
}

// ARCHITECTURE.md, "The order of a request": every operation takes these steps in this order, so
// a request refused at one of them (503 ServerBusy or a fault rule's error at Admit included) has
// read and written nothing.
Result<void> Service::Run(Exchange& exchange) const {
  const DateTime now = clock_.Now();
  if (auto ok = PickVersion(exchange, now); !ok) return ok;
  if (auto ok = RouteExchange(exchange); !ok) return ok;
  if (auto ok = CheckLimits(exchange); !ok) return ok;
  Grant grant;
  if (auto ok = Authenticate(exchange, now, grant); !ok) return ok;
  if (auto ok = Authorize(exchange); !ok) return ok;
  auto ctx = Context(exchange, grant);
  if (!ctx) return tl::unexpected(ctx.error());
  auto outcome = Dispatch(*ctx);  // decoded and validated: nothing read or written yet
  const RequestCharge charge = ChargeOf(outcome);
  if (auto ok = Admit(exchange, outcome ? &charge : nullptr); !ok) return ok;
  if (!outcome) return tl::unexpected(outcome.error());
  if (auto ok = Execute(*ctx, *outcome); !ok) return ok;
  ChargeScan(exchange, charge, *outcome);
  Adopt(exchange, std::move(*outcome));
  return {};
}

Result<void> Service::PickVersion(Exchange& exchange, DateTime now) const {
  auto version = NegotiateVersion(exchange.request, now);
  // Emulator: --loose and --skip-api-version-check serve a malformed or unsupported x-ms-version
  // at the default version.
  if (!version && !any_version_) return tl::unexpected(version.error());
  exchange.version = version ? std::string(*version) : std::string(kDefaultVersion);
  return {};
}

Result<void> Service::RouteExchange(Exchange& exchange) const {
  // Routed in place: the connection's Route keeps its strings' capacity from request to request.
  if (auto ok = RouteRequest(exchange.request, host_routing_, exchange.route); !ok) return ok;
  exchange.routed = true;
  return {};
}

Result<void> Service::CheckLimits(const Exchange& exchange) const {
  // Azure: spec §9.3 — request bodies up to 4 MiB (a batch's own limit is checked by its handler).
  if (exchange.route.op != Operation::kBatch &&
      exchange.request.body.size() > limits::kRequestBodyMax) {
    return malachite::Fail(ErrorCode::kRequestBodyTooLarge);
  }
  return {};
}

Result<void> Service::Authenticate(Exchange& exchange, DateTime now, Grant& grant) const {
  const Route& r = exchange.route;
  // Azure: spec §4.17 — preflight requests are not authenticated. Emulator: nor is anything
  // under --loose (every request gets full access, as with the account key), nor the explorer's
  // calls (admitted by the admin surface's access rule).
  if (r.op == Operation::kPreflight || loose_ || exchange.explorer) return {};
  auto principal =
      authenticator_.Authenticate(exchange.request, r, now, StoredPolicyLookup(store_));
  if (!principal) return tl::unexpected(principal.error());
  grant.sas = std::move(principal->sas);
  if (principal->scheme == AuthScheme::kBearer) grant.rbac = principal->rbac;
  // Azure: spec §13 — a SAS request is processed at its signed version (x-ms-version ignored).
  if (grant.sas) exchange.version = grant.sas->version;
  return {};
}

Result<void> Service::Authorize(const Exchange& exchange) const {
  // Azure: spec §1.1 — the secondary endpoint is read-only: an authorised write is refused
  // there (403 InsufficientAccountPermissions) and nothing of it is applied.
  if (exchange.route.secondary && ChangesState(exchange.route.op)) {
    return malachite::Fail(ErrorCode::kInsufficientAccountPermissions);
  }
  return {};
}

Result<RequestContext> Service::Context(const Exchange& exchange, const Grant& grant) const {
  auto level = NegotiateMetadata(exchange.request, exchange.route, exchange.version);
  if (!level) return tl::unexpected(level.error());
  RequestContext ctx{exchange.request, exchange.route,     *level, BaseUrl(exchange), clock_,
                     store_,           exchange.request_id};
  ctx.explain = explain_ || exchange.explorer;
  ctx.query_budget = query_budget_;
  ctx.sas = grant.sas.get();
  ctx.rbac = grant.rbac;
  return ctx;
}

RequestCharge Service::ChargeOf(const Result<Outcome>& outcome) {
  RequestCharge charge;
  if (outcome) {
    charge.partition = outcome->partition_charge ? &*outcome->partition_charge : nullptr;
    charge.writes = static_cast<bool>(outcome->write);
  }
  return charge;
}

Result<void> Service::Admit(Exchange& exchange, const RequestCharge* charge) const {
  // Emulator: a preflight and the explorer's calls are not the application's traffic.
  if (exchange.route.op == Operation::kPreflight || exchange.explorer) return {};
  // Azure: spec §12.2 — a refused request gets 503 ServerBusy (or a fault rule's error). Nothing
  // of it has run: Dispatch only decoded it, and its read or write runs after this.
  GateResult gate = traffic_->Admit(exchange.route, charge);
  exchange.fault_delay = gate.delay;
  exchange.drop_connection = gate.drop;
  if (gate.refusal) {
    exchange.emulated_failure = true;
    return tl::unexpected(std::move(*gate.refusal));
  }
  return {};
}

Result<void> Service::Execute(const RequestContext& ctx, Outcome& outcome) {
  // The read runs here, synchronously; a write runs once the session submits it (Handle's
  // contract), so the answer to a write is rendered by Complete.
  if (!outcome.read) return {};
  return outcome.read(ctx, outcome);
}

void Service::ChargeScan(const Exchange& exchange, const RequestCharge& charge,
                         const Outcome& outcome) const {
  if (!outcome.query_stats || exchange.route.op == Operation::kPreflight || exchange.explorer) {
    return;
  }
  traffic_->ChargeScan(exchange.route, &charge, *outcome.query_stats);
}

void Service::Adopt(Exchange& exchange, Outcome&& outcome) {
  exchange.response = std::move(outcome.response);
  exchange.query_stats = outcome.query_stats;
  exchange.partition_charge = std::move(outcome.partition_charge);
  exchange.write_stats = outcome.write_stats;
  if (outcome.refusal) exchange.refusal = std::move(outcome.refusal);
  if (outcome.write) {
    exchange.write = std::move(outcome.write);
    exchange.finish = std::move(outcome.finish);
  }
}

void Service::Handle(Exchange& exchange) const {
  exchange.started = std::chrono::steady_clock::now();
  exchange.request_id = NewGuidText();
  if (auto ok = Run(exchange); !ok) {
    exchange.write = nullptr;
    RenderFailure(exchange, ok.error());
  }
  if (!exchange.write) Decorate(exchange);
}

void Service::Complete(Exchange& exchange, Result<void> write_result) const {
  Result<void> done = std::move(write_result);
  if (exchange.finish) {
    done = exchange.finish(exchange.response, std::move(done));
    exchange.finish = nullptr;
  }
  if (!done) RenderFailure(exchange, done.error());
  // A deleted table's partitions are forgotten by the throttle, as a deleted account's are
  // (Service::ForgetAccount).
  if (done && exchange.routed && exchange.route.op == Operation::kDeleteTable) {
    traffic_->throttle().ForgetTable(exchange.route.account, exchange.route.table);
  }
  Decorate(exchange);
}

void Service::Fail(Exchange& exchange, const Error& error) const {
  if (exchange.request_id.empty()) exchange.request_id = NewGuidText();
  if (exchange.started == std::chrono::steady_clock::time_point{}) {
    exchange.started = std::chrono::steady_clock::now();
  }
  exchange.write = nullptr;
  exchange.finish = nullptr;
  RenderFailure(exchange, error);
  Decorate(exchange);
}

void Service::RenderFailure(Exchange& exchange, const Error& error) const {
  exchange.error = error.code;
  // Only a detail tells the advisor more than the code (most errors have none: no copy).
  if (!error.detail.empty()) exchange.refusal = error;
  if (!exchange.emulated_failure) LogServerFailure(exchange, error);
  // Azure: spec §8.1 — a request whose routing failed after naming a table (a bad `comp` or
  // `restype` under /<t>/) is answered as a table-level one (m:error when XML).
  const bool table_named = !exchange.routed && !exchange.route.table.empty();
  const Route* route = exchange.routed || table_named ? &exchange.route : nullptr;
  RenderError(error, ChooseErrorFormat(exchange.request, route, error), exchange.request_id,
              clock_.Now(), exchange.response);
  // Azure: spec §10.9 — every 401 carries the bearer challenge (only --oauth produces one).
  if (exchange.response.status == 401 && authenticator_.bearer() != nullptr) {
    exchange.response.Set("WWW-Authenticate", authenticator_.bearer()->challenge());
  }
}

void Service::Decorate(Exchange& exchange) const {
  // Azure: spec §2.2 — headers on every response, success or error.
  Response& response = exchange.response;
  auto& headers = response.headers;
  // Room for the eight below: usually none to allocate, as a response starts with room for
  // sixteen (Response::Set). CORS headers, only with an Origin, may need more.
  headers.reserve(headers.size() + 8);
  headers.push_back({"x-ms-request-id", exchange.request_id});
  headers.push_back(
      {"x-ms-version", exchange.version.empty() ? std::string(kDefaultVersion) : exchange.version});
  headers.push_back({"Date", DateHeader(clock_.Now())});
  headers.push_back({"Server", std::string(kServerHeader)});
  if (auto client_id = exchange.request.Find("x-ms-client-request-id")) {
    headers.push_back({"x-ms-client-request-id", std::string(*client_id)});
  }
  headers.push_back({"Cache-Control", "no-cache"});
  headers.push_back({"X-Content-Type-Options", "nosniff"});
  if (!exchange.routed || !IsXmlOperation(exchange.route.op)) {
    headers.push_back({"DataServiceVersion", "3.0;"});
  }
  // Azure: spec §11.4 — CORS headers on actual requests carrying Origin (errors included).
  if (exchange.routed && exchange.route.op != Operation::kPreflight) {
    AddCorsHeaders(exchange.request, exchange.route.account, store_, response);
  }
  const auto elapsed = std::chrono::steady_clock::now() - exchange.started;
  if (exchange.explorer) {
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count();
    headers.push_back({"x-malachite-elapsed-us", std::to_string(us)});
    return;
  }
  traffic_->Record(exchange.routed ? std::optional<Operation>(exchange.route.op) : std::nullopt,
                   response.status, elapsed);
  RecordInsight(exchange);
}

void Service::RecordInsight(const Exchange& exchange) const {
  RequestFacts facts;
  facts.status = exchange.response.status;
  facts.error = exchange.error;
  if (exchange.refusal) facts.refusal = &*exchange.refusal;
  facts.method = exchange.request.method;
  facts.target = exchange.request.target;
  facts.at = exchange.started;
  if (exchange.routed) {
    const Route& r = exchange.route;
    facts.op = r.op;
    facts.account = r.account;
    facts.table = r.table;
    facts.partition_key = r.partition_key;
    facts.row_key = r.row_key;
    if (const std::string* filter = r.query.Find("$filter")) facts.filter = *filter;
  }
  if (const auto& charge = exchange.partition_charge) {
    facts.partition_key = charge->partition_key;
    facts.entities = charge->entities;
    if (!charge->table.empty()) facts.table = charge->table;
  }
  if (exchange.query_stats) facts.query = &*exchange.query_stats;
  if (exchange.write_stats) facts.write = &*exchange.write_stats;
  insight_->Record(facts);
}

}  // namespace malachite::server
