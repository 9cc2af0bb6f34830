// /-/reset and /-/backup through the admin dispatcher, with a real store in a temp dir.
#include <catch2/catch.hpp>
#include <filesystem>

#include "server/admin/admin_endpoints.h"
#include "tests/support/store_fixture.h"

namespace malachite::server {
namespace {

struct DataFixture {
  DataFixture() {
    data.store = &store();
    data.accounts = {"devstoreaccount1", "other"};
    data.seed = {
        TableContent{
            "devstoreaccount1", "Fixture", {Entity{"p", "1", {}, {}}, Entity{"p", "2", {}, {}}}},
        TableContent{"unconfigured", "Ignored", {Entity{"p", "1", {}, {}}}}};
  }

  // "<status> <body without the newline>" of `method target`, running the job if one is handed
  // back.
  std::string Call(std::string method, std::string target) {
    Request request;
    request.method = std::move(method);
    request.target = std::move(target);
    Response response;
    AdminJob job;
    HandleAdminRequest(request, AdminContext{true, nullptr, &data}, response, &job);
    if (job) job(response);
    std::string body = response.body.substr(0, response.body.size() - 1);
    // The duration varies: cut it from the JSON summary.
    if (auto ms = body.find(",\"ms\":"); ms != std::string::npos) body = body.substr(0, ms) + "}";
    return std::to_string(response.status) + " " + body;
  }

  void CreateTables(const std::string& account, std::initializer_list<const char*> names) {
    REQUIRE(store().Write([&](storage::WriteContext& ctx) -> Result<void> {
      for (const char* name : names) {
        auto table = ctx.CreateTable(account, name);
        if (!table) return tl::unexpected(table.error());
        Entity e{"p", name, ctx.NextTimestamp(), {}};
        if (auto ok = ctx.PutEntity(**table, e); !ok) return ok;
      }
      return {};
    }));
  }

  std::string Tables(const std::string& account) {
    auto view = store().Read();
    std::string out;
    REQUIRE((*view)->ScanTables(account, "", [&](const storage::TableInfo& t) {
      out += t.name + " ";
      return true;
    }));
    return out;
  }

  storage::Store& store() { return fixture.store(); }
  // The temp dir; the store's files are in its "data" sub-directory.
  const std::string& dir() const { return fixture.dir(); }

  malachite::testing::StoreFixture fixture{{.dir_prefix = "malachite-data"}};
  DataEndpoints data;
};

}  // namespace

TEST_CASE("data_endpoints: /-/reset empties the accounts and restores the fixtures", "[admin]") {
  DataFixture f;
  f.CreateTables("devstoreaccount1", {"a", "b", "Fixture"});
  f.CreateTables("other", {"c"});
  CHECK(
      f.Call("POST", "/-/reset") ==
      R"(200 {"accounts":["devstoreaccount1","other"],"tables_deleted":4,"tables_seeded":1,"entities_seeded":2})");
  CHECK(f.Tables("devstoreaccount1") == "Fixture ");
  CHECK(f.Tables("other").empty());
  CHECK(f.Tables("unconfigured").empty());

  f.CreateTables("other", {"d"});
  CHECK(
      f.Call("POST", "/-/reset?account=devstoreaccount1&seed=false") ==
      R"(200 {"accounts":["devstoreaccount1"],"tables_deleted":1,"tables_seeded":0,"entities_seeded":0})");
  CHECK(f.Tables("devstoreaccount1").empty());
  CHECK(f.Tables("other") == "d ");
  f.store().WaitForReclaim();
}

TEST_CASE("data_endpoints: bad resets and backups are refused before any work", "[admin]") {
  DataFixture f;
  CHECK(f.Call("GET", "/-/reset") == "405 method not allowed");
  CHECK(f.Call("POST", "/-/reset?account=nobody") == "400 unknown account 'nobody'");
  CHECK(f.Call("POST", "/-/reset?seed=maybe") ==
        "400 unknown parameter 'seed' (account=<name>, seed=false)");
  CHECK(f.Call("POST", "/-/backup") == "400 POST /-/backup?dest=<directory on the server>");
  std::filesystem::create_directories(f.dir() + "/full/x");
  CHECK(f.Call("POST", "/-/backup?dest=" + f.dir() + "/full") ==
        "400 backup failed: backup destination " + f.dir() +
            "/full exists and is not an empty directory");
}

TEST_CASE("data_endpoints: /-/backup copies the live store into dest", "[admin]") {
  DataFixture f;
  f.CreateTables("devstoreaccount1", {"kept"});
  const std::string dest = f.dir() + "/backup%201";
  const std::string answer = f.Call("POST", "/-/backup?dest=" + dest);
  // The path as JSON writes it (a Windows path's backslashes doubled).
  std::string json_dest;
  for (char c : f.dir() + "/backup 1")
    json_dest += c == '\\' ? std::string("\\\\") : std::string(1, c);
  CHECK(answer.starts_with("200 {\"dest\":\"" + json_dest + "\",\"bytes\":"));
  CHECK(std::filesystem::file_size(f.dir() + "/backup 1/data.mdb") > 0);
  // Without a thread to run the job on, the endpoint says so instead of blocking an I/O thread.
  Request request{"POST", "/-/backup?dest=/tmp/x", {}, {}, {}, false};
  Response response;
  HandleAdminRequest(request, AdminContext{true, nullptr, &f.data}, response);
  CHECK(response.status == 503);
}

}  // namespace malachite::server
