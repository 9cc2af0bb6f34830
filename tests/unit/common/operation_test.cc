#include "common/operation.h"

#include <catch2/catch.hpp>
#include <string>

namespace malachite {
namespace {

// The names of the operations whose traits satisfy `pick`, in enum order, space-separated.
template <typename Pick>
std::string NamesWhere(Pick pick) {
  std::string out;
  for (std::size_t i = 0; i < kOperationCount; ++i) {
    const OperationTraits& traits = TraitsOf(static_cast<Operation>(i));
    if (!pick(traits)) continue;
    if (!out.empty()) out += ' ';
    out += traits.name;
  }
  return out;
}

TEST_CASE("operation: every row of the traits table is the row of its own operation", "[common]") {
  for (std::size_t i = 0; i < kOperationCount; ++i) {
    CHECK(static_cast<std::size_t>(TraitsOf(static_cast<Operation>(i)).op) == i);
  }
  CHECK(OperationName(Operation::kPreflight) == "Preflight");
}

TEST_CASE(
    "operation: a SAS's key range is checked at authentication for the entity writes addressed "
    "by key",
    "[common]") {
  CHECK(NamesWhere([](const OperationTraits& t) { return t.sas_checks_route_keys; }) ==
        "UpdateEntity MergeEntity InsertOrReplaceEntity InsertOrMergeEntity DeleteEntity");
}

}  // namespace
}  // namespace malachite
