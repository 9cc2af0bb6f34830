// The advisor's findings of what the service does differently from Azurite
// (server/insight/detect_filter_types.cc, detect_refusals.cc), from traffic run through the whole
// pipeline (Service, a real store): $filter literals of another type than the stored property,
// values and changesets the service refuses, and what a SAS does not allow.
#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "common/datetime.h"
#include "common/encoding.h"
#include "server/auth/sas.h"
#include "server/auth/shared_key.h"
#include "server/http/router.h"
#include "server/http/url_coding.h"
#include "server/insight/advisor.h"
#include "server/pipeline/service.h"
#include "tests/unit/server/service_harness.h"

namespace malachite::server {
namespace {

const DateTime kStart = *ParseIso8601("2026-11-21T05:21:46Z");

class Fixture {
 public:
  Fixture() : host_(kStart, "malachite-advisor-azurite", testing::UnthrottledConfig()) {}

  // "<status>[ <x-ms-error-code>]" of a request signed with the account key (or, with `sign`
  // false, carrying a SAS in `target`).
  std::string Run(std::string method, std::string target, std::string body = {}, bool sign = true,
                  std::string content_type = "application/json") {
    exchange_.Reset();
    Request& request = exchange_.request;
    testing::MakeJsonRequest(request, std::move(method), std::move(target), std::move(body),
                             host_.clock().Now(), "application/json;odata=nometadata",
                             std::move(content_type));
    request.remote_address = "127.0.0.1";
    auto route = RouteRequest(request);
    REQUIRE(route);
    if (sign) testing::SignSharedKeyLite(request, *route);
    host_.Run(exchange_);
    return testing::StatusAndCode(exchange_.response);
  }

  // A table SAS for `table` (`fields`: "sp=r&se=..."), its signature last.
  static std::string TableSas(std::string_view table, std::string fields) {
    std::string query = "sv=2019-02-02&tn=" + std::string(table) + "&" + fields;
    Request request;
    request.method = "GET";
    request.target = "/devstoreaccount1/Tables?" + query;
    auto route = RouteRequest(request);
    REQUIRE(route);
    const std::string to_sign =
        TableSasStringToSign("devstoreaccount1", ParseSasToken(route->query));
    return query + "&sig=" +
           PercentEncode(ComputeSignature(*Base64Decode(kDevAccountKey), to_sign).value());
  }

  // The findings of category differs-from-azurite.
  std::vector<Finding> Differences() {
    std::vector<Finding> findings = host_.service().insight().Findings();
    std::erase_if(findings,
                  [](const Finding& f) { return f.category != Category::kDiffersFromAzurite; });
    return findings;
  }

  // "<table>/<id>" of each difference, in the advisor's order.
  std::string Ids() {
    std::string out;
    for (const Finding& f : Differences()) {
      out += (out.empty() ? "" : " ") + (f.table.empty() ? "(account)" : f.table) + "/" + f.id;
    }
    return out;
  }

  std::string AdvisorJson() { return host_.service().insight().AdvisorJson(); }
  const Response& response() const { return exchange_.response; }

 private:
  testing::ServiceHarness host_;
  Exchange exchange_;
};

std::string FactOf(const Finding& f, std::string_view name) {
  for (const auto& fact : f.facts) {
    if (fact.name == name) return fact.json;
  }
  return "(none)";
}

const Finding& Only(const std::vector<Finding>& findings, std::string_view id) {
  auto it =
      std::find_if(findings.begin(), findings.end(), [&](const Finding& f) { return f.id == id; });
  REQUIRE(it != findings.end());
  return *it;
}

std::string Encoded(std::string_view filter) { return PercentEncode(filter); }

}  // namespace

TEST_CASE(
    "advisor: $filter=Amount gt 50 on a Double Amount matches nothing in Azure, the finding "
    "names the types and gives Amount gt 50.0",
    "[advisor][azurite]") {
  Fixture f;
  REQUIRE(f.Run("POST", "Tables", R"({"TableName":"orders"})") == "201");
  for (int i = 0; i < 3; ++i) {
    REQUIRE(f.Run("POST", "orders",
                  fmt::format(R"({{"PartitionKey":"p","RowKey":"{}","Amount":{}.5}})", i,
                              40 + 20 * i)) == "201");
  }
  REQUIRE(f.Run("GET", "orders()?$filter=" + Encoded("Amount gt 50.0")) == "200");
  CHECK(f.response().body.find("\"RowKey\":\"1\"") != std::string::npos);
  CHECK(f.Ids() == "");  // a well-typed query is no finding

  REQUIRE(f.Run("GET", "orders()?$filter=" + Encoded("Amount gt 50")) == "200");
  CHECK(f.response().body == R"({"value":[]})");
  REQUIRE(f.Run("GET", "orders()?$filter=" + Encoded("Amount gt 50")) == "200");
  REQUIRE(f.Run("GET", "orders()?$filter=" + Encoded("Amount gt 70")) == "200");
  const auto findings = f.Differences();
  REQUIRE(f.Ids() == "orders/filter-type-mismatch");
  const Finding& m = findings.front();
  CHECK(m.severity == Severity::kWarning);
  CHECK(m.title ==
        "$filter compares Amount (Edm.Double) with an Edm.Int32 literal: Azure matches no entity");
  CHECK(m.evidence ==
        "3 queries compared Amount, which the entities hold as Edm.Double, with the Edm.Int32 "
        "literal 50 (e.g. $filter=Amount gt 50). Azure never converts between EDM types, so "
        "`Amount gt 50` is false for every entity whatever the values; Azurite ignores the types "
        "and compares the values, so the same query returned the entities you expected there.");
  CHECK(FactOf(m, "corrected_filter") == "\"Amount gt 50.0\"");
  CHECK(FactOf(m, "corrected_literal") == "\"50.0\"");
  CHECK(FactOf(m, "stored_type") == "\"Edm.Double\"");
  CHECK(FactOf(m, "literal_type") == "\"Edm.Int32\"");
  CHECK(m.recommendation.starts_with(
      "Write the literal in the property's type: $filter=Amount gt 50.0 (50.0 is an Edm.Double "
      "literal)."));
  CHECK(f.AdvisorJson().find(R"("id":"filter-type-mismatch","severity":"warning",)"
                             R"("category":"differs-from-azurite")") != std::string::npos);
}

TEST_CASE("advisor: each stored type gets its own corrected literal", "[advisor][azurite]") {
  Fixture f;
  REQUIRE(f.Run("POST", "Tables", R"({"TableName":"things"})") == "201");
  REQUIRE(f.Run("POST", "things",
                R"({"PartitionKey":"p","RowKey":"r","Big@odata.type":"Edm.Int64","Big":"5",)"
                R"("Code":"50","Qty":7,"Flag":true,)"
                R"("When@odata.type":"Edm.DateTime","When":"2024-01-31T00:00:00Z",)"
                R"("Id@odata.type":"Edm.Guid","Id":"c9da6455-213d-42c9-9a79-3e9149a57833",)"
                R"("Blob@odata.type":"Edm.Binary","Blob":"AQI="})") == "201");
  for (std::string_view filter :
       {"Big eq 5", "Code eq 50", "Qty eq 7L", "Flag eq 'true'", "When gt '2020-01-01T00:00:00Z'",
        "Id eq 'c9da6455-213d-42c9-9a79-3e9149a57833'", "Blob eq 'AQI='",
        "PartitionKey eq 5 and RowKey eq 'r'", "Timestamp lt 'yesterday'"}) {
    REQUIRE(f.Run("GET", "things()?$filter=" + Encoded(filter)) == "200");
  }
  std::string fixes;
  for (const Finding& m : f.Differences()) {
    REQUIRE(m.id == "filter-type-mismatch");
    fixes += FactOf(m, "property") + " " + FactOf(m, "corrected_filter") + "\n";
  }
  CHECK(fixes ==
        "\"Big\" \"Big eq 5L\"\n"
        "\"Code\" \"Code eq '50'\"\n"
        "\"Qty\" \"Qty eq 7\"\n"
        "\"Flag\" \"Flag eq true\"\n"
        "\"When\" \"When gt datetime'2020-01-01T00:00:00Z'\"\n"
        "\"Id\" \"Id eq guid'c9da6455-213d-42c9-9a79-3e9149a57833'\"\n"
        "\"Blob\" \"Blob eq X'0102'\"\n"
        "\"PartitionKey\" \"PartitionKey eq '5' and RowKey eq 'r'\"\n"
        "\"Timestamp\" (none)\n");
}

TEST_CASE(
    "advisor: values and changesets the service refuses are one finding per class, with the "
    "Azure code and an example",
    "[advisor][azurite]") {
  Fixture f;
  REQUIRE(f.Run("POST", "Tables", R"({"TableName":"people"})") == "201");
  REQUIRE(f.Run("POST", "people",
                R"({"PartitionKey":"p","RowKey":"1","Born@odata.type":)"
                R"("Edm.DateTime","Born":"1500-01-01T00:00:00Z"})") == "400 OutOfRangeInput");
  REQUIRE(f.Run("POST", "people",
                R"({"PartitionKey":"p","RowKey":"2","Born@odata.type":)"
                R"("Edm.DateTime","Born":"0001-01-01T00:00:00Z"})") == "400 OutOfRangeInput");
  REQUIRE(f.Run("POST", "people",
                R"({"PartitionKey":"p","RowKey":"3","N@odata.type":"Edm.Int32","N":3000000000})") ==
          "400 OutOfRangeInput");
  REQUIRE(f.Run("POST", "people", R"({"PartitionKey":"a#b","RowKey":"4"})") ==
          "400 OutOfRangeInput");
  REQUIRE(f.Run("POST", "people",
                fmt::format(R"({{"PartitionKey":"p","RowKey":"5","Bio":"{}"}})",
                            std::string(40000, 'x'))) == "400 PropertyValueTooLarge");
  std::string wide = R"({"PartitionKey":"p","RowKey":"6")";
  for (int i = 0; i < 253; ++i) wide += fmt::format(R"(,"P{}":{})", i, i);
  REQUIRE(f.Run("POST", "people", wide + "}") == "400 TooManyProperties");
  REQUIRE(f.Run("POST", "people", R"({"PartitionKey":"p","RowKey":"7","Ok":1})") == "201");
  REQUIRE(f.Run("POST", "people", R"({"PartitionKey":"p","RowKey":"7","Ok":1})") ==
          "409 EntityAlreadyExists");  // no difference from Azurite: no finding

  CHECK(f.Ids() ==
        "people/datetime-out-of-range people/forbidden-key-character people/int32-out-of-range "
        "people/property-value-too-large people/too-many-properties");
  const auto findings = f.Differences();
  const Finding& date = Only(findings, "datetime-out-of-range");
  CHECK(date.title == "DateTime values outside 1601-01-01 .. 9999-12-31");
  CHECK(date.evidence ==
        "2 requests were answered 400 OutOfRangeInput (e.g. InsertEntity POST "
        "/devstoreaccount1/people: property 'Born' = '1500-01-01T00:00:00Z'). Azurite stores any "
        "date it can parse; Azure refuses it with OutOfRangeInput.");
  CHECK(FactOf(date, "error_code") == "\"OutOfRangeInput\"");
  CHECK(FactOf(Only(findings, "int32-out-of-range"), "detail") == "\"property 'N' = 3000000000\"");
  CHECK(FactOf(Only(findings, "forbidden-key-character"), "detail") == "\"PartitionKey\"");
  CHECK(FactOf(Only(findings, "property-value-too-large"), "detail") ==
        "\"Edm.String property 'Bio' of 80000 bytes\"");
  CHECK(FactOf(Only(findings, "too-many-properties"), "detail") == "\"253 custom properties\"");
}

TEST_CASE("advisor: a changeset of 101 operations is refused inside its 202 and is a finding",
          "[advisor][azurite]") {
  Fixture f;
  REQUIRE(f.Run("POST", "Tables", R"({"TableName":"batches"})") == "201");
  std::string body = "--batch_b\r\ncontent-type: multipart/mixed; boundary=changeset_c\r\n\r\n";
  for (int i = 0; i < 101; ++i) {
    body +=
        "--changeset_c\r\ncontent-type: application/http\r\ncontent-transfer-encoding: "
        "binary\r\n\r\nPOST http://127.0.0.1:10002/devstoreaccount1/batches HTTP/1.1\r\n"
        "content-type: application/json\r\n\r\n" +
        fmt::format(R"({{"PartitionKey":"p","RowKey":"{}"}})", i) + "\r\n";
  }
  body += "--changeset_c--\r\n--batch_b--\r\n";
  REQUIRE(f.Run("POST", "$batch", body, true, "multipart/mixed; boundary=batch_b") == "202");
  CHECK(f.Ids() == "(account)/batch-too-many-operations");
  const auto findings = f.Differences();
  REQUIRE(findings.size() == 1);
  const Finding& b = findings.front();
  CHECK(FactOf(b, "error_code") == "\"InvalidInput\"");
  CHECK(FactOf(b, "example") == "\"POST /devstoreaccount1/$batch\"");
}

TEST_CASE(
    "advisor: a SAS without the permission or outside its key range is a finding naming the "
    "letter or the range, its signature left out",
    "[advisor][azurite]") {
  Fixture f;
  REQUIRE(f.Run("POST", "Tables", R"({"TableName":"shared"})") == "201");
  REQUIRE(f.Run("POST", "shared", R"({"PartitionKey":"m","RowKey":"1"})") == "201");
  const std::string read_only = Fixture::TableSas("shared", "sp=r&se=2030-01-01");
  REQUIRE(f.Run("POST", "shared?" + read_only, R"({"PartitionKey":"m","RowKey":"2"})", false) ==
          "403 AuthorizationPermissionMismatch");
  const std::string ranged = Fixture::TableSas("shared", "sp=raud&se=2030-01-01&spk=a&epk=f");
  // A write outside the range (a point read there is a 404: the entity is invisible).
  REQUIRE(f.Run("PUT", "shared(PartitionKey='m',RowKey='1')?" + ranged,
                R"({"PartitionKey":"m","RowKey":"1"})", false) == "403 AuthorizationFailure");
  REQUIRE(f.Run("GET", "shared(PartitionKey='b',RowKey='1')?" + ranged, {}, false) ==
          "404 ResourceNotFound");

  CHECK(f.Ids() == "shared/sas-key-range shared/sas-permission-mismatch");
  const auto findings = f.Differences();
  const Finding& p = Only(findings, "sas-permission-mismatch");
  CHECK(FactOf(p, "detail") == "\"needs 'a', grants 'r'\"");
  CHECK(FactOf(p, "example") ==
        "\"POST /devstoreaccount1/shared?sv=2019-02-02&tn=shared&sp=r&se=2030-01-01"
        "&sig\"");
  CHECK(p.evidence.ends_with(
      "Azurite checks SAS permissions with its own table of operations, not the service's; "
      "Azure refuses it with AuthorizationPermissionMismatch."));
  const Finding& r = Only(findings, "sas-key-range");
  CHECK(FactOf(r, "detail") ==
        "\"PartitionKey 'm', RowKey '1' is not within PartitionKey 'a' .. PartitionKey 'f'\"");
  CHECK(
      r.evidence.ends_with("Azurite ignores a SAS's spk, srk, epk and erk; Azure refuses it with "
                           "AuthorizationFailure."));
}

}  // namespace malachite::server
