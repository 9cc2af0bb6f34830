#include "storage/map_gate.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

namespace malachite::storage {
namespace {

using std::chrono::milliseconds;

TEST_CASE("map_gate: a growth waits for the readers inside, and readers arriving wait for it",
          "[storage]") {
  MapGate gate;
  const std::size_t stripe = MapGate::HomeStripe();
  REQUIRE(gate.Enter(stripe));  // a reader inside, on this thread

  std::atomic<bool> remapped{false};
  std::atomic<bool> reader_inside_during_remap{false};
  std::atomic<int> late_reader_state{0};  // 1: waiting to enter, 2: entered
  std::thread grower([&] {
    gate.Remap([&] {
      // The late reader must not be inside while the map is being replaced.
      std::this_thread::sleep_for(milliseconds(20));
      reader_inside_during_remap = late_reader_state.load() == 2;
      remapped = true;
    });
  });
  std::this_thread::sleep_for(milliseconds(20));
  CHECK_FALSE(remapped.load());  // held back by the reader inside

  std::thread late_reader([&] {
    late_reader_state = 1;
    const std::size_t own = MapGate::HomeStripe();
    if (gate.Enter(own)) {
      late_reader_state = 2;
      gate.Leave(own);
    }
  });
  std::this_thread::sleep_for(milliseconds(20));
  CHECK(late_reader_state.load() == 1);  // the gate is closed

  gate.Leave(stripe);  // the reader inside leaves: the growth runs, then the late reader enters
  grower.join();
  late_reader.join();
  CHECK(remapped.load());
  CHECK_FALSE(reader_inside_during_remap.load());
  CHECK(late_reader_state.load() == 2);
}

TEST_CASE("map_gate: a reader may leave through another thread's stripe than it entered by",
          "[storage]") {
  MapGate gate;
  const std::size_t here = MapGate::HomeStripe();
  REQUIRE(gate.Enter(here));
  // ReadTxnPool::Release may run on another thread: the grower counts the stripes' sum.
  std::thread([&] { gate.Leave(MapGate::HomeStripe()); }).join();
  bool remapped = false;
  gate.Remap([&] { remapped = true; });
  CHECK(remapped);
  REQUIRE(gate.Enter(here));
  gate.Leave(here);
}

TEST_CASE("map_gate: a growth waits for a long reader with the gate still open to others",
          "[storage]") {
  MapGate gate;
  auto long_read = gate.EnterLong();
  std::atomic<bool> remapped{false};
  std::thread grower([&] { gate.Remap([&] { remapped = true; }); });
  std::this_thread::sleep_for(milliseconds(20));
  CHECK_FALSE(remapped.load());
  // A short reader still passes meanwhile.
  const std::size_t stripe = MapGate::HomeStripe();
  REQUIRE(gate.Enter(stripe));
  gate.Leave(stripe);
  long_read.unlock();
  grower.join();
  CHECK(remapped.load());
}

TEST_CASE("map_gate: once broken, every reader is refused at once with the growth's error",
          "[storage]") {
  MapGate gate;
  std::atomic<bool> refused{false};
  gate.Remap([&] { gate.Break(Error{ErrorCode::kInternalError, "map gone", "test"}); });
  std::thread reader([&] { refused = !gate.Enter(MapGate::HomeStripe()); });
  reader.join();
  CHECK(refused.load());
  CHECK(gate.broken());
  CHECK(gate.broken_error().message == "map gone");
  MapGate::Pass pass(gate);
  CHECK_FALSE(pass);
}

}  // namespace
}  // namespace malachite::storage
