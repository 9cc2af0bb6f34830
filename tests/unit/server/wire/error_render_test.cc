#include "server/wire/error_render.h"

#include <catch2/catch.hpp>

#include "common/datetime.h"

namespace malachite::server {
namespace {

Request WithAccept(std::string_view accept) {
  Request request;
  request.method = "GET";
  request.target = "/devstoreaccount1/mytable()";
  if (!accept.empty()) request.headers.push_back({"Accept", std::string(accept)});
  return request;
}

Route RouteFor(Operation op, std::string table = "mytable") {
  Route route;
  route.op = op;
  route.account = "devstoreaccount1";
  route.table = std::move(table);
  return route;
}

const DateTime kNow = *ParseIso8601("2024-05-06T07:08:09.1234567Z");

}  // namespace

TEST_CASE("error_render: JSON odata.error with RequestId and 7-digit Time", "[error]") {
  Response out;
  out.headers.push_back({"Preference-Applied", "return-no-content"});
  RenderError(Error{ErrorCode::kTableNotFound, {}, {}}, ErrorFormat::kJson, "1f1c823c", kNow, out);
  CHECK(out.status == 404);
  CHECK(out.body ==
        R"({"odata.error":{"code":"TableNotFound","message":{"lang":"en-US","value":"The table )"
        R"(specified does not exist.\nRequestId:1f1c823c\nTime:2024-05-06T07:08:09.1234567Z"}}})");
  CHECK(out.Find("Content-Type") ==
        "application/json;odata=minimalmetadata;streaming=true;charset=utf-8");
  CHECK(out.Find("x-ms-error-code") == "TableNotFound");
  CHECK(out.Find("Preference-Applied") == "return-no-content");
}

TEST_CASE("error_render: a custom message is JSON-escaped", "[error]") {
  Response out;
  RenderError(Error{ErrorCode::kInvalidInput, "bad \"x\"\tat 3", {}}, ErrorFormat::kJson, "id",
              kNow, out);
  CHECK(out.body.find(R"("value":"bad \"x\"\tat 3\nRequestId:id)") != std::string::npos);
}

TEST_CASE("error_render: invalid UTF-8 quoted from the request becomes U+FFFD in JSON and XML",
          "[error]") {
  // E.g. CheckIfMatch quotes the If-Match header, which may carry any byte.
  const Error error{ErrorCode::kInvalidInput, "etag 'W/\xff\xc3' and \xc3\xa9", "sts '\x01\xfe'"};
  Response json;
  RenderError(error, ErrorFormat::kJson, "id", kNow, json);
  CHECK(
      json.body.find("\"value\":\"etag 'W/\xEF\xBF\xBD\xEF\xBF\xBD' and \xc3\xa9\\nRequestId:id") !=
      std::string::npos);
  Response xml;
  RenderError(Error{ErrorCode::kAuthenticationFailed, {}, error.detail}, ErrorFormat::kStorageXml,
              "id", kNow, xml);
  CHECK(xml.body.find("<AuthenticationErrorDetail>sts &apos;\xEF\xBF\xBD\xEF\xBF\xBD&apos;<") !=
        std::string::npos);
}

TEST_CASE("error_render: storage XML carries AuthenticationErrorDetail, escaped", "[error]") {
  Response out;
  RenderError(Error{ErrorCode::kAuthenticationFailed, {}, "string to sign: 'a<b'"},
              ErrorFormat::kStorageXml, "id", kNow, out);
  CHECK(out.status == 403);
  CHECK(out.body ==
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>AuthenticationFailed</Code>"
        "<Message>Server failed to authenticate the request. Make sure the value of "
        "Authorization header is formed correctly including the signature.\nRequestId:id\n"
        "Time:2024-05-06T07:08:09.1234567Z</Message><AuthenticationErrorDetail>string to sign: "
        "&apos;a&lt;b&apos;</AuthenticationErrorDetail></Error>");
  CHECK(out.Find("Content-Type") == "application/xml");
  CHECK(out.Find("x-ms-error-code") == "AuthenticationFailed");
}

TEST_CASE("error_render: OData XML m:error for table-level XML operations", "[error]") {
  Response out;
  RenderError(Error{ErrorCode::kInvalidXmlDocument, {}, {}}, ErrorFormat::kODataXml, "id", kNow,
              out);
  CHECK(out.status == 400);
  CHECK(out.body ==
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><m:error "
        "xmlns:m=\"http://schemas.microsoft.com/ado/2007/08/dataservices/metadata\"><m:code>"
        "InvalidXmlDocument</m:code><m:message xml:lang=\"en-US\">XML specified is not "
        "syntactically valid.\nRequestId:id\nTime:2024-05-06T07:08:09.1234567Z</m:message>"
        "</m:error>");
}

TEST_CASE("error_render: the format follows Accept, $format and the operation", "[error]") {
  const Error not_found{ErrorCode::kTableNotFound, {}, {}};
  const Error auth{ErrorCode::kAuthenticationFailed, {}, {}};
  const Route entities = RouteFor(Operation::kQueryEntities);
  const Route acl = RouteFor(Operation::kGetTableAcl);
  const Route props = RouteFor(Operation::kGetServiceProperties, "");
  CHECK(ChooseErrorFormat(WithAccept("application/json;odata=nometadata"), &entities, not_found) ==
        ErrorFormat::kJson);
  CHECK(ChooseErrorFormat(WithAccept("application/atom+xml, application/json"), &entities,
                          not_found) == ErrorFormat::kJson);
  CHECK(ChooseErrorFormat(WithAccept("Application/JSON;odata=minimalmetadata"), &entities,
                          not_found) == ErrorFormat::kJson);
  CHECK(ChooseErrorFormat(WithAccept(""), &entities, not_found) == ErrorFormat::kJson);
  CHECK(ChooseErrorFormat(WithAccept(""), nullptr, not_found) == ErrorFormat::kJson);
  CHECK(ChooseErrorFormat(WithAccept("application/atom+xml"), &entities, not_found) ==
        ErrorFormat::kODataXml);
  CHECK(ChooseErrorFormat(WithAccept("application/atom+xml"), &entities, auth) ==
        ErrorFormat::kStorageXml);
  CHECK(ChooseErrorFormat(WithAccept("application/xml"), nullptr, not_found) ==
        ErrorFormat::kStorageXml);
  CHECK(ChooseErrorFormat(WithAccept(""), &acl, not_found) == ErrorFormat::kODataXml);
  CHECK(ChooseErrorFormat(WithAccept("application/json"), &acl, not_found) ==
        ErrorFormat::kODataXml);
  CHECK(ChooseErrorFormat(WithAccept(""), &acl, auth) == ErrorFormat::kStorageXml);
  CHECK(ChooseErrorFormat(WithAccept("application/xml"), &props, not_found) ==
        ErrorFormat::kStorageXml);
  Route with_format = entities;
  with_format.query.items.push_back({"$format", "application/json;odata=fullmetadata"});
  CHECK(ChooseErrorFormat(WithAccept("application/atom+xml"), &with_format, not_found) ==
        ErrorFormat::kJson);
}

}  // namespace malachite::server
