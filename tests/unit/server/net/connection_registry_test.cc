// The registry of open connections as plain values: near the open-file limit it closes the
// longest-idle connections first, never a busy one.
#include "server/net/connection_registry.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace malachite::server {

TEST_CASE("connection_registry: the longest-idle connections are closed first, never busy ones",
          "[limits]") {
  ConnectionRegistry registry(100);
  std::vector<std::string> closed;
  std::vector<std::unique_ptr<ConnectionRegistry::Registration>> connections;
  for (int i = 0; i < 5; ++i) {
    connections.push_back(std::make_unique<ConnectionRegistry::Registration>(
        registry, [&closed, i] { closed.push_back("c" + std::to_string(i)); }));
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  CHECK(registry.size() == 5);
  connections[0]->MarkBusy();  // working on a request
  connections[1]->MarkIdle();  // finished one just now: idle the shortest
  CHECK(registry.CloseLongestIdle(2) == 2);
  CHECK(closed == std::vector<std::string>{"c2", "c3"});
  // Already asked to close: not asked again.
  CHECK(registry.CloseLongestIdle(5) == 2);
  CHECK(closed == std::vector<std::string>{"c2", "c3", "c4", "c1"});
  connections.clear();
  CHECK(registry.size() == 0);
}

TEST_CASE("connection_registry: Trim closes idle connections only past the high-water mark",
          "[limits]") {
  ConnectionRegistry registry(32);
  int closed = 0;
  std::vector<std::unique_ptr<ConnectionRegistry::Registration>> connections;
  for (int i = 0; i < 32; ++i) {
    connections.push_back(
        std::make_unique<ConnectionRegistry::Registration>(registry, [&closed] { ++closed; }));
  }
  CHECK(registry.Trim() == 0);
  connections.push_back(
      std::make_unique<ConnectionRegistry::Registration>(registry, [&closed] { ++closed; }));
  // 33 open, high water 32: down to 32 - 32/16 = 30.
  CHECK(registry.Trim() == 3);
  CHECK(closed == 3);
  // Those three are still open (closing): they do not count again.
  CHECK(registry.Trim() == 0);
}

}  // namespace malachite::server
