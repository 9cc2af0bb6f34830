// ReadView over one LMDB read transaction, and the EntityView that scans hand out.
#pragma once

#include <cstdint>
#include <string>

#include "storage/entity_codec.h"
#include "storage/lmdb_txn.h"
#include "storage/read_txn_pool.h"
#include "storage/store.h"
#include "storage/store_core.h"

namespace malachite::storage {

// An entity read in place: the keys are decoded into buffers the view reuses, the record stays in
// LMDB memory. Valid until the next Reset or the end of the read transaction.
class LmdbEntityView final : public EntityView {
 public:
  // Points the view at (encoded key, record), both in LMDB memory; false for a malformed record
  // header (EntityRecord::Parse names the problem). The key is decoded on first use: a scan whose
  // filter never reads the keys (a non-key $filter) does not pay for unescaping them. A malformed
  // key reads as empty keys and sets key_error(), which the scan turns into kInternalError.
  bool Reset(std::string_view key, std::string_view record) {
    key_ = key;
    keys_decoded_ = false;
    record_bytes_ = record;
    return record_.Reset(record);
  }

  std::string_view partition_key() const override {
    DecodeKeys();
    return pk_;
  }
  std::string_view row_key() const override {
    DecodeKeys();
    return rk_;
  }
  DateTime timestamp() const override { return record_.timestamp(); }
  std::optional<PropertyView> Get(std::string_view name) const override;
  Entity Decode() const override;
  std::string_view EncodedRecord() const override { return record_bytes_; }
  // True when the keys were read and the key bytes were malformed.
  bool key_error() const { return key_error_; }

 private:
  void DecodeKeys() const;

  std::string_view key_;
  std::string_view record_bytes_;
  mutable bool keys_decoded_ = false;
  mutable bool key_error_ = false;
  mutable std::string_view pk_;  // into key_, or into keys_
  mutable std::string_view rk_;
  mutable std::string keys_;  // decoded keys that differ from their encoding (reused row to row)
  EntityRecord record_;
};

class LmdbReadView final : public ReadView {
 public:
  // Reads in `txn` (from `pool`), which goes back to `pool` when the view ends. `generation`:
  // the catalog generation `txn`'s snapshot shares found tables within (CatalogGeneration::After),
  // or kUnstable.
  LmdbReadView(const StoreCore& core, ReadTxnPool& pool, MDB_txn* txn, std::uint64_t generation)
      : core_(core), pool_(pool), txn_(txn), generation_(generation) {}
  ~LmdbReadView() override { pool_.Release(txn_); }
  LmdbReadView(const LmdbReadView&) = delete;
  LmdbReadView& operator=(const LmdbReadView&) = delete;

  Result<std::optional<TableInfo>> FindTable(std::string_view account,
                                             std::string_view name) override;
  Result<void> ScanTables(std::string_view account, std::string_view from_lower,
                          const std::function<bool(const TableInfo&)>& visit) override;
  Result<std::optional<Entity>> GetEntity(const TableInfo& table, std::string_view pk,
                                          std::string_view rk) override;
  Result<bool> VisitEntity(const TableInfo& table, std::string_view pk, std::string_view rk,
                           FunctionRef<void(const EntityView&)> visit) override;
  Result<void> ScanEntities(const TableInfo& table, const KeyRange& range,
                            FunctionRef<bool(const EntityView&)> visit) override;
  Result<std::optional<std::string>> GetTableAcl(const TableInfo& table) override;
  Result<std::optional<std::string>> GetServiceProperties(std::string_view account) override;
  Result<void> ScanRuntimeAccounts(
      const std::function<void(std::string_view, std::string_view)>& visit) override;
  StoreGeneration generation() const override { return {core_.generation.store_id(), generation_}; }

 private:
  const StoreCore& core_;
  ReadTxnPool& pool_;
  MDB_txn* const txn_;
  const std::uint64_t generation_;
  std::string key_buf_;
};

}  // namespace malachite::storage
