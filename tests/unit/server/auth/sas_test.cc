// SAS vectors produced by the SDKs' own generators with the emulator key:
//   JS  @azure/data-tables generateTableSas / generateAccountSas (sv 2019-02-02)
//   Py  azure.data.tables generate_table_sas / generate_account_sas
// Each token must verify; its string-to-sign is pinned; one changed byte must fail.
#include "server/auth/sas.h"

#include <catch2/catch.hpp>

#include "common/datetime.h"
#include "common/encoding.h"
#include "config/server_config.h"
#include "server/auth/sas_authorize.h"
#include "server/http/router.h"

namespace malachite::server {
namespace {

constexpr std::string_view kJsTableSas =
    "sv=2019-02-02&spr=https%2Chttp&st=2024-01-01T00%3A00%3A00Z&se=2030-01-01T00%3A00%3A00Z&"
    "sip=127.0.0.1-127.0.0.2&sp=raud&sig=YxBtcu6LlK1D%2BxLX6orwrW1ALx8dXljmVEcpRJCHiAw%3D&"
    "tn=MyTable&srk=r1&spk=p1&epk=p9&erk=r9";
constexpr std::string_view kJsPolicySas =
    "sv=2019-02-02&si=policy1&sig=7fk7F8vYktbK9ITerPezirtr6NZNSL8zDLE5ET8adv8%3D&tn=MyTable";
constexpr std::string_view kJsAccountSas =
    "sv=2019-02-02&ss=t&srt=sco&st=2024-01-01T00%3A00%3A00Z&se=2030-01-01T00%3A00%3A00Z&"
    "sp=rwdlau&sig=48nWiz5f64EphgXUgglDER3ZA9urKITdec%2B1mjH%2FDWE%3D";
constexpr std::string_view kPyTableSas =
    "st=2024-01-01T00%3A00%3A00Z&se=2030-01-01T00%3A00%3A00Z&sp=ra&spr=https&sv=2019-02-02&"
    "tn=MyTable&spk=p1&epk=p9&sig=K72t9k7O5Iu%2BOZ%2BJgfL%2BDM/4/c1dtgv0tt2L8WFmoB0%3D";
constexpr std::string_view kPyAccountSas =
    "st=2024-01-01T00%3A00%3A00Z&se=2030-01-01T00%3A00%3A00Z&sp=rwdlacu&sv=2019-02-02&ss=t&"
    "srt=so&sig=Cy0CM/xNr2SPHZ7zbjD3vG9QEQxk5N8Hv04W1dUwwYs%3D";

const DateTime kNow = *ParseIso8601("2026-01-01T00:00:00Z");

std::vector<HmacSha256Key> Keys() { return {HmacSha256Key(*Base64Decode(kDevAccountKey))}; }

struct Signed {
  Request request;
  Route route;
};

Signed Make(std::string_view path, std::string_view token, bool secure = false,
            std::string remote = "127.0.0.1") {
  Signed s;
  s.request.method = "GET";
  s.request.target = std::string(path) + "?" + std::string(token);
  s.request.secure = secure;
  s.request.remote_address = std::move(remote);
  auto route = RouteRequest(s.request);
  REQUIRE(route);
  s.route = std::move(*route);
  return s;
}

// "ok" or "<code>: <message or detail>".
std::string Verify(const Signed& s, DateTime now = kNow, const PolicyLookup& lookup = {}) {
  auto grant =
      VerifySas(ParseSasToken(s.route.query), "devstoreaccount1", Keys(), s.request, now, lookup);
  if (grant) return "ok";
  const Error& e = grant.error();
  return std::string(e.AzureCode()) + ": " + (e.detail.empty() ? e.message : e.detail);
}

}  // namespace

TEST_CASE("sas: the JS table SAS signs the spec's string and verifies", "[sas]") {
  Signed s = Make("/devstoreaccount1/MyTable()", kJsTableSas);
  CHECK(TableSasStringToSign("devstoreaccount1", ParseSasToken(s.route.query)) ==
        "raud\n2024-01-01T00:00:00Z\n2030-01-01T00:00:00Z\n/table/devstoreaccount1/mytable\n\n"
        "127.0.0.1-127.0.0.2\nhttps,http\n2019-02-02\np1\nr1\np9\nr9");
  CHECK(Verify(s) == "ok");
}

TEST_CASE("sas: the Python table SAS and both account SAS forms verify", "[sas]") {
  CHECK(Verify(Make("/devstoreaccount1/MyTable()", kPyTableSas, true)) == "ok");
  Signed js = Make("/devstoreaccount1/Tables", kJsAccountSas);
  CHECK(AccountSasStringToSign("devstoreaccount1", ParseSasToken(js.route.query)) ==
        "devstoreaccount1\nrwdlau\nt\nsco\n2024-01-01T00:00:00Z\n2030-01-01T00:00:00Z\n\n\n"
        "2019-02-02\n");
  CHECK(Verify(js) == "ok");
  CHECK(Verify(Make("/devstoreaccount1/Tables", kPyAccountSas)) == "ok");
}

TEST_CASE("sas: a changed field breaks the signature with the string-to-sign as detail", "[sas]") {
  std::string token(kJsAccountSas);
  token.replace(token.find("sp=rwdlau"), 9, "sp=rwdlac");
  CHECK(Verify(Make("/devstoreaccount1/Tables", token)) ==
        "AuthenticationFailed: Signature did not match. String to sign used was "
        "devstoreaccount1\nrwdlac\nt\nsco\n2024-01-01T00:00:00Z\n2030-01-01T00:00:00Z\n\n\n"
        "2019-02-02\n");
}

TEST_CASE("sas: time window, source IP and protocol are enforced", "[sas]") {
  Signed s = Make("/devstoreaccount1/MyTable()", kJsTableSas);
  CHECK(Verify(s, *ParseIso8601("2023-12-31T23:59:59Z")) ==
        "AuthenticationFailed: Signature not valid in the specified time frame: Start [Mon, 01 "
        "Jan 2024 00:00:00 GMT] - Expiry [Tue, 01 Jan 2030 00:00:00 GMT] - Current [Sun, 31 Dec "
        "2023 23:59:59 GMT]");
  CHECK(Verify(s, *ParseIso8601("2030-01-01T00:00:01Z")).starts_with("AuthenticationFailed"));
  CHECK(Verify(Make("/devstoreaccount1/MyTable()", kJsTableSas, false, "127.0.0.3")) ==
        "AuthorizationSourceIPMismatch: This request is not authorized to perform this "
        "operation using this source IP 127.0.0.3.");
  CHECK(Verify(Make("/devstoreaccount1/MyTable()", kJsTableSas, false, "::ffff:127.0.0.2")) ==
        "ok");
  CHECK(Verify(Make("/devstoreaccount1/MyTable()", kPyTableSas, false)) ==
        "AuthorizationProtocolMismatch: ");
}

TEST_CASE("sas: a stored policy completes the token and is looked up at request time", "[sas]") {
  Signed s = Make("/devstoreaccount1/mytable()", kJsPolicySas);
  AccessPolicy policy{std::nullopt, ParseIso8601("2030-01-01T00:00:00Z"), "r"};
  std::string looked_up;
  PolicyLookup lookup = [&](std::string_view account, std::string_view table,
                            std::string_view id) -> Result<std::optional<AccessPolicy>> {
    looked_up = std::string(account) + "/" + std::string(table) + "/" + std::string(id);
    if (id != "policy1") return std::optional<AccessPolicy>();
    return std::optional<AccessPolicy>(policy);
  };
  CHECK(Verify(s, kNow, lookup) == "ok");
  CHECK(looked_up == "devstoreaccount1/MyTable/policy1");
  policy.expiry = ParseIso8601("2025-01-01T00:00:00Z");  // shortened after the token was issued
  CHECK(Verify(s, kNow, lookup)
            .starts_with("AuthenticationFailed: Signature not valid in the specified time frame"));
  policy = AccessPolicy{};  // no expiry anywhere
  CHECK(Verify(s, kNow, lookup) ==
        "AuthenticationFailed: Signed expiry must be specified in signature or SAS identifier");
  CHECK(Verify(s, kNow, {}) ==
        "AuthenticationFailed: SAS identifier cannot be found for specified signed identifier");
}

TEST_CASE("sas: malformed tokens fail with AuthenticationFailed", "[sas]") {
  CHECK(Verify(Make("/devstoreaccount1/tab1()", "sig=abc&tn=tab1")) ==
        "AuthenticationFailed: sv is mandatory. Cannot be empty");
  CHECK(Verify(
            Make("/devstoreaccount1/tab1()", "sv=2011-08-18&sig=abc&tn=tab1&sp=r&se=2030-01-01")) ==
        "AuthenticationFailed: Table SAS requires signed version (sv) 2012-02-12 or later");
  CHECK(Verify(Make("/devstoreaccount1/tab1()", "sv=2019-02-02&sig=abc&tn=tab1&srk=a")) ==
        "AuthenticationFailed: spk is required when srk is provided");
  CHECK(Verify(Make("/devstoreaccount1/Tables", "sv=2019-02-02&sig=abc")) ==
        "AuthenticationFailed: The SAS names neither a table (tn) nor services and resource "
        "types (ss, srt)");
  CHECK(Verify(Make("/devstoreaccount1/Tables",
                    "sv=2019-02-02&ss=t&srt=x&sp=r&se=2030-01-01&"
                    "sig=abc")) ==
        "AuthenticationFailed: Invalid signed resource types (srt): 'x'");
}

TEST_CASE("sas: account SAS permission matrix per operation", "[sas]") {
  SasGrant grant;
  grant.account_sas = true;
  auto check = [&](Operation op) -> std::string {
    auto ok = AuthorizeSasOperation(grant, op, "t1");
    return ok ? "ok" : std::string(ok.error().AzureCode());
  };
  grant.resource_types = kSasObject;
  grant.permissions = kSasRead | kSasAdd;
  CHECK(check(Operation::kQueryEntities) == "ok");
  CHECK(check(Operation::kInsertEntity) == "ok");
  CHECK(check(Operation::kInsertOrMergeEntity) == "AuthorizationPermissionMismatch");
  CHECK(check(Operation::kUpdateEntity) == "AuthorizationPermissionMismatch");
  CHECK(check(Operation::kQueryTables) == "AuthorizationResourceTypeMismatch");
  CHECK(check(Operation::kGetTableAcl) == "AuthorizationFailure");
  grant.permissions |= kSasUpdate;
  CHECK(check(Operation::kInsertOrReplaceEntity) == "ok");
  grant.resource_types = kSasContainer | kSasService;
  grant.permissions = kSasList | kSasWrite;
  CHECK(check(Operation::kQueryTables) == "ok");
  CHECK(check(Operation::kCreateTable) == "ok");
  CHECK(check(Operation::kDeleteTable) == "AuthorizationPermissionMismatch");
  CHECK(check(Operation::kSetServiceProperties) == "ok");
  CHECK(check(Operation::kGetServiceProperties) == "AuthorizationPermissionMismatch");
}

TEST_CASE("sas: table SAS grants entity operations on its own table only", "[sas]") {
  SasGrant grant;
  grant.table = "MyTable";
  grant.permissions = kSasRead | kSasUpdate;
  auto check = [&](Operation op, std::string_view table) -> std::string {
    auto ok = AuthorizeSasOperation(grant, op, table);
    return ok ? "ok" : std::string(ok.error().AzureCode());
  };
  CHECK(check(Operation::kQueryEntities, "mytable") == "ok");
  CHECK(check(Operation::kMergeEntity, "MYTABLE") == "ok");
  CHECK(check(Operation::kQueryEntities, "other") == "AuthorizationFailure");
  CHECK(check(Operation::kInsertEntity, "MyTable") == "AuthorizationPermissionMismatch");
  CHECK(check(Operation::kInsertOrMergeEntity, "MyTable") == "AuthorizationPermissionMismatch");
  CHECK(check(Operation::kQueryTables, "") == "AuthorizationFailure");
  CHECK(check(Operation::kCreateTable, "MyTable") == "AuthorizationFailure");
  CHECK(check(Operation::kSetTableAcl, "MyTable") == "AuthorizationFailure");
  CHECK(check(Operation::kGetServiceProperties, "") == "AuthorizationFailure");
}

TEST_CASE("sas: key ranges follow the spec's inclusive rules", "[sas]") {
  auto allowed = [](std::string_view token, std::string_view pk, std::string_view rk) {
    QueryParams query;
    std::string_view rest = token;
    while (!rest.empty()) {
      const std::size_t amp = rest.find('&');
      const std::string_view item = rest.substr(0, amp);
      const std::size_t eq = item.find('=');
      query.items.emplace_back(std::string(item.substr(0, eq)), std::string(item.substr(eq + 1)));
      rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
    }
    SasGrant grant;
    grant.table = "t1";
    grant.permissions = kSasRead;
    grant.range = SasKeyRange(ParseSasToken(query));
    return static_cast<bool>(AuthorizeSasEntity(&grant, Operation::kGetEntity, "t1", pk, rk));
  };
  CHECK(allowed("spk=b", "b", ""));
  CHECK_FALSE(allowed("spk=b", "a", "zzz"));
  CHECK(allowed("spk=b&srk=5", "b", "5"));
  CHECK_FALSE(allowed("spk=b&srk=5", "b", "4"));
  CHECK(allowed("spk=b&srk=5", "c", "0"));
  CHECK(allowed("epk=m", "m", "zzz"));
  CHECK_FALSE(allowed("epk=m", "ma", ""));
  CHECK(allowed("epk=m&erk=5", "m", "5"));
  CHECK_FALSE(allowed("epk=m&erk=5", "m", "6"));
  CHECK(allowed("spk=test&srk=test1&epk=test&erk=test1", "test", "test1"));
  CHECK_FALSE(allowed("spk=test&srk=test1&epk=test&erk=test1", "pk001", "rk001"));
}

TEST_CASE("sas: signed times accept the documented forms", "[sas]") {
  CHECK(FormatIso8601(*ParseSignedTime("2024-03-01")) == "2024-03-01T00:00:00Z");
  CHECK(FormatIso8601(*ParseSignedTime("2024-03-01T10:20Z")) == "2024-03-01T10:20:00Z");
  CHECK(FormatIso8601(*ParseSignedTime("2024-03-01T10:20+01:00")) == "2024-03-01T09:20:00Z");
  CHECK(FormatIso8601(*ParseSignedTime("2024-03-01T10:20:30.1234567Z")) ==
        "2024-03-01T10:20:30.1234567Z");
  CHECK_FALSE(ParseSignedTime("2024-3-1"));
  CHECK_FALSE(ParseSignedTime("yesterday"));
}

}  // namespace malachite::server
