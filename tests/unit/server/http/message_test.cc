#include "server/http/message.h"

#include <catch2/catch.hpp>

namespace malachite::server {
namespace {

std::string Dump(const Response& response) {
  std::string out;
  for (const Header& header : response.headers) out += header.name + ": " + header.value + "\n";
  return out;
}

}  // namespace

TEST_CASE(
    "message: Response::Set replaces the first header of that name in place and drops the rest",
    "[http]") {
  Response response;
  response.headers = {{"ETag", "a"}, {"Content-Type", "text/plain"}, {"etag", "b"}, {"X", "1"}};
  response.Set("ETAG", "c");
  CHECK(Dump(response) == "ETag: c\nContent-Type: text/plain\nX: 1\n");
}

TEST_CASE("message: Response::Set appends a header the response does not have", "[http]") {
  Response response;
  response.headers = {{"X", "1"}};
  response.Set("Location", "http://h/t");
  CHECK(Dump(response) == "X: 1\nLocation: http://h/t\n");
  CHECK(response.Find("location") == "http://h/t");
}

}  // namespace malachite::server
