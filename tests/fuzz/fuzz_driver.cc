#include "tests/fuzz/fuzz_driver.h"

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <random>

namespace malachite::fuzz {
namespace {

std::uint64_t EnvNumber(const char* name, std::uint64_t fallback) {
  const char* text = std::getenv(name);
  return text == nullptr ? fallback : std::strtoull(text, nullptr, 10);
}

// One to eight random edits. The mix follows the multipart driver: structure-aware tokens and
// splices find more than pure byte noise for text grammars.
std::string Mutate(std::string input, const std::vector<std::string>& seeds,
                   const std::vector<std::string>& tokens, std::mt19937_64& rng) {
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
        if (!tokens.empty()) input.insert(at, tokens[pick(tokens.size())]);
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

void Run(FuzzEntry entry, const std::string& input) {
  entry(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
}

}  // namespace

MutationRun RunMutations(std::string_view name, const std::vector<std::string>& seeds,
                         const std::vector<std::string>& tokens, FuzzEntry entry,
                         std::size_t max_size) {
  MutationRun run;
  run.prng_seed = EnvNumber(
      "MALACHITE_FUZZ_SEED",
      static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
  std::cout << name << ": MALACHITE_FUZZ_SEED=" << run.prng_seed << std::endl;
  for (const std::string& seed : seeds) Run(entry, seed);
  if (seeds.empty()) return run;
  std::mt19937_64 rng(run.prng_seed);
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::seconds(EnvNumber("MALACHITE_FUZZ_SECONDS", 2));
  std::string input;
  while (std::chrono::steady_clock::now() < deadline) {
    // Mostly mutate a seed; sometimes keep mutating the previous input to go deeper.
    if (run.inputs % 4 == 0 || input.empty()) input = seeds[rng() % seeds.size()];
    input = Mutate(std::move(input), seeds, tokens, rng);
    if (input.size() > max_size) input.resize(max_size);
    Run(entry, input);
    ++run.inputs;
  }
  std::cout << name << ": " << run.inputs << " inputs" << std::endl;
  return run;
}

}  // namespace malachite::fuzz
