// Query shapes (query_shape.h): a $filter with its literals replaced by ?, and the properties it
// looks up by equality, as the advisor groups and names queries.
#include "server/insight/query_shape.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace malachite::server {

TEST_CASE("query_shape: literals become ?, equality lookups are found among the and-terms",
          "[insight]") {
  CHECK(QueryShape("PartitionKey eq 'a' and Price gt 10.5") == "PartitionKey eq ? and Price gt ?");
  CHECK(QueryShape("(Qty eq 5L) or not (When lt datetime'2024-01-01T00:00:00Z')") ==
        "(Qty eq ?) or not (When lt ?)");
  CHECK(QueryShape("Flag eq true and Id eq guid'0b5a2c1e-7f1d-4c3b-9a8e-1234567890ab'") ==
        "Flag eq ? and Id eq ?");
  CHECK(QueryShape("") == "");
  CHECK(QueryShape("Name eq 'unterminated") == "Name eq ?");
  CHECK(QueryShape("Title eq 'it''s' and  Count ge -1.5e3") == "Title eq ? and Count ge ?");
  CHECK(EqualityProperties("PartitionKey eq 'p' and Email eq 'x' and Age gt 3 and Email eq 'y'") ==
        std::vector<std::string>{"Email"});
  CHECK(EqualityProperties("Email eq 'x' or Name eq 'y'").empty());
  CHECK(EqualityProperties("not valid").empty());
}

}  // namespace malachite::server
