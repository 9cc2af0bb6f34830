// The accounts the server serves: the configured ones (devstoreaccount1, --accounts) and those
// made at run time (POST /-/accounts, server/admin/account_endpoints.h). Every request reads the
// set (authentication, host-style routing, the explorer); a few admin calls change it.
//
// Readers take an immutable snapshot without a lock in the steady state: a per-thread cached
// pointer, refreshed when the directory's generation moves (one atomic load per call). Writers
// copy what they change and publish a new snapshot under the directory's mutex. A snapshot is
// split into shards by name hash, so adding or removing one account among 10,000 copies one
// shard (~1/64 of the names), not all of them.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "common/datetime.h"
#include "common/error.h"
#include "config/server_config.h"
#include "server/auth/shared_key.h"

namespace malachite::server {

// One account. Immutable once in a snapshot.
struct Account {
  std::string name;
  std::string key1;                         // base64, as in connection strings
  std::string key2;                         // base64; empty when there is none
  std::vector<HmacSha256Key> signing_keys;  // key1 (and key2), decoded and ready to sign
  bool runtime = false;                     // made by POST /-/accounts (else configured)
  DateTime created{};                       // runtime accounts: when they were made
};

// An immutable set of accounts.
class AccountSet {
 public:
  // The account named exactly `name`, or null. The pointer lives as long as the set.
  const Account* Find(std::string_view name) const;
  // The account `label` names ignoring ASCII case (a host label), or null.
  const Account* FindCaseless(std::string_view label) const;
  // Every account: the configured ones in configuration order, then the runtime ones by shard
  // and name.
  void ForEach(const std::function<void(const Account&)>& visit) const;
  std::size_t size() const { return configured_.size() + runtime_count_; }
  std::size_t runtime_count() const { return runtime_count_; }

 private:
  friend class AccountDirectory;
  static constexpr std::size_t kShards = 64;
  using Shard = std::vector<std::shared_ptr<const Account>>;  // sorted by name
  static std::size_t ShardOf(std::string_view name);

  std::vector<std::shared_ptr<const Account>> configured_;
  std::array<std::shared_ptr<const Shard>, kShards> shards_;
  std::size_t runtime_count_ = 0;
};

// True for a name POST /-/accounts may give an account. Azure: a storage account name is 3 to
// 24 characters, digits and lower-case letters only.
bool IsValidRuntimeAccountName(std::string_view name);

// The record PutRuntimeAccount stores for `account` (storage/FORMAT.md, settings `U`), and back.
std::string EncodeRuntimeAccount(const Account& account);
// Errors: kInternalError naming the account when the record is not one EncodeRuntimeAccount made.
Result<Account> DecodeRuntimeAccount(std::string_view name, std::string_view record);

class AccountDirectory {
 public:
  // The configured accounts. REQUIRES: their keys are base64 (ParseArgs checked them).
  explicit AccountDirectory(const std::vector<AccountConfig>& configured);
  AccountDirectory(const AccountDirectory&) = delete;
  AccountDirectory& operator=(const AccountDirectory&) = delete;

  // The current set. Lock-free unless the set changed since this thread last looked; the
  // snapshot stays valid however the directory changes afterwards.
  std::shared_ptr<const AccountSet> Current() const;

  // A runtime account made of `name` and `key` (base64), or the error POST /-/accounts answers:
  // kAccountNameInvalid (IsValidRuntimeAccountName), kInvalidInput (a key that is not base64 of
  // at least one byte). Does not touch the directory.
  static Result<Account> MakeRuntime(std::string name, std::string key, DateTime created);

  // Adds runtime accounts. Errors: kStorageAccountAlreadyTaken when a name is in use (by any
  // account, ASCII case ignored); then nothing is added.
  Result<void> Add(std::vector<Account> accounts);
  // Removes the runtime account `name`. Errors: kResourceNotFound (no such account),
  // kOperationNotAllowed (a configured account).
  Result<void> Remove(std::string_view name);

 private:
  // Publishes `next` as the current set. REQUIRES: mutex_ held.
  void Publish(std::shared_ptr<const AccountSet> next);

  mutable std::mutex mutex_;
  std::shared_ptr<const AccountSet> current_;  // guarded by mutex_
  std::atomic<std::uint64_t> generation_;      // unique among all directories of the process
};

}  // namespace malachite::server
