// The storage module's public face: one LMDB environment holding the table catalog and every
// entity, a read API over short-lived snapshots and a write API through a group-commit writer.
//
// LMDB: one writer at a time; a read transaction belongs to one thread and must end before the
// caller suspends (ARCHITECTURE.md rule 2) — ReadView is a stack object, never kept across a
// co_await. LMDB: long-lived readers stop page reuse and grow the file; keep ReadViews short.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/clock.h"
#include "common/durability.h"
#include "common/entity.h"
#include "common/error.h"
#include "common/function_ref.h"
#include "common/key_range.h"
#include "common/property_source.h"
#include "common/property_view.h"

namespace malachite::storage {

// What one compaction of data.mdb did (StoreOptions::on_compaction).
struct CompactionReport {
  bool at_open = false;            // at open; else while the store served
  std::uint64_t bytes_before = 0;  // data.mdb's size before
  std::uint64_t bytes_after = 0;   // and after (equal when it failed)
  // While serving: how long the writes waited (the copy and the swap); the reads waited only
  // for the swap.
  std::chrono::milliseconds took{0};
  std::optional<Error> error;  // why it failed: data.mdb is as it was
};

struct StoreOptions {
  std::string data_dir;  // created if missing
  // The most the LMDB map may grow to: the most data the store holds (storage/FORMAT.md, "The map
  // grows as needed").
  std::uint64_t map_size_bytes = 1ull << 40;
  // The map a new store starts with, grown as the data needs up to map_size_bytes. 0: the
  // system's (platform/map_size.h): all of map_size_bytes at once on POSIX, where a map is address
  // space and the file grows only with the data; 64 MiB on Windows, where the file is as large as
  // the map.
  std::uint64_t initial_map_size_bytes = 0;
  // Called after each growth of the map with (old size, new size) in bytes, on the writer thread
  // (keep it short: a log line); may be empty.
  std::function<void(std::uint64_t, std::uint64_t)> on_map_growth;
  // What an acknowledged write survives (common/durability.h). kProcess and kFull start a
  // background flush that fsyncs the environment every `sync_interval` when something was
  // committed since the last one, and once more when the store closes.
  Durability durability = Durability::kProcess;
  std::chrono::milliseconds sync_interval{1000};
  std::size_t max_batch = 256;  // most requests one group commit takes
  // Bytes of disk kept in <data_dir>/space.reserve and given back when a commit finds the disk
  // full, so deletes still commit (storage/FORMAT.md, "Full disks"). 0: no reserve, no alarm.
  std::uint64_t space_reserve_bytes = 2u << 20;
  // Compact data.mdb while opening when it pays (storage/compaction.h, CompactionPaysAtOpen: a
  // quarter or more of the file free after churn, the live data small enough to copy in a second
  // or two), so a restarted store is as fast and as small as a fresh one. A compaction that fails
  // (no room on the disk for the copy) is skipped: the store opens as it was. The server sets it;
  // the data tools (export of a stopped directory, say) leave the file alone.
  bool compact_at_open = false;
  // Compact data.mdb while the store serves, when it pays (CompactionPaysWhileServing, checked
  // every `compaction_check_interval` and after each compaction no sooner than
  // `compaction_min_interval`): a churned store gets its speed and its disk back without a
  // restart (storage/FORMAT.md, "Getting disk space back"). Writes wait while the copy is made.
  bool compact_while_serving = false;
  std::chrono::milliseconds compaction_check_interval{10'000};
  std::chrono::milliseconds compaction_min_interval{60'000};
  // Called after each compaction (at open, on the opening thread; while serving, on the
  // compaction's thread) and after each that failed; may be empty.
  std::function<void(const CompactionReport&)> on_compaction;
  // Called (on a background thread) when the background flush fails, e.g. EIO; may be empty.
  std::function<void(const Error&)> on_background_error;
};

// A table as the catalog knows it. `id` is never reused, so entities of a deleted table can
// never show through a new table of the same name.
struct TableInfo {
  std::string account;
  std::string name;  // as created (case preserved)
  std::uint64_t id = 0;
};

// An entity as stored, read lazily from LMDB memory. Valid only inside the visit callback.
// As a PropertySource (what $filter evaluates against during scans), Get(name) answers
// PartitionKey and RowKey (String), Timestamp (DateTime) and the custom property `name`
// (case-sensitive), decoded without materializing the entity; nullopt when absent.
class EntityView : public PropertySource {
 public:
  virtual std::string_view partition_key() const = 0;
  virtual std::string_view row_key() const = 0;
  virtual DateTime timestamp() const = 0;
  // A full copy, independent of LMDB memory.
  virtual Entity Decode() const = 0;
  // The entity's stored record (storage/FORMAT.md, "Entity records", read with EntityRecord),
  // without the keys; lives as the view does.
  virtual std::string_view EncodedRecord() const = 0;
};

// Which state of the catalog and the settings a snapshot sees, for caches above the store: a
// value read from two snapshots (or from Store::Generation and a snapshot) that compares equal and
// is stable means neither the catalog nor the settings changed between them (CatalogGeneration:
// every write transaction that changes either moves it).
struct StoreGeneration {
  std::uint64_t store_id = 0;    // tells stores apart in the process; 0: none
  std::uint64_t generation = 1;  // odd (CatalogGeneration::kUnstable): a change in flight
  bool stable() const { return store_id != 0 && generation % 2 == 0; }
  friend bool operator==(const StoreGeneration&, const StoreGeneration&) = default;
};

// A consistent snapshot (one LMDB read transaction). Move-only; ends when destroyed. While it lives
// the map cannot grow (storage/FORMAT.md, "The map grows as needed"), so a write that needs a
// growth waits for it: never wait for a write (Store::Write) while holding one.
// REQUIRES: used on one thread and destroyed before that thread suspends.
class ReadView {
 public:
  virtual ~ReadView() = default;
  // The table `name` (matched case-insensitively) of `account`, or nullopt.
  virtual Result<std::optional<TableInfo>> FindTable(std::string_view account,
                                                     std::string_view name) = 0;
  // Tables of `account` in case-insensitive name order, starting at the first whose lower-cased
  // name is >= `from_lower`. `visit` returns false to stop.
  virtual Result<void> ScanTables(std::string_view account, std::string_view from_lower,
                                  const std::function<bool(const TableInfo&)>& visit) = 0;
  // Point read; nullopt when absent.
  virtual Result<std::optional<Entity>> GetEntity(const TableInfo& table, std::string_view pk,
                                                  std::string_view rk) = 0;
  // Point read in place: calls `visit` once with the entity stored under (pk, rk), read where the
  // snapshot holds it (the view lives until `visit` returns); false, without calling it, when
  // there is none. Errors: kInternalError for a malformed record or key.
  virtual Result<bool> VisitEntity(const TableInfo& table, std::string_view pk, std::string_view rk,
                                   FunctionRef<void(const EntityView&)> visit) = 0;
  // Entities of `table` inside `range` in key order. `visit` returns false to stop; the view it
  // gets lives until it returns.
  virtual Result<void> ScanEntities(const TableInfo& table, const KeyRange& range,
                                    FunctionRef<bool(const EntityView&)> visit) = 0;
  // The ACL record of `table` as last written by WriteContext::SetTableAcl (opaque bytes: the
  // server decides the encoding), or nullopt when none was ever set.
  virtual Result<std::optional<std::string>> GetTableAcl(const TableInfo& table) = 0;
  // The service properties record of `account` (opaque, see SetServiceProperties), or nullopt.
  virtual Result<std::optional<std::string>> GetServiceProperties(std::string_view account) = 0;
  // The records of the accounts made at run time (PutRuntimeAccount), by name order: `visit(name,
  // record)`, the views living until the next call.
  virtual Result<void> ScanRuntimeAccounts(
      const std::function<void(std::string_view, std::string_view)>& visit) = 0;
  // The generation this snapshot sees; not stable when a change was in flight as it began.
  virtual StoreGeneration generation() const { return {}; }
};

// What one request may do inside the writer's transaction. Runs on the writer thread inside a
// nested transaction of the group commit: if the WriteFn returns an error, only its own changes
// roll back. Must not block or wait on other requests.
class WriteContext {
 public:
  virtual ~WriteContext() = default;
  // A Timestamp strictly greater than every one handed out before (in this process and stored).
  virtual DateTime NextTimestamp() = 0;
  virtual Result<std::optional<TableInfo>> FindTable(std::string_view account,
                                                     std::string_view name) = 0;
  // Creates the table; nullopt when a table of that name (case-insensitively) already exists.
  virtual Result<std::optional<TableInfo>> CreateTable(std::string_view account,
                                                       std::string_view name) = 0;
  // Removes the table from the catalog at once (O(1)); its entities are reclaimed in the
  // background. False when there was no such table.
  virtual Result<bool> DeleteTable(std::string_view account, std::string_view name) = 0;
  virtual Result<std::optional<Entity>> GetEntity(const TableInfo& table, std::string_view pk,
                                                  std::string_view rk) = 0;
  // Inserts or overwrites the entity stored under (entity.partition_key, entity.row_key),
  // exactly as given (timestamp included).
  virtual Result<void> PutEntity(const TableInfo& table, const Entity& entity) = 0;
  // Stamps `entity` with the next Timestamp (as NextTimestamp) and stores it, unless an entity
  // is stored under its keys: false then, nothing is written and no Timestamp is used (Insert
  // Entity without a separate read).
  virtual Result<bool> InsertEntity(const TableInfo& table, Entity& entity) = 0;
  // False when absent.
  virtual Result<bool> DeleteEntity(const TableInfo& table, std::string_view pk,
                                    std::string_view rk) = 0;
  // Replaces the ACL record of `table` (opaque bytes; DeleteTable removes it). Errors:
  // kTableNotFound when `table` was deleted since it was looked up.
  virtual Result<void> SetTableAcl(const TableInfo& table, std::string_view record) = 0;
  // The service properties record of `account`, or nullopt (read inside the write, so a partial
  // update can merge with the current record atomically).
  virtual Result<std::optional<std::string>> GetServiceProperties(std::string_view account) = 0;
  // Replaces the service properties record of `account` (opaque bytes).
  virtual Result<void> SetServiceProperties(std::string_view account, std::string_view record) = 0;
  // Stores (replacing) the record of an account made at run time (opaque bytes), or removes it;
  // removing an absent one is not an error. Both remove the account's service properties (a new
  // account starts with the defaults). The account's tables are the caller's to delete
  // (DeleteAccountTables), in the same write.
  virtual Result<void> PutRuntimeAccount(std::string_view account, std::string_view record) = 0;
  virtual Result<void> DeleteRuntimeAccount(std::string_view account) = 0;
};

// A request's writes. It may run more than once: when LMDB finds the map full, the writer rolls it
// back, grows the map and runs it again (storage/FORMAT.md, "The map grows as needed"), and only
// the last run's changes and result count. So what it keeps outside the transaction must be
// overwritten by each run (assign what it reports, do not append to it), and what it reads it
// reads again.
using WriteFn = std::function<Result<void>(WriteContext&)>;
// Called once per submitted WriteFn on the writer thread, after the group's commit is durable
// (or with the WriteFn's own error, or with the commit's error, e.g.
// kInsufficientAccountResources for a full disk — then nothing of the group was applied).
using WriteDone = std::function<void(Result<void>)>;

// Counters of the group-commit writer (monotonic since Open).
struct StoreStats {
  std::uint64_t writes = 0;          // WriteFns run (user requests and background reclaim steps)
  std::uint64_t commits = 0;         // write transactions committed (one per group)
  std::uint64_t inline_commits = 0;  // of those, groups committed by TryWrite/TryWriteGroup
  std::uint64_t syncs = 0;           // background flushes that synced something
  std::uint64_t map_size_bytes = 0;  // the LMDB map's size now (a gauge)
  std::uint64_t map_growths = 0;     // times the map grew
  // data.mdb's pages (storage/page_stats.h; gauges, read at most once a second): those holding
  // data (and LMDB's own), and those free inside the file, which `malachite compact` gives back.
  std::uint64_t page_size_bytes = 0;
  std::uint64_t pages_live = 0;
  std::uint64_t pages_free = 0;
  std::uint64_t compactions = 0;  // compactions while serving that replaced data.mdb
};

class Store {
 public:
  // Opens (creating if needed) the environment in options.data_dir and starts the writer and the
  // background reclaimer. Errors: kInternalError with a one-line message (unusable dir, lock
  // held by another process, format version mismatch).
  static Result<std::unique_ptr<Store>> Open(const StoreOptions& options, const Clock& clock);
  virtual ~Store() = default;  // drains the writer, stops the reclaimer, closes LMDB

  // A new snapshot. Cheap (a kept read transaction renewed); waits while the map grows.
  virtual Result<std::unique_ptr<ReadView>> Read() = 0;
  // Queues `fn` for the next group commit; `done` runs on the writer thread (keep it short:
  // post back to the caller's executor).
  virtual void Submit(WriteFn fn, WriteDone done) = 0;
  // Commits `fn` at once on the calling thread, as a group of its own, when the writer is idle
  // and a commit does not wait for an fsync (durability kProcess or kNone); returns its result
  // (what Submit's `done` would get). Otherwise nullopt, with `fn` uncommitted: Submit it then
  // (also when it found the map full: the writer thread grows the map, which waits for readers).
  // Never blocks behind another writer; costs one LMDB commit without I/O wait, so an I/O thread
  // may call it. REQUIRES: the calling thread holds no ReadView.
  virtual std::optional<Result<void>> TryWrite(WriteFn& fn) = 0;
  // TryWrite for several writes gathered by one caller: when it may commit inline (as TryWrite),
  // runs fns[0], fns[1], ... in that order, each in its own nested transaction of one commit, and
  // returns their results. A group that grows too big for one transaction, or whose fns[k] finds
  // the map full (the writer thread grows it), stops early: the result has fewer entries than
  // `fns`, and fns[result.size()...] are uncommitted, as they came (Submit them). Otherwise
  // nullopt with every fn uncommitted, as it came. Same guarantees and REQUIRES as TryWrite.
  virtual std::optional<std::vector<Result<void>>> TryWriteGroup(std::span<WriteFn> fns) = 0;
  // TryWrite, else Submit and wait: for tests and tools, never on an I/O thread. REQUIRES: the
  // calling thread holds no ReadView.
  virtual Result<void> Write(WriteFn fn) = 0;
  // Blocks until background reclamation of deleted tables has finished (tests).
  virtual void WaitForReclaim() = 0;
  // Writer counters; commits < writes shows group commit at work.
  virtual StoreStats Stats() const { return {}; }
  // Whether the space alarm is raised (the data disk was full: writes that add data are refused,
  // deletes are served; storage/FORMAT.md, "Full disks"). One relaxed atomic load.
  virtual bool SpaceAlarmRaised() const { return false; }
  // The generation a snapshot begun now would see, without beginning one: a value cached with a
  // snapshot's equal, stable generation is still what the store holds. One atomic load.
  virtual StoreGeneration Generation() const { return {}; }
  // Copies the environment consistently into `dest_dir` (storage/backup.h, CopyEnvironment):
  // every write whose commit finished before the call is in the copy. Blocks for the copy's
  // duration (run it off I/O threads); writers and readers go on meanwhile. Thread-safe. Returns
  // the size of the copy. Errors: those of CopyEnvironment.
  virtual Result<std::uint64_t> Backup(const std::string& dest_dir) = 0;
  // Compacts data.mdb now, while serving (StoreOptions::compact_while_serving does it when it
  // pays): writes wait meanwhile, reads only while the environment is swapped. Blocks (run it off
  // I/O threads). REQUIRES: the calling thread holds no ReadView. Errors: those of
  // LmdbEnv::CompactInPlace; data.mdb is then as it was, unless the store broke (every later
  // read and write fails with that error).
  virtual Result<CompactionReport> Compact() = 0;
};

}  // namespace malachite::storage
