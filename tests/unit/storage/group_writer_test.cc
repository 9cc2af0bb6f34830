#include <atomic>
#include <catch2/catch.hpp>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "storage/lmdb_env.h"
#include "storage/lmdb_txn.h"
#include "storage/store_meta.h"
#include "tests/support/store_fixture.h"

namespace malachite::storage {
namespace {

using testing::StoreFixture;
using testing::TempDir;

// Holds the writer thread inside one request until the returned promise is set: the requests
// submitted meanwhile queue up and then form one group.
std::promise<void> HoldWriter(StoreFixture& f) {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  auto holding = std::make_shared<std::promise<void>>();
  f.store().Submit(
      [released, holding](WriteContext&) -> Result<void> {
        holding->set_value();
        released.wait();
        return {};
      },
      [](Result<void>) {});
  holding->get_future().wait();
  return release;
}

TEST_CASE("group_writer: many threads writing concurrently all succeed in fewer commits",
          "[storage]") {
  StoreFixture f({.durability = Durability::kFull});  // no inline commits: every write queues
  TableInfo t = f.CreateTable("acct", "Busy");
  StoreStats before = f.store().Stats();
  constexpr int kThreads = 8, kPerThread = 100;
  std::atomic<int> ok{0}, failed{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      for (int j = 0; j < kPerThread; ++j) {
        auto r = f.store().Write([&, i, j](WriteContext& ctx) -> Result<void> {
          return ctx.PutEntity(
              t, Entity{std::to_string(i), std::to_string(j), ctx.NextTimestamp(), {}});
        });
        (r ? ok : failed).fetch_add(1);
      }
    });
  }
  for (auto& th : threads) th.join();
  StoreStats after = f.store().Stats();
  CHECK(ok == kThreads * kPerThread);
  CHECK(failed == 0);
  CHECK(after.writes - before.writes == kThreads * kPerThread);
  CHECK(after.commits - before.commits < after.writes - before.writes);
  CHECK(f.Keys(t).size() == kThreads * kPerThread);
}

TEST_CASE("group_writer: a failing request rolls back alone while its group commits", "[storage]") {
  StoreFixture f;
  TableInfo t = f.CreateTable("acct", "Mixed");
  // Hold the writer inside one request so the next three queue up and form one group.
  std::promise<void> release = HoldWriter(f);
  StoreStats before = f.store().Stats();
  std::vector<std::promise<Result<void>>> results(3);
  auto put = [&](std::string rk, bool fail) {
    return [&t, rk, fail](WriteContext& ctx) -> Result<void> {
      auto ok = ctx.PutEntity(t, Entity{"p", rk, ctx.NextTimestamp(), {}});
      if (!ok) return ok;
      if (fail) return Fail(ErrorCode::kEntityAlreadyExists);
      return {};
    };
  };
  f.store().Submit(put("a", false), [&](Result<void> r) { results[0].set_value(r); });
  f.store().Submit(put("b", true), [&](Result<void> r) { results[1].set_value(r); });
  f.store().Submit(put("c", false), [&](Result<void> r) { results[2].set_value(r); });
  release.set_value();
  CHECK(results[0].get_future().get());
  auto failed = results[1].get_future().get();
  REQUIRE_FALSE(failed);
  CHECK(failed.error().code == ErrorCode::kEntityAlreadyExists);
  CHECK(results[2].get_future().get());
  StoreStats after = f.store().Stats();
  CHECK(after.commits - before.commits == 2);  // the held request's group, then the three
  CHECK(f.Keys(t) == std::vector<std::string>{"p/a", "p/c"});
}

TEST_CASE(
    "group_writer: a table found by one request of a group is found by the next, and not once a "
    "request deleted it or rolled back creating it",
    "[storage]") {
  StoreFixture f;
  TableInfo kept = f.CreateTable("acct", "Kept");
  TableInfo other = f.CreateTable("acct", "Other");
  std::promise<void> release = HoldWriter(f);  // the requests below form one group
  // What each request's FindTable saw: the table id, 0 when not found.
  std::vector<std::uint64_t> seen(7, 99);
  auto look = [&seen](std::size_t i, std::string name) {
    return [&seen, i, name](WriteContext& ctx) -> Result<std::optional<TableInfo>> {
      auto table = ctx.FindTable("acct", name);
      if (table) seen[i] = *table ? (*table)->id : 0;
      return table;
    };
  };
  // Request `i`: finds table `name` and writes the entity p/`rk` to it.
  auto put = [&look](std::size_t i, std::string name, std::string rk) {
    return [look, i, name, rk](WriteContext& ctx) -> Result<void> {
      auto found = look(i, name)(ctx);
      if (!found || !*found) return Fail(ErrorCode::kTableNotFound);
      return ctx.PutEntity(**found, Entity{"p", rk, ctx.NextTimestamp(), {}});
    };
  };
  std::vector<std::function<Result<void>(WriteContext&)>> group = {
      // 0: creates "Fresh", finds it, then fails: its creation rolls back.
      [&](WriteContext& ctx) -> Result<void> {
        if (auto created = ctx.CreateTable("acct", "Fresh"); !created) {
          return tl::unexpected(created.error());
        }
        if (auto found = look(0, "Fresh")(ctx); !found) return tl::unexpected(found.error());
        return Fail(ErrorCode::kEntityAlreadyExists);
      },
      // 1: must not see "Fresh".
      [&](WriteContext& ctx) -> Result<void> { return look(1, "Fresh")(ctx).map([](auto&&) {}); },
      // 2: finds "Kept" and writes to it.
      put(2, "Kept", "r"),
      // 3: deletes "Kept".
      [&](WriteContext& ctx) -> Result<void> {
        if (auto deleted = ctx.DeleteTable("acct", "Kept"); !deleted) {
          return tl::unexpected(deleted.error());
        }
        return look(3, "Other")(ctx).map([](auto&&) {});
      },
      // 4: must not see "Kept"; 5 and 6 find "Other" (the second from the first's lookup).
      [&](WriteContext& ctx) -> Result<void> { return look(4, "Kept")(ctx).map([](auto&&) {}); },
      put(5, "Other", "5"),
      put(6, "Other", "6"),
  };
  const StoreStats before = f.store().Stats();
  StoreStats after;
  std::vector<std::promise<Result<void>>> results(group.size());
  for (std::size_t i = 0; i < group.size(); ++i) {
    f.store().Submit(group[i], [&, i](Result<void> r) {
      // On the writer thread, right after the group's commit: before the reclaimer (woken by
      // the deleted table) can add writes and commits of its own.
      if (i + 1 == group.size()) after = f.store().Stats();
      results[i].set_value(r);
    });
  }
  release.set_value();
  std::vector<bool> ok;
  for (auto& result : results) ok.push_back(static_cast<bool>(result.get_future().get()));
  CHECK(ok == std::vector<bool>{false, true, true, true, true, true, true});
  CHECK(seen[0] != 0);
  CHECK(seen[1] == 0);
  CHECK(seen[2] == kept.id);
  CHECK(seen[3] == other.id);
  CHECK(seen[4] == 0);
  CHECK(seen[5] == other.id);
  CHECK(seen[6] == other.id);
  CHECK(f.Keys(other) == std::vector<std::string>{"p/5", "p/6"});
  // One group: the held request's commit, then the seven's.
  CHECK(after.writes - before.writes == 8);
  CHECK(after.commits - before.commits == 2);
}

TEST_CASE(
    "group_writer: timestamps strictly increase, also when the clock stalls or goes back "
    "and across a restart",
    "[storage]") {
  StoreFixture f;
  std::vector<std::int64_t> ticks;
  auto take = [&](int n) {
    REQUIRE(f.store().Write([&](WriteContext& ctx) -> Result<void> {
      for (int i = 0; i < n; ++i) ticks.push_back(ctx.NextTimestamp().ticks);
      return {};
    }));
  };
  take(3);
  CHECK(ticks[0] == f.clock().Now().ticks);
  f.clock().Advance(-1'000'000);
  take(2);
  f.Reopen();
  take(2);
  f.clock().Advance(10'000'000);
  take(1);
  for (std::size_t i = 1; i < ticks.size(); ++i) CHECK(ticks[i] > ticks[i - 1]);
  CHECK(ticks.back() == f.clock().Now().ticks);
}

// The Timestamp bound in "meta" of the closed store `f`.
std::int64_t PersistedBound(StoreFixture& f) {
  f.Close();
  const StoreOptions options = f.Options();
  auto env = LmdbEnv::Open({options.data_dir, options.map_size_bytes});
  REQUIRE(env);
  auto txn = LmdbTxn::Begin((*env)->get(), nullptr, MDB_RDONLY);
  REQUIRE(txn);
  auto bound = ReadMetaU64(txn->get(), (*env)->dbs().meta, kMetaLastTimestamp);
  REQUIRE(bound);
  REQUIRE(bound->has_value());
  return static_cast<std::int64_t>(**bound);
}

TEST_CASE(
    "group_writer: the persisted Timestamp bound moves only when Timestamps pass it, and a "
    "restart hands out Timestamps above it",
    "[storage]") {
  constexpr std::int64_t kLease = 1'000'000;  // 100 ms (group_writer.cc)
  StoreFixture f;
  auto take = [&f] {
    std::int64_t ticks = 0;
    REQUIRE(f.store().Write([&](WriteContext& ctx) -> Result<void> {
      ticks = ctx.NextTimestamp().ticks;
      return {};
    }));
    return ticks;
  };
  const std::int64_t first = take();
  f.clock().Advance(100'000);  // 10 ms: still under the bound the first commit set
  const std::int64_t second = take();
  CHECK(second == f.clock().Now().ticks);
  CHECK(PersistedBound(f) == first + kLease);

  f.Reopen();
  CHECK(take() == first + kLease + 1);  // above everything handed out before, clock or not

  f.clock().Advance(10'000'000);  // 1 s: past the bound
  const std::int64_t later = take();
  CHECK(later == f.clock().Now().ticks);
  CHECK(PersistedBound(f) == later + kLease);
  f.Reopen();
}

TEST_CASE("group_writer: an exception in a WriteFn fails only that request", "[storage]") {
  StoreFixture f;
  auto r = f.store().Write([](WriteContext&) -> Result<void> { throw std::runtime_error("boom"); });
  REQUIRE_FALSE(r);
  CHECK(r.error().code == ErrorCode::kInternalError);
  CHECK(f.store().Write([](WriteContext&) -> Result<void> { return {}; }));
}

TEST_CASE(
    "group_writer: TryWrite commits a lone write on the caller's thread when the writer idles",
    "[storage]") {
  StoreFixture f({.durability = Durability::kProcess});
  TableInfo t = f.CreateTable("acct", "Inline");
  StoreStats before = f.store().Stats();
  const auto caller = std::this_thread::get_id();
  std::thread::id ran_on;
  WriteFn put = [&](WriteContext& ctx) -> Result<void> {
    ran_on = std::this_thread::get_id();
    return ctx.PutEntity(t, Entity{"p", "a", ctx.NextTimestamp(), {}});
  };
  auto done = f.store().TryWrite(put);
  REQUIRE(done);
  CHECK(*done);
  CHECK(ran_on == caller);
  // A failing lone write rolls back alone, and its error comes back as Submit would report it.
  WriteFn fail = [&](WriteContext& ctx) -> Result<void> {
    auto ok = ctx.PutEntity(t, Entity{"p", "b", ctx.NextTimestamp(), {}});
    if (!ok) return ok;
    return Fail(ErrorCode::kEntityAlreadyExists);
  };
  auto failed = f.store().TryWrite(fail);
  REQUIRE(failed);
  REQUIRE_FALSE(*failed);
  CHECK(failed->error().code == ErrorCode::kEntityAlreadyExists);
  StoreStats after = f.store().Stats();
  CHECK(after.inline_commits - before.inline_commits == 1);  // the failed one committed nothing
  CHECK(after.writes - before.writes == 2);
  CHECK(f.Keys(t) == std::vector<std::string>{"p/a"});
}

TEST_CASE(
    "group_writer: TryWriteGroup commits several writes inline in order, in one commit, each "
    "rolling back alone",
    "[storage]") {
  StoreFixture f({.durability = Durability::kProcess});
  TableInfo t = f.CreateTable("acct", "Group");
  StoreStats before = f.store().Stats();
  const auto caller = std::this_thread::get_id();
  std::vector<std::string> order;
  auto put = [&](std::string rk) {
    return WriteFn([&, rk](WriteContext& ctx) -> Result<void> {
      order.push_back(rk);
      CHECK(std::this_thread::get_id() == caller);
      return ctx.PutEntity(t, Entity{"p", rk, ctx.NextTimestamp(), {}});
    });
  };
  // The second request writes, then fails: its write must not survive; its neighbours' must.
  WriteFn fail = [&](WriteContext& ctx) -> Result<void> {
    order.push_back("fail");
    auto ok = ctx.PutEntity(t, Entity{"p", "fail", ctx.NextTimestamp(), {}});
    if (!ok) return ok;
    return Fail(ErrorCode::kEntityAlreadyExists);
  };
  std::vector<WriteFn> fns{put("a"), std::move(fail), put("c")};
  auto results = f.store().TryWriteGroup(fns);
  REQUIRE(results);
  REQUIRE(results->size() == 3);
  CHECK((*results)[0]);
  REQUIRE_FALSE((*results)[1]);
  CHECK((*results)[1].error().code == ErrorCode::kEntityAlreadyExists);
  CHECK((*results)[2]);
  CHECK(order == std::vector<std::string>{"a", "fail", "c"});
  StoreStats after = f.store().Stats();
  CHECK(after.commits - before.commits == 1);
  CHECK(after.inline_commits - before.inline_commits == 1);
  CHECK(after.writes - before.writes == 3);
  CHECK(f.Keys(t) == std::vector<std::string>{"p/a", "p/c"});

  // Declined (full durability: a commit waits for its fsync): nothing runs, every fn untouched.
  StoreFixture full({.durability = Durability::kFull});
  bool called = false;
  std::vector<WriteFn> declined{[&](WriteContext&) -> Result<void> {
    called = true;
    return {};
  }};
  CHECK_FALSE(full.store().TryWriteGroup(declined));
  CHECK_FALSE(called);
  CHECK(declined.front());
}

TEST_CASE(
    "group_writer: TryWrite declines without blocking while a group commits, and in full mode",
    "[storage]") {
  StoreFixture f({.durability = Durability::kProcess});
  TableInfo t = f.CreateTable("acct", "Busy");
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::promise<void> holding;
  std::promise<Result<void>> held_done;
  f.store().Submit(
      [&](WriteContext&) -> Result<void> {
        holding.set_value();
        released.wait();
        return {};
      },
      [&](Result<void> r) { held_done.set_value(r); });
  holding.get_future().wait();
  bool called = false;
  WriteFn put = [&](WriteContext& ctx) -> Result<void> {
    called = true;
    return ctx.PutEntity(t, Entity{"p", "late", ctx.NextTimestamp(), {}});
  };
  CHECK_FALSE(f.store().TryWrite(put));
  CHECK_FALSE(called);
  REQUIRE(put);  // untouched: the caller submits it instead
  release.set_value();
  CHECK(held_done.get_future().get());
  const Result<void> late = f.store().Write(std::move(put));
  CHECK(late);
  CHECK(called);

  StoreFixture full({.durability = Durability::kFull});
  WriteFn noop = [](WriteContext&) -> Result<void> { return {}; };
  CHECK_FALSE(full.store().TryWrite(noop));
  CHECK(noop);
}

TEST_CASE("group_writer: the background flush syncs what was committed, and only then",
          "[storage]") {
  TempDir dir;
  StoreOptions options;
  options.data_dir = dir.path() + "/data";
  options.durability = Durability::kProcess;
  options.sync_interval = std::chrono::milliseconds(5);
  ManualClock clock(DateTime{kUnixEpochTicks});
  auto store = Store::Open(options, clock);
  REQUIRE(store);
  REQUIRE((*store)->Write([](WriteContext& ctx) -> Result<void> {
    auto created = ctx.CreateTable("acct", "Flushed");
    if (!created) return tl::unexpected<Error>(created.error());
    return {};
  }));
  // Bounded wait for the flusher's next interval (not a timing assertion: any delay passes).
  for (int i = 0; i < 2000 && (*store)->Stats().syncs == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  const std::uint64_t synced = (*store)->Stats().syncs;
  CHECK(synced >= 1);
  // Nothing committed since: later intervals have nothing to sync.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK((*store)->Stats().syncs == synced);
}

}  // namespace
}  // namespace malachite::storage
