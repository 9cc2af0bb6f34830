// malachite compact: gives a stopped data directory's free pages back to the disk
// (storage/compaction.h; storage/FORMAT.md, "Getting disk space back").
#include <cstdio>

#include "cli/cli_args.h"
#include "cli/cli_main.h"
#include "storage/compaction.h"
#include "storage/data_dir_lock.h"

namespace malachite::cli {
namespace {

int Fails(const std::string& message, int status) {
  std::fprintf(stderr, "malachite compact: %s\n", message.c_str());
  return status;
}

double MiB(std::uint64_t bytes) { return static_cast<double>(bytes) / (1 << 20); }

}  // namespace

int RunCompact(int argc, const char* const* argv, const char* const* envp) {
  (void)envp;
  static const std::vector<CliOption> options = {
      {"data-dir", "<dir>", "./data", "the stopped server's data directory to compact"},
      {"help", "", "", "print this help and exit"}};
  auto args = ParseCliArgs(argc, argv, 2, options);
  if (!args) return Fails(args.error().message, 2);
  if (args->Has("help")) {
    std::fputs(CliHelp("malachite compact [--data-dir DIR]",
                       "Rewrites a stopped server's data.mdb with its live data only, so the "
                       "space of deleted\ndata goes back to the disk. Nothing is lost: data.mdb "
                       "is replaced only by a complete,\nchecked and synced copy (a kill leaves "
                       "the old file). Needs room for the copy.",
                       options)
                   .c_str(),
               stdout);
    return 0;
  }
  if (!args->positional.empty()) return Fails("takes no arguments (--data-dir DIR)", 2);
  const std::string data_dir = args->Get("data-dir", "./data");
  auto done = storage::CompactDataDir(data_dir);
  if (!done) {
    std::string message = done.error().message;
    if (message.find(storage::kDataDirInUse) != std::string::npos) {
      message += ": stop the server first";
    }
    return Fails(message, 1);
  }
  std::printf("compacted %s: data.mdb %.1f MiB -> %.1f MiB (%s)\n", data_dir.c_str(),
              MiB(done->bytes_before), MiB(done->bytes_after), done->census.c_str());
  return 0;
}

}  // namespace malachite::cli
