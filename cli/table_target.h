// Where export reads and import writes: a stopped server's data directory (offline, through
// storage::Store) or a running server's endpoint (online, through the Table REST API). Both
// speak in Entities, so the file formats and the import logic do not care which it is.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cli/connection_string.h"
#include "common/entity.h"
#include "common/error.h"

namespace malachite::cli {

// What an import does with an entity that exists already.
enum class ImportMode {
  kUpsert,  // Insert Or Replace (the default: an import can be repeated or resumed)
  kMerge,   // Insert Or Merge
  kInsert,  // Insert: an existing entity fails with EntityAlreadyExists
};

// Why a group write failed: the error, which entity of the group caused it (when known), and
// whether trying again later may succeed (ServerBusy, timeouts, lost connections).
struct WriteFailure {
  Error error;
  std::optional<std::size_t> index;
  bool retryable = false;
};

class TableTarget {
 public:
  virtual ~TableTarget() = default;
  // "data directory ./data (account devstoreaccount1)", "http://127.0.0.1:10002/devstoreaccount1".
  virtual std::string Describe() const = 0;
  // The account's tables (names as created) in Query Tables order.
  virtual Result<std::vector<std::string>> ListTables() = 0;
  // Every entity of `table` in key order (with its Timestamp); `visit` returns false to stop.
  // Errors: kTableNotFound, transport and storage errors.
  virtual Result<void> ScanTable(const std::string& table,
                                 const std::function<bool(Entity&&)>& visit) = 0;
  // Creates `table` unless it exists (any case).
  virtual Result<void> EnsureTable(const std::string& table) = 0;
  // Writes `entities` (one partition, at most 100 online) all or nothing: one entity group
  // transaction online, one store write offline. With `keep_timestamps` (offline only) the
  // entities keep their Timestamp (and so their ETag). Thread-safe.
  virtual tl::expected<void, WriteFailure> WriteGroup(const std::string& table,
                                                      const std::vector<Entity>& entities,
                                                      ImportMode mode, bool keep_timestamps) = 0;
  // Most entities one WriteGroup may carry.
  virtual std::size_t max_group() const = 0;
  // True when WriteGroup needs every entity of a group in one partition.
  virtual bool groups_by_partition() const = 0;
};

// The data directory `data_dir` (server stopped), account `account`. With `create` the
// directory is created when missing (import); otherwise it must hold a store (export).
// Errors: kInvalidInput naming the directory when it is in use by a running server (with what
// to do instead) or holds no store; the store's own open errors.
Result<std::unique_ptr<TableTarget>> OpenStoreTarget(const std::string& data_dir,
                                                     const std::string& account, bool create);

// A running endpoint (Malachite, Azurite or Azure). Never fails: connection errors show on the
// first request.
std::unique_ptr<TableTarget> OpenHttpTarget(const TableEndpoint& endpoint);

}  // namespace malachite::cli
