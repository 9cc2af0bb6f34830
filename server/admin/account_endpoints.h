// Accounts made at run time: a test, or each test of a parallel suite, makes its own
// account with its own key, so suites sharing one emulator never see each other's tables.
//
//   POST /-/accounts            body: empty, or JSON {"name": "<3-24 a-z0-9>", "key": "<base64>"}
//       Makes an account (a generated name and a 64-byte random key when not given), durable
//       before the answer. 201 with JSON {"name","key","created","tableEndpoint",
//       "connectionString","hostStyleTableEndpoint","hostStyleConnectionString"}: endpoints on
//       the Host the request was sent to ("http(s)://<Host>/<name>" and
//       "http(s)://<name>.localhost:<port>"). Errors, as the service renders them (JSON
//       odata.error, x-ms-error-code): 400 AccountNameInvalid, 400 InvalidInput (a key that is not
//       base64, a body that is not such an object), 409 StorageAccountAlreadyTaken.
//   GET /-/accounts
//       200 {"accounts":[{"name","key","runtime","created"?}...]}: configured accounts first.
//   DELETE /-/accounts/<name>
//       204. The account is unknown to the next request at once; its tables and its service
//       properties are deleted in the same write as its record (storage::DeleteAccount; the
//       entities reclaimed in the background, as Delete Table); once that write committed, the
//       server forgets it (DataEndpoints::forget_account): /-/metrics, /-/partitions and the
//       insight endpoints no longer name it. 404 ResourceNotFound; 409 OperationNotAllowed for a
//       configured account.
//
// Runtime accounts are stored in the data directory (storage/FORMAT.md, settings `U`) and served
// again after a restart; with --transient-accounts they are deleted with their data at shutdown
// (and at startup, should a killed process have left any).
#pragma once

#include <cstddef>
#include <string_view>

#include "common/clock.h"
#include "common/error.h"
#include "server/admin/data_endpoints.h"
#include "server/auth/account_directory.h"
#include "server/http/message.h"
#include "storage/store.h"

namespace malachite::server {

// True for /-/accounts and /-/accounts/<name>.
bool IsAccountsPath(std::string_view path);

// Answers `request` at once (GET, 405, 400) or returns the job that answers it (the writes).
// REQUIRES: IsAccountsPath(path of request.target); data.directory and data.clock set.
AdminJob HandleAccountsRequest(const DataEndpoints& data, const Request& request,
                               Response& response);

// At startup: the runtime accounts stored in `store` join `directory`; with `transient` they are
// deleted instead, with their tables and service properties (in one write). Returns how many it
// loaded (or deleted). Errors: the store's, and kInternalError for an unreadable record.
Result<std::size_t> LoadRuntimeAccounts(storage::Store& store, AccountDirectory& directory,
                                        bool transient);

// At shutdown under --transient-accounts: deletes every runtime account, its tables and its
// service properties in one write. Returns how many. Errors: the store's.
Result<std::size_t> DeleteRuntimeAccounts(storage::Store& store, AccountDirectory& directory);

}  // namespace malachite::server
