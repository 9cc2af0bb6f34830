#include "server/ops/entity_apply.h"

#include <catch2/catch.hpp>

#include "tests/unit/server/handler_harness.h"

namespace malachite::server {
namespace {

using testing::Harness;

const std::string kETag1 = R"J(W/"datetime'2024-05-06T07%3A08%3A09.1234567Z'")J";

std::string Code(const Result<void>& r) { return r ? "ok" : std::string(r.error().AzureCode()); }

TEST_CASE("entity_ops: CheckIfMatch accepts * and weak ETags only", "[server]") {
  CHECK(Code(CheckIfMatch("*")) == "ok");
  CHECK(Code(CheckIfMatch(kETag1)) == "ok");
  CHECK(Code(CheckIfMatch(R"J(w/"x")J")) == "ok");
  CHECK(Code(CheckIfMatch(R"J(W/"a\"b")J")) == "ok");
  CHECK(Code(CheckIfMatch("")) == "UpdateConditionNotSatisfied");
  CHECK(Code(CheckIfMatch(R"J("x")J")) == "InvalidInput");
  CHECK(Code(CheckIfMatch(R"J(W/"a"b")J")) == "InvalidInput");
  CHECK(Code(CheckIfMatch("W/")) == "InvalidInput");
  CHECK(Code(CheckIfMatch("**")) == "InvalidInput");
}

struct OpsFixture {
  OpsFixture() {
    REQUIRE(h.store().Write([](storage::WriteContext& w) -> Result<void> {
      auto t = w.CreateTable("acct", "things");
      if (!t) return tl::unexpected(t.error());
      return {};
    }));
  }
  // Runs `op` inside one WriteFn with the table looked up; returns "ok" or the Azure code.
  template <typename Op>
  std::string Apply(Op op) {
    auto result = h.store().Write([&](storage::WriteContext& w) -> Result<void> {
      auto table = w.FindTable("acct", "things");
      if (!table || !*table) return Fail(ErrorCode::kInternalError);
      return op(w, **table);
    });
    return Code(result);
  }
  std::optional<Entity> Get(std::string_view pk, std::string_view rk) {
    auto view = h.store().Read();
    REQUIRE(view);
    auto table = (*view)->FindTable("acct", "things");
    REQUIRE(table);
    auto entity = (*view)->GetEntity(**table, pk, rk);
    REQUIRE(entity);
    return *entity;
  }
  static Entity Make(std::string pk, std::string rk, std::vector<Property> properties) {
    Entity e;
    e.partition_key = std::move(pk);
    e.row_key = std::move(rk);
    e.properties = std::move(properties);
    return e;
  }
  static Result<void> Void(const Result<DateTime>& r) {
    if (!r) return tl::unexpected(r.error());
    return {};
  }
  Harness h;
};

TEST_CASE_METHOD(OpsFixture, "entity_ops: every write gets a strictly larger Timestamp",
                 "[server]") {
  Entity e = Make("p", "r", {{"A", EdmValue::Int32(1)}});
  std::vector<DateTime> stamps;
  auto record = [&](const Result<DateTime>& r) {
    if (r) stamps.push_back(*r);
    return Void(r);
  };
  CHECK(Apply([&](auto& w, auto& t) { return record(ApplyInsert(w, t, e)); }) == "ok");
  CHECK(Apply([&](auto& w, auto& t) { return record(ApplyInsertOrReplace(w, t, e)); }) == "ok");
  CHECK(Apply([&](auto& w, auto& t) { return record(ApplyInsertOrMerge(w, t, e)); }) == "ok");
  CHECK(Apply([&](auto& w, auto& t) { return record(ApplyMerge(w, t, e, "*")); }) == "ok");
  CHECK(Apply([&](auto& w, auto& t) { return record(ApplyUpdate(w, t, e, "*")); }) == "ok");
  REQUIRE(stamps.size() == 5);
  for (std::size_t i = 1; i < stamps.size(); ++i) CHECK(stamps[i - 1] < stamps[i]);
  CHECK(Get("p", "r")->timestamp == stamps.back());
  CHECK(e.timestamp == stamps.back());
}

TEST_CASE_METHOD(OpsFixture,
                 "entity_ops: Insert of an existing key fails with "
                 "EntityAlreadyExists and changes nothing",
                 "[server]") {
  Entity e = Make("p", "r", {{"A", EdmValue::Int32(1)}});
  REQUIRE(Apply([&](auto& w, auto& t) { return Void(ApplyInsert(w, t, e)); }) == "ok");
  Entity again = Make("p", "r", {{"A", EdmValue::Int32(2)}});
  CHECK(Apply([&](auto& w, auto& t) { return Void(ApplyInsert(w, t, again)); }) ==
        "EntityAlreadyExists");
  CHECK(*Get("p", "r") == e);
}

TEST_CASE_METHOD(OpsFixture, "entity_ops: If-Match on Update, Merge and Delete", "[server]") {
  Entity e = Make("p", "r", {});
  REQUIRE(Apply([&](auto& w, auto& t) { return Void(ApplyInsert(w, t, e)); }) == "ok");
  const std::string current = FormatETag(e.timestamp);
  const std::string stale = FormatETag(DateTime{e.timestamp.ticks - 1});
  Entity missing = Make("p", "none", {});
  CHECK(Apply([&](auto& w, auto& t) { return Void(ApplyUpdate(w, t, missing, "*")); }) ==
        "ResourceNotFound");
  CHECK(Apply([&](auto& w, auto& t) { return Void(ApplyMerge(w, t, missing, current)); }) ==
        "ResourceNotFound");
  CHECK(Apply([&](auto& w, auto& t) { return Void(ApplyUpdate(w, t, e, stale)); }) ==
        "UpdateConditionNotSatisfied");
  CHECK(Apply([&](auto& w, auto& t) { return Void(ApplyMerge(w, t, e, "")); }) ==
        "UpdateConditionNotSatisfied");
  CHECK(Apply([&](auto& w, auto& t) { return Void(ApplyUpdate(w, t, e, "nope")); }) ==
        "InvalidInput");
  CHECK(Apply([&](auto& w, auto& t) { return ApplyDelete(w, t, "p", "r", stale); }) ==
        "UpdateConditionNotSatisfied");
  CHECK(Apply([&](auto& w, auto& t) { return Void(ApplyUpdate(w, t, e, current)); }) == "ok");
  // The ETag moved on: the old one no longer matches.
  CHECK(Apply([&](auto& w, auto& t) { return ApplyDelete(w, t, "p", "r", current); }) ==
        "UpdateConditionNotSatisfied");
  const std::string now = FormatETag(e.timestamp);
  CHECK(Apply([&](auto& w, auto& t) { return ApplyDelete(w, t, "p", "r", now); }) == "ok");
  CHECK(!Get("p", "r"));
  CHECK(Apply([&](auto& w, auto& t) { return ApplyDelete(w, t, "p", "r", "*"); }) ==
        "ResourceNotFound");
}

TEST_CASE_METHOD(OpsFixture, "entity_ops: Merge keeps old properties and appends new ones",
                 "[server]") {
  Entity e = Make("p", "r", {{"A", EdmValue::Int32(1)}, {"B", EdmValue::String("b")}});
  REQUIRE(Apply([&](auto& w, auto& t) { return Void(ApplyInsert(w, t, e)); }) == "ok");
  Entity change = Make("p", "r", {{"C", EdmValue::Boolean(true)}, {"A", EdmValue::Int64(9)}});
  REQUIRE(Apply([&](auto& w, auto& t) { return Void(ApplyInsertOrMerge(w, t, change)); }) == "ok");
  Entity expected = Make(
      "p", "r",
      {{"A", EdmValue::Int64(9)}, {"B", EdmValue::String("b")}, {"C", EdmValue::Boolean(true)}});
  expected.timestamp = change.timestamp;
  CHECK(*Get("p", "r") == expected);
  // The caller's entity still holds only what it supplied.
  CHECK(change.properties.size() == 2);
}

TEST_CASE_METHOD(OpsFixture, "entity_ops: a merge that would exceed 252 properties fails",
                 "[server]") {
  std::vector<Property> first, second;
  for (int i = 0; i < 200; ++i) {
    first.push_back({"A" + std::to_string(i), EdmValue::Int32(i)});
    second.push_back({"B" + std::to_string(i), EdmValue::Int32(i)});
  }
  Entity e = Make("p", "r", first);
  REQUIRE(Apply([&](auto& w, auto& t) { return Void(ApplyInsert(w, t, e)); }) == "ok");
  Entity change = Make("p", "r", second);
  CHECK(Apply([&](auto& w, auto& t) { return Void(ApplyMerge(w, t, change, "*")); }) ==
        "TooManyProperties");
  CHECK(Get("p", "r")->properties.size() == 200);
}

TEST_CASE_METHOD(OpsFixture, "entity_ops: several operations share one WriteFn", "[server]") {
  // What $batch does: each op sees the effects of the previous ones in the same transaction.
  Entity a = Make("p", "a", {{"X", EdmValue::Int32(1)}});
  Entity b = Make("p", "b", {});
  CHECK(Apply([&](auto& w, auto& t) -> Result<void> {
          if (auto r = ApplyInsert(w, t, a); !r) return tl::unexpected(r.error());
          if (auto r = ApplyInsert(w, t, b); !r) return tl::unexpected(r.error());
          Entity change = Make("p", "a", {{"Y", EdmValue::Int32(2)}});
          if (auto r = ApplyMerge(w, t, change, FormatETag(a.timestamp)); !r) {
            return tl::unexpected(r.error());
          }
          return ApplyDelete(w, t, "p", "b", FormatETag(b.timestamp));
        }) == "ok");
  CHECK(Get("p", "a")->properties.size() == 2);
  CHECK(!Get("p", "b"));
}

}  // namespace
}  // namespace malachite::server
