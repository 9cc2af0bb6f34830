// libFuzzer target for request routing (spec §1): an arbitrary method, request-target and headers
// through RouteRequest (host style on for two accounts), then the query options a handler parses
// next ($filter, $select).
// Input: "<METHOD> <target>\n<Name: value>\n..." (no space: the whole first line is the target
// of a GET). Invariants beyond "no crash": a refused request carries one of the codes route.h
// names; a routed one has an account, a table wherever the operation names one, and a method;
// $filter and $select fail only with the 400/501 codes their parsers document.
//
// With clang: scripts/fuzz url. In the GCC build, url_fuzz_driver_test.cc runs this entry point
// on mutations of the seeds.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "odata/filter.h"
#include "server/http/route.h"
#include "server/http/router.h"
#include "server/wire/entity_json_parse.h"
#include "server/wire/entity_json_render.h"
#include "server/wire/select.h"

namespace {

using namespace malachite;
using namespace malachite::server;

bool AllowedRouteError(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidUri:
    case ErrorCode::kUnsupportedHttpVerb:
    case ErrorCode::kXMethodIncorrectCount:
    case ErrorCode::kXMethodNotUsingPost:
    case ErrorCode::kXMethodIncorrectValue:
    case ErrorCode::kInvalidQueryParameterValue:
    case ErrorCode::kOutOfRangeInput:
    case ErrorCode::kInvalidResourceName:
      return true;
    default:
      return false;
  }
}

bool NamesTable(Operation op) {
  switch (op) {
    case Operation::kQueryTables:
    case Operation::kCreateTable:
    case Operation::kGetServiceProperties:
    case Operation::kSetServiceProperties:
    case Operation::kGetServiceStats:
    case Operation::kBatch:
    case Operation::kPreflight:
      return false;
    default:
      return true;
  }
}

Request ParseInput(std::string_view input) {
  Request request;
  std::size_t end = input.find('\n');
  std::string_view line = input.substr(0, end);
  const std::size_t space = line.find(' ');
  request.method = space == std::string_view::npos ? "GET" : std::string(line.substr(0, space));
  request.target = std::string(space == std::string_view::npos ? line : line.substr(space + 1));
  while (end != std::string_view::npos) {
    const std::size_t start = end + 1;
    end = input.find('\n', start);
    line = input.substr(start, end == std::string_view::npos ? end : end - start);
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    request.headers.push_back({std::string(line.substr(0, colon)), std::string(value)});
  }
  return request;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Request request = ParseInput(std::string_view(reinterpret_cast<const char*>(data), size));
  static const HostRouting routing{true, {"devstoreaccount1", "myacct"}, {}};
  Result<Route> route = RouteRequest(request, routing);
  if (!route) {
    if (!AllowedRouteError(route.error().code)) std::abort();
    return 0;
  }
  if (route->account.empty() || route->method.empty()) std::abort();
  if (OperationName(route->op).empty()) std::abort();
  if (NamesTable(route->op) && route->table.empty()) std::abort();
  if (const std::string* filter = route->query.Find("$filter"); filter && !filter->empty()) {
    auto parsed = odata::Filter::Parse(*filter);
    if (!parsed && parsed.error().code != ErrorCode::kInvalidInput &&
        parsed.error().code != ErrorCode::kNotImplemented) {
      std::abort();
    }
  }
  if (const std::string* select = route->query.Find("$select")) {
    auto parsed = ParseSelect(*select);
    if (!parsed && parsed.error().code != ErrorCode::kInvalidInput) std::abort();
  }
  return 0;
}
