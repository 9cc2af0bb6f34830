#include "common/error.h"

#include <catch2/catch.hpp>

namespace malachite {
namespace {

TEST_CASE("error: each ErrorCode's row carries its Azure code, status and message", "[common]") {
  CHECK(Describe(ErrorCode::kTableNotFound).code == "TableNotFound");
  CHECK(Describe(ErrorCode::kInvalidAuthenticationInfo).http_status == 400);
  CHECK(Describe(ErrorCode::kInvalidAuthenticationInfoBearer).code == "InvalidAuthenticationInfo");
  CHECK(Describe(ErrorCode::kInvalidAuthenticationInfoBearer).http_status == 401);
  CHECK(Describe(ErrorCode::kOperationNotAllowed).code == "OperationNotAllowed");
  CHECK(Error{ErrorCode::kServerBusy, {}, {}}.UserMessage() == "The server is busy.");
}

}  // namespace
}  // namespace malachite
