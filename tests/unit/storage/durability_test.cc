// An acknowledged write survives kill -9 in both durability modes (process: committed to the page
// cache, synced in the background; full: synced before the acknowledgement): a child process
// writes and acknowledges through a pipe, the parent kills it mid-stream and checks every
// acknowledged entity is there.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <set>
#include <thread>

#include "common/clock.h"
#include "storage/store.h"
#include "tests/support/temp_dir.h"

namespace malachite::storage {
namespace {

using testing::TempDir;

struct Ack {
  std::int32_t writer;
  std::int32_t seq;
};

// `initial_map`: StoreOptions::initial_map_size_bytes (0: the system's); `payload`: bytes of a
// Binary property each entity carries.
[[noreturn]] void ChildWrites(const std::string& dir, Durability durability, int ack_fd,
                              std::uint64_t initial_map = 0, std::size_t payload = 0) {
  StoreOptions options;
  options.data_dir = dir;
  options.durability = durability;
  options.initial_map_size_bytes = initial_map;
  auto store = Store::Open(options, SystemClock::Instance());
  if (!store) _exit(2);
  TableInfo table;
  if (!(*store)->Write([&](WriteContext& ctx) -> Result<void> {
        table = **ctx.CreateTable("acct", "Durable");
        return {};
      })) {
    _exit(3);
  }
  std::vector<std::thread> writers;
  for (std::int32_t w = 0; w < 4; ++w) {
    writers.emplace_back([&, w] {
      for (std::int32_t seq = 0;; ++seq) {
        auto ok = (*store)->Write([&](WriteContext& ctx) -> Result<void> {
          Entity entity{std::to_string(w), std::to_string(seq), ctx.NextTimestamp(), {}};
          if (payload > 0) {
            entity.properties.push_back({"B", EdmValue::Binary(std::string(payload, 'b'))});
          }
          return ctx.PutEntity(table, entity);
        });
        if (!ok) _exit(4);
        Ack ack{w, seq};
        if (write(ack_fd, &ack, sizeof ack) != sizeof ack) _exit(5);  // atomic: < PIPE_BUF
      }
    });
  }
  for (auto& t : writers) t.join();
  _exit(0);
}

// Starts ChildWrites in a child process, kills it (SIGKILL) once it acknowledged `acks` writes,
// reopens the store with the same options and counts the acknowledged entities missing.
std::size_t MissingAfterKill(Durability durability, std::size_t acks, std::uint64_t initial_map = 0,
                             std::size_t payload = 0) {
  TempDir dir;
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    close(fds[0]);
    ChildWrites(dir.path() + "/data", durability, fds[1], initial_map, payload);
  }
  close(fds[1]);
  std::set<std::pair<int, int>> acked;
  Ack ack{};
  while (acked.size() < acks && read(fds[0], &ack, sizeof ack) == sizeof ack) {
    acked.insert({ack.writer, ack.seq});
  }
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  while (read(fds[0], &ack, sizeof ack) == sizeof ack) acked.insert({ack.writer, ack.seq});
  close(fds[0]);
  REQUIRE(acked.size() >= acks);
  CHECK(WIFSIGNALED(status));

  StoreOptions options;
  options.data_dir = dir.path() + "/data";
  options.durability = durability;
  options.initial_map_size_bytes = initial_map;
  auto store = Store::Open(options, SystemClock::Instance());
  REQUIRE(store);
  auto view = (*store)->Read();
  REQUIRE(view);
  auto table = (*view)->FindTable("acct", "durable");
  REQUIRE((table && *table));
  std::size_t missing = 0;
  for (auto [w, seq] : acked) {
    auto got = (*view)->GetEntity(**table, std::to_string(w), std::to_string(seq));
    REQUIRE(got);
    if (!*got) ++missing;
  }
  return missing;
}

TEST_CASE("durability: every acknowledged write survives kill -9 of the process", "[storage]") {
  // Store::Write commits inline (TryWrite) when it can and queues otherwise: with 4 writers
  // both paths run in process mode; full mode always queues.
  const Durability durability = GENERATE(Durability::kProcess, Durability::kFull);
  INFO("durability " << DurabilityName(durability));
  CHECK(MissingAfterKill(durability, 200) == 0);
}

TEST_CASE(
    "durability: every acknowledged write survives kill -9 while the map grows from 1 MiB, and "
    "the store reopens with its small initial map",
    "[storage]") {
  // 3,000 writes of 4 KB: about 12 MiB, so the map grew through 2, 4, 8 and 16 MiB, and the kill
  // may land in a growth (the writers keep going until the signal).
  CHECK(MissingAfterKill(Durability::kProcess, 3000, std::uint64_t{1} << 20, 4000) == 0);
}

}  // namespace
}  // namespace malachite::storage
