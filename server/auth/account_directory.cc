#include "server/auth/account_directory.h"

#include <algorithm>
#include <functional>

#include "common/encoding.h"

namespace malachite::server {
namespace {

// Generations come from one counter, so a thread's cached (directory, generation) pair can never
// match a different directory that happens to reuse the address of a destroyed one.
std::atomic<std::uint64_t> next_generation{1};

char LowerAscii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool EqualsCaseless(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return LowerAscii(x) == LowerAscii(y);
         });
}

std::vector<HmacSha256Key> SigningKeys(const std::string& key1, const std::string& key2) {
  std::vector<HmacSha256Key> keys;
  for (const std::string* key : {&key1, &key2}) {
    if (key->empty()) continue;
    if (auto raw = Base64Decode(*key)) keys.emplace_back(*raw);
  }
  return keys;
}

const Account* FindInShard(const std::vector<std::shared_ptr<const Account>>& shard,
                           std::string_view name) {
  auto it =
      std::lower_bound(shard.begin(), shard.end(), name,
                       [](const auto& account, std::string_view n) { return account->name < n; });
  return it != shard.end() && (*it)->name == name ? it->get() : nullptr;
}

}  // namespace

std::size_t AccountSet::ShardOf(std::string_view name) {
  return std::hash<std::string_view>{}(name) % kShards;
}

const Account* AccountSet::Find(std::string_view name) const {
  // The configured accounts are few (usually devstoreaccount1 alone): a scan beats a hash.
  for (const auto& account : configured_) {
    if (account->name == name) return account.get();
  }
  if (runtime_count_ == 0) return nullptr;
  const auto& shard = shards_[ShardOf(name)];
  return shard ? FindInShard(*shard, name) : nullptr;
}

const Account* AccountSet::FindCaseless(std::string_view label) const {
  for (const auto& account : configured_) {
    if (EqualsCaseless(account->name, label)) return account.get();
  }
  if (runtime_count_ == 0 || label.size() > 24) return nullptr;
  // Runtime names are lower case (IsValidRuntimeAccountName).
  std::string lower(label);
  for (char& c : lower) c = LowerAscii(c);
  return Find(lower);
}

void AccountSet::ForEach(const std::function<void(const Account&)>& visit) const {
  for (const auto& account : configured_) visit(*account);
  for (const auto& shard : shards_) {
    if (!shard) continue;
    for (const auto& account : *shard) visit(*account);
  }
}

bool IsValidRuntimeAccountName(std::string_view name) {
  return name.size() >= 3 && name.size() <= 24 && std::all_of(name.begin(), name.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
         });
}

// Text, one field per line, so a data directory can be read with mdb_dump: a version line, key1,
// key2 (possibly empty), the creation time (ISO 8601).
std::string EncodeRuntimeAccount(const Account& account) {
  return "1\n" + account.key1 + "\n" + account.key2 + "\n" + FormatIso8601(account.created) + "\n";
}

Result<Account> DecodeRuntimeAccount(std::string_view name, std::string_view record) {
  std::vector<std::string_view> fields;
  while (!record.empty()) {
    const std::size_t end = record.find('\n');
    if (end == std::string_view::npos) break;
    fields.push_back(record.substr(0, end));
    record.remove_prefix(end + 1);
  }
  auto created = fields.size() == 4 ? ParseIso8601(fields[3]) : std::nullopt;
  if (fields.size() != 4 || fields[0] != "1" || !created || !record.empty()) {
    return Fail(ErrorCode::kInternalError,
                "the stored record of account '" + std::string(name) + "' is not readable");
  }
  Account account{std::string(name), std::string(fields[1]), std::string(fields[2]), {}, true,
                  *created};
  account.signing_keys = SigningKeys(account.key1, account.key2);
  if (account.signing_keys.empty()) {
    return Fail(ErrorCode::kInternalError,
                "the stored key of account '" + std::string(name) + "' is not base64");
  }
  return account;
}

AccountDirectory::AccountDirectory(const std::vector<AccountConfig>& configured)
    : generation_(next_generation.fetch_add(1)) {
  auto set = std::make_shared<AccountSet>();
  for (const AccountConfig& config : configured) {
    Account account{config.name, config.key1, config.key2, SigningKeys(config.key1, config.key2),
                    false,       DateTime{}};
    set->configured_.push_back(std::make_shared<const Account>(std::move(account)));
  }
  current_ = std::move(set);
}

std::shared_ptr<const AccountSet> AccountDirectory::Current() const {
  struct Cached {
    std::uint64_t generation = 0;
    std::shared_ptr<const AccountSet> set;
  };
  thread_local Cached cached;
  const std::uint64_t generation = generation_.load(std::memory_order_acquire);
  if (cached.generation != generation) {
    std::lock_guard lock(mutex_);
    cached.set = current_;
    cached.generation = generation_.load(std::memory_order_relaxed);
  }
  return cached.set;
}

Result<Account> AccountDirectory::MakeRuntime(std::string name, std::string key, DateTime created) {
  if (!IsValidRuntimeAccountName(name)) {
    return Fail(ErrorCode::kAccountNameInvalid,
                "'" + name +
                    "' is not a valid storage account name. Storage account name must be between "
                    "3 and 24 characters in length and use numbers and lower-case letters only.");
  }
  auto raw = Base64Decode(key);
  if (!raw || raw->empty()) {
    return Fail(ErrorCode::kInvalidInput, "The account key must be base64 of at least one byte.");
  }
  Account account{std::move(name), std::move(key), {}, {}, true, created};
  account.signing_keys.emplace_back(*raw);
  return account;
}

Result<void> AccountDirectory::Add(std::vector<Account> accounts) {
  std::lock_guard lock(mutex_);
  auto next = std::make_shared<AccountSet>(*current_);
  // The shards this call copied: owned by `next` alone until it is published, so changed in place.
  std::array<std::shared_ptr<AccountSet::Shard>, AccountSet::kShards> copies{};
  for (Account& account : accounts) {
    if (next->FindCaseless(account.name) != nullptr) {
      return Fail(ErrorCode::kStorageAccountAlreadyTaken,
                  "The storage account named " + account.name + " is already taken.");
    }
    const std::size_t index = AccountSet::ShardOf(account.name);
    auto& shard = copies[index];
    if (!shard) {
      const auto& old = next->shards_[index];
      shard =
          old ? std::make_shared<AccountSet::Shard>(*old) : std::make_shared<AccountSet::Shard>();
      next->shards_[index] = shard;
    }
    auto at = std::lower_bound(shard->begin(), shard->end(), account.name,
                               [](const auto& a, const std::string& n) { return a->name < n; });
    shard->insert(at, std::make_shared<const Account>(std::move(account)));
    ++next->runtime_count_;
  }
  Publish(std::move(next));
  return {};
}

Result<void> AccountDirectory::Remove(std::string_view name) {
  std::lock_guard lock(mutex_);
  const Account* found = current_->Find(name);
  if (found == nullptr) {
    return Fail(ErrorCode::kResourceNotFound,
                "The storage account '" + std::string(name) + "' does not exist.");
  }
  if (!found->runtime) {
    return Fail(ErrorCode::kOperationNotAllowed,
                "The storage account '" + std::string(name) +
                    "' is configured at startup (--accounts); only accounts made by POST "
                    "/-/accounts can be deleted.");
  }
  auto next = std::make_shared<AccountSet>(*current_);
  const std::size_t index = AccountSet::ShardOf(name);
  auto shard = std::make_shared<AccountSet::Shard>(*next->shards_[index]);
  std::erase_if(*shard, [&](const auto& account) { return account->name == name; });
  next->shards_[index] = std::move(shard);
  --next->runtime_count_;
  Publish(std::move(next));
  return {};
}

void AccountDirectory::Publish(std::shared_ptr<const AccountSet> next) {
  current_ = std::move(next);
  generation_.store(next_generation.fetch_add(1), std::memory_order_release);
}

}  // namespace malachite::server
