// The emulator's data endpoints under /-/ (outside the Table API): resetting accounts between
// tests and hot backups. Both block (a store write, a copy of the environment), so they answer
// through an AdminJob that the session runs off the I/O threads.
//
//   POST /-/reset[?account=<name>][&seed=false]
//       Deletes every table of the account (all configured accounts without ?account=) in one
//       write, O(tables): the entities go to the background reclaimer. Then, unless seed=false,
//       writes the --seed fixtures of those accounts in the same write. 200 with a JSON
//       summary; 400 for an unknown account or parameter.
//   POST /-/backup?dest=<dir>
//       Copies the live environment consistently (every write acknowledged before the request
//       arrived is in it) and compacted into <dir> on the server's file system, which must not
//       exist or be empty. 200 with {"dest":..,"bytes":..,"ms":..}; 400 for a bad dest.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/clock.h"
#include "common/error.h"
#include "common/table_content.h"
#include "server/auth/account_directory.h"
#include "server/http/message.h"
#include "storage/store.h"

namespace malachite::server {

// Work an admin endpoint hands back because it blocks: the caller runs it on a thread that may
// block and then sends `response`.
using AdminJob = std::function<void(Response&)>;

// What the data endpoints work on. Owned by the caller of HandleAdminRequest.
struct DataEndpoints {
  storage::Store* store = nullptr;
  std::vector<std::string> accounts;  // the configured accounts, reset by a bare /-/reset
  std::vector<TableContent> seed;     // the --seed fixtures (any account)
  // The live accounts (/-/accounts, and /-/reset?account= of a runtime account) and the clock
  // stamping their creation. Null directory: /-/accounts answers 404 and ?account= takes
  // configured accounts only.
  AccountDirectory* directory = nullptr;
  const Clock* clock = nullptr;
  // Called with an account's name once its deletion committed (DELETE /-/accounts/<name>, and
  // POST /-/accounts clearing what an earlier account of the name left): forgets what the server
  // keeps about it outside the store (Service::ForgetAccount). Thread-safe. Null: nothing kept.
  std::function<void(std::string_view account)> forget_account = nullptr;
};

// True for /-/reset and /-/backup.
bool IsDataPath(std::string_view path);

// Answers `request` at once (405, 400) or returns the job that answers it.
// REQUIRES: IsDataPath(path of request.target).
AdminJob HandleDataRequest(const DataEndpoints& data, const Request& request, Response& response);

struct ResetSummary {
  std::size_t tables_deleted = 0;
  std::size_t tables_seeded = 0;
  std::size_t entities_seeded = 0;
};

// In one store write: deletes every table of each of `accounts`, then creates the tables of
// `seed` that belong to those accounts and writes their entities (new Timestamps). Blocks until
// durable. Also what loads --seed on a fresh data directory. Errors: the store's.
Result<ResetSummary> ResetAccounts(storage::Store& store, const std::vector<std::string>& accounts,
                                   const std::vector<TableContent>& seed);

}  // namespace malachite::server
