#include "common/function_ref.h"

#include <catch2/catch.hpp>
#include <functional>
#include <string>

namespace malachite {
namespace {

int Apply(FunctionRef<int(int)> f, int v) { return f(v); }

TEST_CASE("function_ref: calls the referenced callable, with its state, without copying it",
          "[common]") {
  int calls = 0;
  auto add = [&calls](int v) {
    ++calls;
    return v + 1;
  };
  CHECK(Apply(add, 1) == 2);
  CHECK(Apply(add, 41) == 42);
  CHECK(calls == 2);
  const std::function<int(int)> twice = [](int v) { return 2 * v; };
  CHECK(Apply(twice, 21) == 42);
  std::string seen;
  auto collect = [&seen](const std::string& s) { seen += s; };
  FunctionRef<void(const std::string&)> append = collect;  // refers to `collect`, a named lambda
  append("a");
  append("b");
  CHECK(seen == "ab");
}

}  // namespace
}  // namespace malachite
