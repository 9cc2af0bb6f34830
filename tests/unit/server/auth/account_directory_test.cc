// AccountDirectory: the configured and runtime accounts, their snapshots and stored records.
#include "server/auth/account_directory.h"

#include <catch2/catch.hpp>
#include <thread>

#include "common/encoding.h"

namespace malachite::server {
namespace {

const std::string kKey = Base64Encode("a-key");

std::vector<AccountConfig> Configured() {
  return {{std::string(kDevAccountName), std::string(kDevAccountKey), {}},
          {"MixedCase", kKey, Base64Encode("second")}};
}

Account Runtime(std::string name) {
  return *AccountDirectory::MakeRuntime(std::move(name), kKey, DateTime{42});
}

std::string Names(const AccountSet& set) {
  std::string out;
  set.ForEach([&](const Account& a) { out += a.name + (a.runtime ? "* " : " "); });
  return out;
}

}  // namespace

TEST_CASE("account_directory: configured accounts are found exactly, hosts ignore case",
          "[accounts]") {
  AccountDirectory directory(Configured());
  auto set = directory.Current();
  REQUIRE(set->Find("devstoreaccount1") != nullptr);
  CHECK(set->Find("devstoreaccount1")->signing_keys.size() == 1);
  CHECK(set->Find("MixedCase")->signing_keys.size() == 2);
  CHECK(set->Find("mixedcase") == nullptr);
  REQUIRE(set->FindCaseless("MIXEDCASE") != nullptr);
  CHECK(set->FindCaseless("MIXEDCASE")->name == "MixedCase");
  CHECK(set->size() == 2);
  CHECK(Names(*set) == "devstoreaccount1 MixedCase ");
}

TEST_CASE("account_directory: runtime accounts join and leave, old snapshots stay whole",
          "[accounts]") {
  AccountDirectory directory(Configured());
  auto before = directory.Current();
  REQUIRE(directory.Add({Runtime("zeta1"), Runtime("alpha1")}));
  auto after = directory.Current();
  CHECK(before->Find("alpha1") == nullptr);
  CHECK(before->size() == 2);
  REQUIRE(after->Find("alpha1") != nullptr);
  CHECK(after->Find("alpha1")->runtime);
  CHECK(after->FindCaseless("ALPHA1")->name == "alpha1");
  CHECK(after->runtime_count() == 2);

  REQUIRE(directory.Remove("alpha1"));
  CHECK(directory.Current()->Find("alpha1") == nullptr);
  CHECK(after->Find("alpha1") != nullptr);  // the snapshot a request holds is unchanged
  CHECK(directory.Current()->Find("zeta1") != nullptr);
}

TEST_CASE("account_directory: names in use, invalid names and keys are refused", "[accounts]") {
  AccountDirectory directory(Configured());
  REQUIRE(directory.Add({Runtime("taken")}));
  CHECK(directory.Add({Runtime("taken")}).error().code == ErrorCode::kStorageAccountAlreadyTaken);
  // A configured name, whatever its case: host-style URLs could not tell them apart.
  CHECK(directory.Add({Runtime("mixedcase")}).error().code ==
        ErrorCode::kStorageAccountAlreadyTaken);
  // A refused batch adds nothing.
  CHECK(!directory.Add({Runtime("fresh1"), Runtime("taken")}));
  CHECK(directory.Current()->Find("fresh1") == nullptr);

  for (const char* bad : {"ab", "UPPER", "with-dash", "a234567890123456789012345", ""}) {
    CAPTURE(bad);
    CHECK(AccountDirectory::MakeRuntime(bad, kKey, DateTime{}).error().code ==
          ErrorCode::kAccountNameInvalid);
  }
  CHECK(AccountDirectory::MakeRuntime("abc", kKey, DateTime{}));
  CHECK(AccountDirectory::MakeRuntime("a23456789012345678901234", kKey, DateTime{}));
  CHECK(AccountDirectory::MakeRuntime("okname", "not base64!", DateTime{}).error().code ==
        ErrorCode::kInvalidInput);

  CHECK(directory.Remove("nobody").error().code == ErrorCode::kResourceNotFound);
  CHECK(directory.Remove("devstoreaccount1").error().code == ErrorCode::kOperationNotAllowed);
}

TEST_CASE("account_directory: the stored record round-trips", "[accounts]") {
  Account account = Runtime("stored1");
  account.key2 = Base64Encode("k2");
  const std::string record = EncodeRuntimeAccount(account);
  auto back = DecodeRuntimeAccount("stored1", record);
  REQUIRE(back);
  CHECK(back->name == "stored1");
  CHECK(back->key1 == kKey);
  CHECK(back->key2 == account.key2);
  CHECK(back->created.ticks == 42);
  CHECK(back->runtime);
  CHECK(back->signing_keys.size() == 2);
  CHECK(!DecodeRuntimeAccount("stored1", "2\nx\n\n0001-01-01T00:00:00Z\n"));
  CHECK(!DecodeRuntimeAccount("stored1", "garbage"));
}

TEST_CASE("account_directory: readers on other threads see every change", "[accounts]") {
  AccountDirectory directory(Configured());
  std::atomic<bool> stop{false};
  std::atomic<int> seen_max{0};
  std::thread reader([&] {
    while (!stop.load()) {
      auto set = directory.Current();
      seen_max.store(std::max<int>(seen_max.load(), static_cast<int>(set->runtime_count())));
    }
  });
  for (int i = 0; i < 200; ++i) REQUIRE(directory.Add({Runtime("acct" + std::to_string(i))}));
  while (seen_max.load() < 200) std::this_thread::yield();
  stop = true;
  reader.join();
  CHECK(directory.Current()->runtime_count() == 200);
  for (int i = 0; i < 200; ++i) CHECK(directory.Current()->Find("acct" + std::to_string(i)));
}

}  // namespace malachite::server
