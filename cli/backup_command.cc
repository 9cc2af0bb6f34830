// malachite backup / restore: hot backups of a running server (through POST /-/backup) or of a
// stopped data directory, and restoring one into a stopped data directory.
#include <cstdio>
#include <filesystem>

#include "cli/cli_args.h"
#include "cli/cli_main.h"
#include "cli/table_client.h"
#include "server/http/url_coding.h"
#include "storage/backup.h"
#include "storage/data_dir_lock.h"
#include "storage/store.h"

namespace malachite::cli {
namespace {

namespace fs = std::filesystem;

std::vector<CliOption> WithHelp(std::vector<CliOption> list) {
  list.push_back({"help", "", "", "print this help and exit"});
  return list;
}

int Fails(const char* command, const std::string& message, int status) {
  std::fprintf(stderr, "malachite %s: %s\n", command, message.c_str());
  return status;
}

bool IsLoopback(const std::string& host) {
  return host == "localhost" || host.starts_with("127.") || host == "::1" || host == "[::1]";
}

int BackupOnline(const TableEndpoint& endpoint, std::string dest) {
  // The server writes DEST on its own file system: a relative path is made absolute here only
  // when that is this machine.
  if (IsLoopback(endpoint.host)) dest = fs::absolute(dest).lexically_normal().string();
  TableClient client(endpoint);
  auto reply = client.SendToRoot("POST", "/-/backup", "dest=" + server::PercentEncode(dest));
  if (!reply) return Fails("backup", reply.error().message, 1);
  if (reply->status != 200) {
    return Fails("backup",
                 "POST /-/backup answered " + std::to_string(reply->status) + ": " +
                     reply->body.substr(0, reply->body.find('\n')),
                 1);
  }
  std::fputs(reply->body.c_str(), stdout);
  return 0;
}

int BackupOffline(const std::string& data_dir, const std::string& dest) {
  std::error_code ec;
  if (!fs::exists(fs::path(data_dir) / "data.mdb", ec)) {
    return Fails("backup", "data directory " + data_dir + " holds no store", 1);
  }
  storage::StoreOptions options;
  options.data_dir = data_dir;
  auto store = storage::Store::Open(options, SystemClock::Instance());
  if (!store) {
    if (store.error().message.find(storage::kDataDirInUse) != std::string::npos) {
      return Fails("backup",
                   "data directory " + data_dir +
                       " is in use by a running server: back it up through the server with "
                       "--endpoint URL (or --connection-string)",
                   1);
    }
    return Fails("backup", store.error().message, 1);
  }
  auto bytes = (*store)->Backup(dest);
  if (!bytes) return Fails("backup", bytes.error().message, 1);
  std::printf("{\"dest\":\"%s\",\"bytes\":%llu}\n", dest.c_str(),
              static_cast<unsigned long long>(*bytes));
  return 0;
}

}  // namespace

int RunBackup(int argc, const char* const* argv, const char* const* envp) {
  static const std::vector<CliOption> options = WithHelp(LocationOptions());
  auto args = ParseCliArgs(argc, argv, 2, options);
  if (!args) return Fails("backup", args.error().message, 2);
  if (args->Has("help")) {
    std::fputs(CliHelp("malachite backup DEST [--data-dir DIR | --endpoint URL | ...]",
                       "Copies the store consistently and compacted into DEST (a new or empty "
                       "directory): a running\nserver copies itself while it serves (DEST is on "
                       "the server's machine); --data-dir copies a\nstopped server's directory.",
                       options)
                   .c_str(),
               stdout);
    return 0;
  }
  if (args->positional.size() != 1) return Fails("backup", "give one DEST directory", 2);
  auto endpoint = EndpointOf(*args, envp);
  if (!endpoint) return Fails("backup", endpoint.error().message, 2);
  if (*endpoint) return BackupOnline(**endpoint, args->positional[0]);
  return BackupOffline(args->Get("data-dir"), args->positional[0]);
}

int RunRestore(int argc, const char* const* argv, const char* const* envp) {
  (void)envp;
  static const std::vector<CliOption> options = WithHelp(
      {{"data-dir", "<dir>", "./data", "the stopped server's data directory to restore into"}});
  auto args = ParseCliArgs(argc, argv, 2, options);
  if (!args) return Fails("restore", args.error().message, 2);
  if (args->Has("help")) {
    std::fputs(CliHelp("malachite restore BACKUP [--data-dir DIR]",
                       "Replaces the data of a stopped server's directory with a backup "
                       "(malachite backup's DEST).",
                       options)
                   .c_str(),
               stdout);
    return 0;
  }
  if (args->positional.size() != 1) return Fails("restore", "give one BACKUP directory", 2);
  const std::string data_dir = args->Get("data-dir", "./data");
  auto restored = storage::RestoreDataDir(args->positional[0], data_dir);
  if (!restored) {
    std::string message = restored.error().message;
    if (message.find(storage::kDataDirInUse) != std::string::npos) {
      message += ": stop the server first";
    }
    return Fails("restore", message, 1);
  }
  std::printf("restored %s into %s (%llu bytes)\n", args->positional[0].c_str(), data_dir.c_str(),
              static_cast<unsigned long long>(restored->bytes));
  return 0;
}

}  // namespace malachite::cli
