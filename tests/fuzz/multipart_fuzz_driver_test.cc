// Runs the libFuzzer entry point of multipart_fuzz.cc without libFuzzer: random mutations of the
// seed bodies (byte flips, deletions, duplications, insertions of framing tokens, splices between
// seeds, truncations) for MALACHITE_FUZZ_SECONDS (default 2) seconds. A crash, a sanitizer report
// or an abort() of the target's invariants fails the run; the PRNG seed is printed so a failure
// can be replayed with MALACHITE_FUZZ_SEED.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "tests/fuzz/multipart_seeds.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

const std::vector<std::string> kTokens = {
    "\r\n", "\n", "\r\n\r\n", "--", "--batch_1", "--changeset_2", "--changeset_2--", "--batch_1--",
    ":", " ", "\t", "HTTP/1.1", "multipart/mixed; boundary=", "application/http", "Content-ID: 9",
    "If-Match: *", "X-HTTP-Method: PUT", "{", "}", "\"", "'", "%27", "(PartitionKey='p',RowKey='r')",
    "\xff", std::string(1, '\0'), "\"@odata.type\":\"Edm.Int64\""};

std::string Mutate(std::string input, const std::vector<std::string>& seeds, std::mt19937_64& rng) {
  auto pick = [&](std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng() % n); };
  const int rounds = 1 + static_cast<int>(pick(8));
  for (int i = 0; i < rounds; ++i) {
    const std::size_t at = pick(input.size() + 1);
    switch (pick(7)) {
      case 0:
        if (!input.empty()) input[pick(input.size())] = static_cast<char>(rng());
        break;
      case 1:
        input.erase(at, pick(16) + 1);
        break;
      case 2:
        input.insert(at, kTokens[pick(kTokens.size())]);
        break;
      case 3:
        input.insert(at, input.substr(pick(input.size() + 1), pick(64)));
        break;
      case 4: {
        const std::string& other = seeds[pick(seeds.size())];
        input = input.substr(0, at) + other.substr(pick(other.size() + 1));
        break;
      }
      case 5:
        input.resize(at);
        break;
      default:
        if (!input.empty()) input[pick(input.size())] ^= static_cast<char>(1u << pick(8));
    }
  }
  return input;
}

std::uint64_t EnvNumber(const char* name, std::uint64_t fallback) {
  const char* text = std::getenv(name);
  return text == nullptr ? fallback : std::strtoull(text, nullptr, 10);
}

}  // namespace

TEST_CASE("multipart_fuzz: random mutations of the seed bodies never crash the batch decoder",
          "[fuzz]") {
  const auto seeds = malachite::fuzz::MultipartSeeds();
  for (const std::string& seed : seeds) {
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(seed.data()), seed.size());
  }
  const std::uint64_t seed_value = EnvNumber(
      "MALACHITE_FUZZ_SEED",
      static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
  const auto budget = std::chrono::seconds(EnvNumber("MALACHITE_FUZZ_SECONDS", 2));
  std::cout << "multipart_fuzz: MALACHITE_FUZZ_SEED=" << seed_value << "\n";
  std::mt19937_64 rng(seed_value);
  const auto deadline = std::chrono::steady_clock::now() + budget;
  std::uint64_t runs = 0;
  std::string input;
  while (std::chrono::steady_clock::now() < deadline) {
    // Mostly mutate a seed; sometimes keep mutating the previous input to go deeper.
    if (runs % 4 == 0 || input.empty()) input = seeds[rng() % seeds.size()];
    input = Mutate(std::move(input), seeds, rng);
    if (input.size() > 64 * 1024) input.resize(64 * 1024);
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
    ++runs;
  }
  std::cout << "multipart_fuzz: " << runs << " inputs\n";
  CHECK(runs > 0);
}
