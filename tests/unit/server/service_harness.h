// What the tests that drive server::Service directly (service, SAS, throttle tests) share: a real
// Service over a real store in a temp dir (tests/support/store_fixture.h) with a ManualClock,
// signing a request as the JS SDK does, and running one exchange to completion.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/datetime.h"
#include "common/encoding.h"
#include "config/server_config.h"
#include "server/auth/shared_key.h"
#include "server/http/route.h"
#include "server/pipeline/service.h"
#include "storage/store.h"
#include "tests/support/store_fixture.h"

namespace malachite::server::testing {

// Adds `Authorization: SharedKeyLite devstoreaccount1:<sig>` for `request` routed as `route`
// (the request must already carry its x-ms-date).
inline void SignSharedKeyLite(Request& request, const Route& route) {
  const std::string key = *Base64Decode(kDevAccountKey);
  request.headers.push_back(
      {"Authorization",
       "SharedKeyLite devstoreaccount1:" +
           ComputeSignature(key, SharedKeyLiteStringToSign(request, route)).value()});
}

// Makes `request` a JSON Table request to devstoreaccount1 as the SDKs send one at `now`: `method`,
// "/devstoreaccount1/<target>", `body`, then Accept, Content-Type, x-ms-version 2019-02-02, Host
// 127.0.0.1:10002 and x-ms-date. Unsigned: SignSharedKeyLite signs it once routed.
inline void MakeJsonRequest(Request& request, std::string method, std::string target,
                            std::string body, DateTime now,
                            std::string accept = "application/json;odata=nometadata",
                            std::string content_type = "application/json") {
  request.method = std::move(method);
  request.target = "/devstoreaccount1/" + std::move(target);
  request.body = std::move(body);
  request.headers = {{"Accept", std::move(accept)},
                     {"Content-Type", std::move(content_type)},
                     {"x-ms-version", "2019-02-02"},
                     {"Host", "127.0.0.1:10002"},
                     {"x-ms-date", FormatRfc1123(now)}};
}

// "<status>" or "<status> <x-ms-error-code>" of `response`: what the pipeline tests compare.
inline std::string StatusAndCode(const Response& response) {
  std::string out = std::to_string(response.status);
  if (auto code = response.Find("x-ms-error-code")) out += " " + std::string(*code);
  return out;
}

// The store a ServiceHarness's Service uses: the fixture's real store, every call forwarded,
// with the snapshots asked of it counted — what the tests of the request order read to show that
// a refused request read nothing (ARCHITECTURE.md, "The order of a request").
class ReadCountingStore final : public storage::Store {
 public:
  explicit ReadCountingStore(storage::Store& store) : store_(&store) {}
  void Rebind(storage::Store& store) { store_ = &store; }
  // Read() calls so far.
  std::uint64_t reads() const { return reads_.load(); }

  Result<std::unique_ptr<storage::ReadView>> Read() override {
    ++reads_;
    return store_->Read();
  }
  void Submit(storage::WriteFn fn, storage::WriteDone done) override {
    store_->Submit(std::move(fn), std::move(done));
  }
  std::optional<Result<void>> TryWrite(storage::WriteFn& fn) override {
    return store_->TryWrite(fn);
  }
  std::optional<std::vector<Result<void>>> TryWriteGroup(std::span<storage::WriteFn> fns) override {
    return store_->TryWriteGroup(fns);
  }
  Result<void> Write(storage::WriteFn fn) override { return store_->Write(std::move(fn)); }
  void WaitForReclaim() override { store_->WaitForReclaim(); }
  storage::StoreStats Stats() const override { return store_->Stats(); }
  storage::StoreGeneration Generation() const override { return store_->Generation(); }
  Result<std::uint64_t> Backup(const std::string& dest_dir) override {
    return store_->Backup(dest_dir);
  }
  Result<storage::CompactionReport> Compact() override { return store_->Compact(); }

 private:
  storage::Store* store_;
  std::atomic<std::uint64_t> reads_{0};
};

// The server's configuration with throttling off: for tests where a refusal would be noise (or
// where a fault rule must be the only refusal).
inline ServerConfig UnthrottledConfig() {
  ServerConfig config;
  config.throttle.enabled = false;
  return config;
}

// A Service configured like the server's (`config` plus the development account) over a fresh
// store whose clock starts at `start`.
class ServiceHarness {
 public:
  ServiceHarness(DateTime start, std::string_view dir_prefix, ServerConfig config = {})
      : fixture_({.start = start, .map_size_bytes = 1ull << 30, .dir_prefix = dir_prefix}),
        counting_(fixture_.store()),
        config_(std::move(config)) {
    config_.accounts.push_back({std::string(kDevAccountName), std::string(kDevAccountKey), {}});
    service_ = std::make_unique<Service>(config_, counting_, clock());
  }

  // A restart: closes the Service and the store and opens both again on the same directory.
  void Reopen() {
    service_.reset();
    fixture_.Reopen();
    counting_.Rebind(fixture_.store());
    service_ = std::make_unique<Service>(config_, counting_, clock());
  }

  Service& service() { return *service_; }
  storage::Store& store() { return fixture_.store(); }
  ManualClock& clock() { return fixture_.clock(); }
  // The snapshots the Service has asked of the store so far.
  std::uint64_t reads() const { return counting_.reads(); }

  // Runs `exchange` through the pipeline; a write goes through the store synchronously, as the
  // session would await it.
  void Run(Exchange& exchange) {
    service_->Handle(exchange);
    if (exchange.write) {
      auto written = store().Write(std::move(exchange.write));
      exchange.write = nullptr;
      service_->Complete(exchange, std::move(written));
    }
  }

 private:
  malachite::testing::StoreFixture fixture_;
  ReadCountingStore counting_;  // the Service's view of fixture_'s store
  ServerConfig config_;
  std::unique_ptr<Service> service_;  // declared last: goes before the store it uses
};

}  // namespace malachite::server::testing
