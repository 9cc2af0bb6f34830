// libFuzzer target for the $batch body parser (spec §7.2): untrusted bytes through
// ParseBatchBody, then every decoded operation through the router and the entity-write decoder,
// exactly as HandleBatch would before touching the store. The first input line is the
// Content-Type (so the boundary parameter is fuzzed too), the rest the body.
//
// With clang: cmake -DCMAKE_CXX_COMPILER=clang++ -DMALACHITE_FUZZ=ON, then
//   build/tests/fuzz/multipart_fuzz -max_total_time=60
// Without clang, tests/fuzz/multipart_fuzz_driver_test.cc runs this entry point on random
// mutations of the seed bodies under the normal test build.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "server/http/route.h"
#include "server/http/router.h"
#include "server/ops/entity_write.h"
#include "server/wire/multipart.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace malachite;
  using namespace malachite::server;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = input.find('\n');
  const std::string_view type = newline == std::string_view::npos
                                    ? std::string_view("multipart/mixed; boundary=batch_b")
                                    : input.substr(0, newline);
  const std::string_view body =
      newline == std::string_view::npos ? input : input.substr(newline + 1);
  auto batch = ParseBatchBody(type, body);
  if (!batch) {
    // Every framing failure is the service's 400 InvalidInput, never anything else.
    if (batch.error().code != ErrorCode::kInvalidInput) std::abort();
    return 0;
  }
  if (batch->operations.size() > kMaxBatchOperations) std::abort();
  if (!batch->changeset && batch->operations.size() != 1) std::abort();
  for (const BatchOperation& operation : batch->operations) {
    auto route = RouteRequest(operation.request);
    if (route && IsEntityWrite(route->op)) (void)DecodeEntityWrite(operation.request, *route);
  }
  return 0;
}
