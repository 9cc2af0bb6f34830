// POST/GET/DELETE /-/accounts through the admin dispatcher, with a real store in a temp dir.
#include "server/admin/account_endpoints.h"

#include <simdjson.h>

#include <catch2/catch.hpp>

#include "common/clock.h"
#include "common/encoding.h"
#include "server/admin/admin_endpoints.h"
#include "server/pipeline/service.h"
#include "tests/support/store_fixture.h"
#include "tests/unit/server/service_harness.h"

namespace malachite::server {
namespace {

struct AccountsFixture {
  AccountsFixture() { Attach(); }

  void Attach() {
    data.store = &fixture.store();
    data.accounts = {"devstoreaccount1"};
    data.directory = directory.get();
    data.clock = &fixture.clock();
  }

  // `host`: the Host header; `secure`: as if it came over TLS.
  Response Call(std::string method, std::string target, std::string body = "",
                std::string host = "127.0.0.1:10002", bool secure = false) {
    Request request;
    request.method = std::move(method);
    request.target = std::move(target);
    request.body = std::move(body);
    request.secure = secure;
    request.headers.push_back({"Host", std::move(host)});
    Response response;
    AdminJob job;
    HandleAdminRequest(request, AdminContext{true, nullptr, &data}, response, &job);
    if (job) job(response);
    return response;
  }

  // "<status> <x-ms-error-code>" of an error answer.
  std::string Refusal(std::string method, std::string target, std::string body = "") {
    Response response = Call(std::move(method), std::move(target), std::move(body));
    return std::to_string(response.status) + " " +
           std::string(response.Find("x-ms-error-code").value_or(""));
  }

  std::string Tables(const std::string& account) {
    auto view = fixture.store().Read();
    std::string out;
    REQUIRE((*view)->ScanTables(account, "", [&](const storage::TableInfo& t) {
      out += t.name + " ";
      return true;
    }));
    return out;
  }

  bool SetProperties(const std::string& account, const std::string& record) {
    return fixture.store()
        .Write([&](storage::WriteContext& w) { return w.SetServiceProperties(account, record); })
        .has_value();
  }

  std::optional<std::string> Properties(const std::string& account) {
    auto view = fixture.store().Read();
    REQUIRE(view);
    auto record = (*view)->GetServiceProperties(account);
    REQUIRE(record);
    return *record;
  }

  // Simulates a restart: a new store on the same files and a new directory that loads them.
  std::size_t Restart(bool transient) {
    fixture.Reopen();
    directory = std::make_unique<AccountDirectory>(Configured());
    Attach();
    auto loaded = LoadRuntimeAccounts(fixture.store(), *directory, transient);
    REQUIRE(loaded);
    return *loaded;
  }

  static std::vector<AccountConfig> Configured() {
    return {{std::string(kDevAccountName), std::string(kDevAccountKey), {}}};
  }

  malachite::testing::StoreFixture fixture{{.dir_prefix = "malachite-accounts"}};
  std::unique_ptr<AccountDirectory> directory = std::make_unique<AccountDirectory>(Configured());
  DataEndpoints data;
};

std::string Field(const std::string& json, const char* name) {
  simdjson::dom::parser parser;
  std::string_view value;
  REQUIRE(parser.parse(json).at_key(name).get_string().get(value) == simdjson::SUCCESS);
  return std::string(value);
}

}  // namespace

TEST_CASE("account_endpoints: POST makes an account with its connection strings", "[accounts]") {
  AccountsFixture f;
  Response made = f.Call("POST", "/-/accounts", R"({"name":"mytests","key":"a2V5LW9uZQ=="})");
  REQUIRE(made.status == 201);
  CHECK(made.Find("Content-Type") == "application/json");
  CHECK(Field(made.body, "name") == "mytests");
  CHECK(Field(made.body, "key") == "a2V5LW9uZQ==");
  CHECK(Field(made.body, "tableEndpoint") == "http://127.0.0.1:10002/mytests");
  CHECK(Field(made.body, "connectionString") ==
        "DefaultEndpointsProtocol=http;AccountName=mytests;AccountKey=a2V5LW9uZQ==;"
        "TableEndpoint=http://127.0.0.1:10002/mytests;");
  CHECK(Field(made.body, "hostStyleTableEndpoint") == "http://mytests.localhost:10002");
  CHECK(f.directory->Current()->Find("mytests") != nullptr);

  // Generated: a valid name and a 64-byte key.
  Response generated = f.Call("POST", "/-/accounts");
  REQUIRE(generated.status == 201);
  const std::string name = Field(generated.body, "name");
  CHECK(IsValidRuntimeAccountName(name));
  CHECK(Base64Decode(Field(generated.body, "key"))->size() == 64);
  CHECK(f.Call("POST", "/-/accounts").status == 201);  // another, another name
  CHECK(f.directory->Current()->runtime_count() == 3);

  Response list = f.Call("GET", "/-/accounts");
  CHECK(list.status == 200);
  CHECK(list.body.find(R"({"name":"devstoreaccount1",)") != std::string::npos);
  CHECK(list.body.find(R"("name":"mytests","key":"a2V5LW9uZQ==","runtime":true,"created":)") !=
        std::string::npos);
}

TEST_CASE("account_endpoints: POST answers the account as one JSON line", "[accounts]") {
  AccountsFixture f;
  Response made = f.Call("POST", "/-/accounts", R"({"name":"pinned1","key":"a2V5LW9uZQ=="})");
  REQUIRE(made.status == 201);
  CHECK(made.body ==
        R"({"name":"pinned1","key":"a2V5LW9uZQ==","created":"2023-11-14T22:13:20Z",)"
        R"("tableEndpoint":"http://127.0.0.1:10002/pinned1",)"
        R"("connectionString":"DefaultEndpointsProtocol=http;AccountName=pinned1;)"
        R"(AccountKey=a2V5LW9uZQ==;TableEndpoint=http://127.0.0.1:10002/pinned1;",)"
        R"("hostStyleTableEndpoint":"http://pinned1.localhost:10002",)"
        R"("hostStyleConnectionString":"DefaultEndpointsProtocol=http;AccountName=pinned1;)"
        R"(AccountKey=a2V5LW9uZQ==;TableEndpoint=http://pinned1.localhost:10002;"})"
        "\n");
}

TEST_CASE("account_endpoints: a Host with quotes or backslashes is escaped in the answer",
          "[accounts]") {
  AccountsFixture f;
  // Over TLS, from a Host that needs escaping in JSON (a client may send any bytes there).
  Response made = f.Call("POST", "/-/accounts", R"({"name":"escaped1","key":"a2V5LW9uZQ=="})",
                         R"(ci"box\:8443)", true);
  REQUIRE(made.status == 201);
  CHECK(made.body ==
        R"({"name":"escaped1","key":"a2V5LW9uZQ==","created":"2023-11-14T22:13:20Z",)"
        R"("tableEndpoint":"https://ci\"box\\:8443/escaped1",)"
        R"("connectionString":"DefaultEndpointsProtocol=https;AccountName=escaped1;)"
        R"(AccountKey=a2V5LW9uZQ==;TableEndpoint=https://ci\"box\\:8443/escaped1;",)"
        R"("hostStyleTableEndpoint":"https://escaped1.localhost:8443",)"
        R"("hostStyleConnectionString":"DefaultEndpointsProtocol=https;AccountName=escaped1;)"
        R"(AccountKey=a2V5LW9uZQ==;TableEndpoint=https://escaped1.localhost:8443;"})"
        "\n");
  CHECK(Field(made.body, "tableEndpoint") == R"(https://ci"box\:8443/escaped1)");
  // A Host without a port (an IPv6 literal's colons are not one): host style names none.
  Response bare = f.Call("POST", "/-/accounts", R"({"name":"bare1"})", "[::1]");
  REQUIRE(bare.status == 201);
  CHECK(Field(bare.body, "tableEndpoint") == "http://[::1]/bare1");
  CHECK(Field(bare.body, "hostStyleTableEndpoint") == "http://bare1.localhost");
}

TEST_CASE("account_endpoints: GET lists configured accounts, then made ones with created",
          "[accounts]") {
  AccountsFixture f;
  REQUIRE(f.Call("POST", "/-/accounts", R"({"name":"listed1","key":"a2V5LW9uZQ=="})").status ==
          201);
  Response list = f.Call("GET", "/-/accounts");
  REQUIRE(list.status == 200);
  CHECK(list.Find("Content-Type") == "application/json");
  CHECK(list.body == R"({"accounts":[{"name":"devstoreaccount1","key":")" +
                         std::string(kDevAccountKey) +
                         R"(","runtime":false},{"name":"listed1","key":"a2V5LW9uZQ==",)"
                         R"("runtime":true,"created":"2023-11-14T22:13:20Z"}]})"
                         "\n");
  Response deleted = f.Call("DELETE", "/-/accounts/listed1");
  CHECK(deleted.status == 204);
  CHECK(deleted.body.empty());
}

TEST_CASE("account_endpoints: bad names, keys, bodies and methods get Azure errors", "[accounts]") {
  AccountsFixture f;
  REQUIRE(f.Call("POST", "/-/accounts", R"({"name":"taken1"})").status == 201);
  CHECK(f.Refusal("POST", "/-/accounts", R"({"name":"taken1"})") ==
        "409 StorageAccountAlreadyTaken");
  CHECK(f.Refusal("POST", "/-/accounts", R"({"name":"devstoreaccount1"})") ==
        "409 StorageAccountAlreadyTaken");
  CHECK(f.Refusal("POST", "/-/accounts", R"({"name":"Bad_Name"})") == "400 AccountNameInvalid");
  CHECK(f.Refusal("POST", "/-/accounts", R"({"name":"ab"})") == "400 AccountNameInvalid");
  CHECK(f.Refusal("POST", "/-/accounts", R"({"key":"%%%"})") == "400 InvalidInput");
  CHECK(f.Refusal("POST", "/-/accounts", R"({"name":7})") == "400 InvalidInput");
  CHECK(f.Refusal("POST", "/-/accounts", R"({"colour":"red"})") == "400 InvalidInput");
  CHECK(f.Refusal("POST", "/-/accounts", "not json") == "400 InvalidInput");
  CHECK(f.Refusal("PUT", "/-/accounts") == "405 UnsupportedHttpVerb");
  CHECK(f.Refusal("GET", "/-/accounts/taken1") == "405 UnsupportedHttpVerb");
  CHECK(f.Refusal("DELETE", "/-/accounts/nobody") == "404 ResourceNotFound");
  CHECK(f.Refusal("DELETE", "/-/accounts/devstoreaccount1") == "409 OperationNotAllowed");
  // Nothing was made by the refused calls.
  CHECK(f.directory->Current()->runtime_count() == 1);
}

TEST_CASE("account_endpoints: DELETE removes the account and its tables, and reset empties it",
          "[accounts]") {
  AccountsFixture f;
  REQUIRE(f.Call("POST", "/-/accounts", R"({"name":"gone1"})").status == 201);
  f.fixture.CreateTable("gone1", "Orders");
  f.fixture.CreateTable("devstoreaccount1", "Kept");
  CHECK(f.Call("POST", "/-/reset?account=gone1").status == 200);
  CHECK(f.Tables("gone1").empty());
  f.fixture.CreateTable("gone1", "Orders");
  CHECK(f.Call("DELETE", "/-/accounts/gone1").status == 204);
  CHECK(f.directory->Current()->Find("gone1") == nullptr);
  CHECK(f.Tables("gone1").empty());
  CHECK(f.Tables("devstoreaccount1") == "Kept ");
  CHECK(f.Refusal("POST", "/-/reset?account=gone1").starts_with("400"));
}

TEST_CASE("account_endpoints: accounts survive a restart unless transient", "[accounts]") {
  AccountsFixture f;
  REQUIRE(f.Call("POST", "/-/accounts", R"({"name":"kept1","key":"a2V5LW9uZQ=="})").status == 201);
  REQUIRE(f.Call("POST", "/-/accounts", R"({"name":"kept2"})").status == 201);
  f.fixture.CreateTable("kept1", "Orders");
  CHECK(f.Restart(false) == 2);
  REQUIRE(f.directory->Current()->Find("kept1") != nullptr);
  CHECK(f.directory->Current()->Find("kept1")->key1 == "a2V5LW9uZQ==");
  CHECK(f.Tables("kept1") == "Orders ");

  // --transient-accounts: what a killed run left is deleted at the next start.
  CHECK(f.Restart(true) == 2);
  CHECK(f.directory->Current()->runtime_count() == 0);
  CHECK(f.Tables("kept1").empty());
  CHECK(f.Restart(false) == 0);

  // And at shutdown.
  REQUIRE(f.Call("POST", "/-/accounts", R"({"name":"kept3"})").status == 201);
  f.fixture.CreateTable("kept3", "T");
  CHECK(*DeleteRuntimeAccounts(f.fixture.store(), *f.directory) == 1);
  CHECK(f.Tables("kept3").empty());
  CHECK(f.Restart(false) == 0);
}

TEST_CASE("account_endpoints: an account made again starts empty", "[accounts]") {
  AccountsFixture f;
  // A table and service properties left under the name (writes that raced the delete of an
  // earlier account).
  f.fixture.CreateTable("again1", "Leftover");
  REQUIRE(f.SetProperties("again1", "left over"));
  REQUIRE(f.Call("POST", "/-/accounts", R"({"name":"again1"})").status == 201);
  CHECK(f.Tables("again1").empty());
  CHECK(f.Properties("again1") == std::nullopt);
}

TEST_CASE("account_endpoints: service properties go with their account, and reset keeps them",
          "[accounts]") {
  AccountsFixture f;
  REQUIRE(f.Call("POST", "/-/accounts", R"({"name":"props1"})").status == 201);
  REQUIRE(f.SetProperties("props1", "cors and logging"));
  REQUIRE(f.SetProperties("devstoreaccount1", "the configured account's"));
  CHECK(f.Call("POST", "/-/reset?account=props1").status == 200);
  CHECK(f.Properties("props1") == "cors and logging");
  CHECK(f.Call("DELETE", "/-/accounts/props1").status == 204);
  CHECK(f.Properties("props1") == std::nullopt);
  CHECK(f.Properties("devstoreaccount1") == "the configured account's");
  // Made again under the same name: the defaults, as a new storage account has.
  REQUIRE(f.Call("POST", "/-/accounts", R"({"name":"props1"})").status == 201);
  CHECK(f.Properties("props1") == std::nullopt);
}

TEST_CASE(
    "account_endpoints: once DELETE committed, the server forgets the account: /-/metrics, "
    "/-/partitions and the insight endpoints no longer name it",
    "[accounts]") {
  // Composed as app/main.cc composes it: the Service's directory, insight, traffic and hook.
  testing::ServiceHarness host(DateTime{638000000000000000}, "malachite-accounts");
  Service& service = host.service();
  DataEndpoints data;
  data.store = &host.store();
  data.directory = &service.accounts();
  data.clock = &host.clock();
  data.forget_account = [&service](std::string_view account) { service.ForgetAccount(account); };
  const AdminContext context{true, &service.traffic(), &data, &service.insight()};
  auto call = [&](std::string method, std::string target, std::string body = "") {
    Request request;
    request.method = std::move(method);
    request.target = std::move(target);
    request.body = std::move(body);
    request.headers.push_back({"Host", "127.0.0.1:10002"});
    Response response;
    AdminJob job;
    HandleAdminRequest(request, context, response, &job);
    if (job) job(response);
    return response;
  };
  // What every endpoint that reports per account or partition answers, in one string.
  auto reports = [&] {
    std::string out;
    for (const char* target :
         {"/-/metrics", "/-/partitions?format=json", "/-/bill", "/-/advisor", "/-/traffic"}) {
      Response response = call("GET", target);
      CHECK(response.status == 200);
      out += response.body;
    }
    return out;
  };
  // A partition of `account` written once, as the pipeline records an Insert Entity.
  auto use = [&](std::string_view account) {
    RequestFacts facts;
    facts.op = Operation::kInsertEntity;
    facts.account = account;
    facts.table = "orders";
    facts.status = 204;
    facts.partition_key = "p";
    service.insight().Record(facts);
    REQUIRE(service.traffic().throttle().Admit(PartitionRef{account, "orders", "p"}, 1) ==
            ThrottleVerdict::kAdmitted);
  };

  REQUIRE(call("POST", "/-/accounts", R"({"name":"gone1"})").status == 201);
  service.insight().Sample();  // the traffic history's baseline
  use("gone1");
  service.insight().Sample();
  CHECK(reports().find("gone1") != std::string::npos);
  REQUIRE(call("DELETE", "/-/accounts/gone1").status == 204);
  CHECK(reports().find("gone1") == std::string::npos);
  CHECK(service.insight().usage().size() == 0);
  CHECK(service.traffic().throttle().tracked_partitions() == 0);

  // A request authenticated before the delete may still reach the throttle after it: making
  // the account again forgets that too, so the new account starts with nothing of the old.
  use("again1");
  REQUIRE(call("POST", "/-/accounts", R"({"name":"again1"})").status == 201);
  CHECK(service.traffic().throttle().tracked_partitions() == 0);
}

}  // namespace malachite::server
