#include "server/http/negotiation.h"

#include <catch2/catch.hpp>

#include "common/datetime.h"

namespace malachite::server {
namespace {

const DateTime kNow = *ParseIso8601("2026-11-21T05:21:46Z");

Request Make(std::vector<Header> headers, std::string body = {}) {
  Request request;
  request.method = "GET";
  request.target = "/devstoreaccount1/mytable()";
  request.headers = std::move(headers);
  request.body = std::move(body);
  return request;
}

Route RouteFor(Operation op, std::string format = {}) {
  Route route;
  route.op = op;
  route.account = "devstoreaccount1";
  route.table = "mytable";
  if (!format.empty()) route.query.items.push_back({"$format", std::move(format)});
  return route;
}

// "none"/"minimal"/"full" or the error code.
std::string LevelName(const Result<MetadataLevel>& level) {
  if (!level) return std::string(level.error().AzureCode());
  switch (*level) {
    case MetadataLevel::kNone:
      return "none";
    case MetadataLevel::kMinimal:
      return "minimal";
    case MetadataLevel::kFull:
      return "full";
  }
  return "?";
}

std::string Level(const Request& request, const Route& route,
                  std::string_view version = "2019-02-02") {
  return LevelName(NegotiateMetadata(request, route, version));
}

std::string Version(std::vector<Header> headers) {
  // The returned view points into the request: keep it alive while reading the result.
  const Request request = Make(std::move(headers));
  auto version = NegotiateVersion(request, kNow);
  return version ? std::string(*version) : std::string(version.error().AzureCode());
}

}  // namespace

TEST_CASE("negotiation: Accept picks the metadata level, whitespace and case are ignored",
          "[negotiation]") {
  const Route query = RouteFor(Operation::kQueryEntities);
  CHECK(Level(Make({{"Accept", "application/json;odata=nometadata"}}), query) == "none");
  CHECK(Level(Make({{"Accept", "application/json;odata=minimalmetadata"}}), query) == "minimal");
  CHECK(Level(Make({{"Accept", "application/json; odata=fullmetadata"}}), query) == "full");
  CHECK(Level(Make({{"Accept", "Application/JSON;odata=FullMetadata"}}), query) == "full");
  CHECK(Level(Make({{"Accept", "application/json"}}), query) == "minimal");
  CHECK(Level(Make({{"Accept", "*/*"}}), query) == "minimal");
  CHECK(Level(Make({}), query) == "minimal");
  CHECK(Level(Make({{"Accept", "application/atom+xml,application/json;odata=nometadata"}}),
              query) == "none");
}

TEST_CASE("negotiation: $format wins over Accept", "[negotiation]") {
  CHECK(Level(Make({{"Accept", "application/json;odata=nometadata"}}),
              RouteFor(Operation::kQueryEntities, "application/json;odata=fullmetadata")) ==
        "full");
  CHECK(Level(Make({{"Accept", "application/atom+xml"}}),
              RouteFor(Operation::kGetEntity, "application/json")) == "minimal");
}

TEST_CASE("negotiation: verbose, Atom and old versions are refused with 415 codes",
          "[negotiation]") {
  const Route query = RouteFor(Operation::kQueryEntities);
  CHECK(Level(Make({{"Accept", "application/json;odata=verbose"}}), query) ==
        "JsonVerboseFormatNotSupported");
  CHECK(Level(Make({{"Accept", "application/atom+xml"}}), query) == "AtomFormatNotSupported");
  CHECK(Level(Make({{"Accept", "application/json"}, {"Content-Type", "application/atom+xml"}}),
              RouteFor(Operation::kInsertEntity)) == "AtomFormatNotSupported");
  CHECK(Level(Make({{"Accept", "application/json"}}), query, "2012-02-12") ==
        "JsonFormatNotSupported");
  CHECK(Level(Make({{"Accept", "application/json"}, {"MaxDataServiceVersion", "2.0;NetFx"}}),
              query) == "JsonFormatNotSupported");
  CHECK(Level(Make({{"Accept", "application/json"},
                    {"DataServiceVersion", "1.0;NetFx"},
                    {"MaxDataServiceVersion", "3.0;NetFx"}}),
              query) == "minimal");
}

TEST_CASE("negotiation: XML-only operations need XML bodies and an XML-accepting Accept",
          "[negotiation]") {
  const Route set_acl = RouteFor(Operation::kSetTableAcl);
  CHECK(Level(Make({{"Content-Type", "application/xml"}}, "<SignedIdentifiers/>"), set_acl) ==
        "minimal");
  CHECK(Level(Make({{"Content-Type", "application/json"}}, "{}"), set_acl) ==
        "MediaTypeNotSupported");
  CHECK(Level(Make({{"Accept", "application/json"}}), RouteFor(Operation::kGetTableAcl)) ==
        "MediaTypeNotSupported");
  CHECK(Level(Make({{"Accept", "application/xml"}}), RouteFor(Operation::kGetTableAcl)) ==
        "minimal");
  CHECK(Level(Make({{"Accept", "application/atom+xml"}}), RouteFor(Operation::kBatch)) ==
        "minimal");
}

TEST_CASE("negotiation: x-ms-version is validated and missing means 2019-02-02", "[negotiation]") {
  CHECK(Version({}) == "2019-02-02");
  CHECK(Version({{"x-ms-version", "2019-02-02"}}) == "2019-02-02");
  CHECK(Version({{"x-ms-version", "2017-07-29"}}) == "2017-07-29");
  CHECK(Version({{"x-ms-version", "2009-04-14"}}) == "2009-04-14");
  CHECK(Version({{"x-ms-version", "2027-06-01"}}) == "2027-06-01");
  CHECK(Version({{"x-ms-version", "2008-10-27"}}) == "InvalidHeaderValue");
  CHECK(Version({{"x-ms-version", "2031-01-01"}}) == "InvalidHeaderValue");
  CHECK(Version({{"x-ms-version", "2019-2-2"}}) == "InvalidHeaderValue");
  CHECK(Version({{"x-ms-version", "2019-13-02"}}) == "InvalidHeaderValue");
  CHECK(Version({{"x-ms-version", ""}}) == "InvalidHeaderValue");
}

TEST_CASE("negotiation: a negotiator answers each request of a run as NegotiateMetadata does",
          "[negotiation]") {
  const std::string json = "application/json;odata=nometadata";
  const std::string full = "application/json;odata=fullmetadata";
  const Route insert = RouteFor(Operation::kInsertEntity);
  // Each differs from the one before in one input (or not at all): a remembered level must
  // never answer a request whose inputs changed.
  const std::vector<std::pair<Request, Route>> run = {
      {Make({{"Content-Type", json}, {"Accept", json}}), insert},
      {Make({{"Content-Type", json}, {"Accept", json}}), insert},
      {Make({{"content-type", json}, {"ACCEPT", json}, {"Prefer", "return-no-content"}}), insert},
      {Make({{"Content-Type", json}, {"Accept", full}}), insert},
      {Make({{"Content-Type", json}, {"Accept", full}}), RouteFor(Operation::kUpdateEntity)},
      {Make({{"Content-Type", json}, {"Accept", full}}), RouteFor(Operation::kSetTableAcl)},
      {Make({{"Content-Type", json}, {"Accept", full}}), insert},
      {Make({{"Content-Type", json}, {"Accept", full}, {"DataServiceVersion", "2.0"}}), insert},
      {Make({{"Content-Type", json}, {"Accept", full}, {"DataServiceVersion", "3.0"}}), insert},
      {Make({{"Content-Type", json},
             {"Accept", full},
             {"MaxDataServiceVersion", "2.0"},
             {"DataServiceVersion", "3.0"}}),
       insert},
      {Make({{"Content-Type", json}, {"Accept", full}}), RouteFor(Operation::kInsertEntity, json)},
      {Make({{"Content-Type", json}, {"Accept", full}}), insert},
      {Make({{"Content-Type", json}, {"Accept", full}, {"Accept", "application/atom+xml"}}),
       insert},
      {Make({{"Accept", "application/atom+xml"}, {"Content-Type", json}, {"Accept", full}}),
       insert},
      {Make({{"Content-Type", "application/atom+xml"}, {"Accept", full}}), insert},
      {Make({{"Content-Type", json}, {"Accept", ""}}), insert},
      {Make({{"Content-Type", json}}), insert},
      {Make({{"Content-Type", json}, {"Accept", "application/json;odata=verbose"}}), insert},
      {Make({{"Content-Type", json}}), insert},
  };
  MetadataNegotiator negotiator("2019-02-02");
  std::size_t index = 0;
  for (const auto& [request, route] : run) {
    INFO("request " << index++);
    CHECK(LevelName(negotiator.Negotiate(request, route)) == Level(request, route));
  }
  MetadataNegotiator old("2013-08-14");
  CHECK(LevelName(old.Negotiate(run[0].first, insert)) == "JsonFormatNotSupported");
}

}  // namespace malachite::server
