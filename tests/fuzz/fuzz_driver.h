// The Catch2 side of the fuzz targets: runs a libFuzzer entry point (LLVMFuzzerTestOneInput) on its
// seeds and then on random mutations of them, in the normal GCC test build, without libFuzzer.
// A real libFuzzer binary (clang, -DMALACHITE_FUZZ=ON, scripts/fuzz) searches far deeper; this
// driver keeps every target exercised on every test run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace malachite::fuzz {

using FuzzEntry = int (*)(const std::uint8_t* data, std::size_t size);

struct MutationRun {
  std::uint64_t prng_seed = 0;  // replay a failure with MALACHITE_FUZZ_SEED=<prng_seed>
  std::uint64_t inputs = 0;     // mutated inputs run (seeds not counted)
};

// Runs `entry` on every seed, then on mutations (byte flips, deletions, duplications, insertions
// of `tokens`, splices between seeds, truncations) until MALACHITE_FUZZ_SECONDS (default 2)
// have passed. Prints `<name>: MALACHITE_FUZZ_SEED=<n>` first, so a crash can be replayed.
// Inputs are capped at `max_size` bytes. `seeds` must not be empty.
MutationRun RunMutations(std::string_view name, const std::vector<std::string>& seeds,
                         const std::vector<std::string>& tokens, FuzzEntry entry,
                         std::size_t max_size = 64 * 1024);

}  // namespace malachite::fuzz
