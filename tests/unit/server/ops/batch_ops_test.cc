#include "server/ops/batch_ops.h"

#include <catch2/catch.hpp>
#include <future>
#include <regex>

#include "server/http/router.h"
#include "tests/unit/server/handler_harness.h"

namespace malachite::server {
namespace {

using testing::Harness;

const std::string kHost = "http://127.0.0.1:10002/devstoreaccount1/";
const std::string kETag1 = R"J(W/"datetime'2024-05-06T07%3A08%3A09.1234567Z'")J";
const std::string kETag2 = R"J(W/"datetime'2024-05-06T07%3A08%3A09.1234568Z'")J";
const std::string kETag3 = R"J(W/"datetime'2024-05-06T07%3A08%3A09.1234569Z'")J";
const std::string kETag4 = R"J(W/"datetime'2024-05-06T07%3A08%3A09.123457Z'")J";
const std::string kJsonType = "application/json;odata=minimalmetadata;streaming=true;charset=utf-8";

// One sub-request: "METHOD url-after-account", its headers and body.
struct Op {
  std::string line;
  std::vector<std::string> headers = {};
  std::string body = {};
};

// A changeset body as the JS SDK frames it (CRLF, absolute URLs, blank line before the body).
std::string ChangesetBody(const std::vector<Op>& ops) {
  std::string out = "--batch_b\r\ncontent-type: multipart/mixed; boundary=changeset_c\r\n\r\n";
  for (const Op& op : ops) {
    const std::size_t space = op.line.find(' ');
    out +=
        "--changeset_c\r\ncontent-type: application/http\r\ncontent-transfer-encoding: "
        "binary\r\n\r\n" +
        op.line.substr(0, space) + " " + kHost + op.line.substr(space + 1) + " HTTP/1.1\r\n";
    for (const std::string& header : op.headers) out += header + "\r\n";
    out += "\r\n\r\n" + op.body + "\r\n";
  }
  return out + "--changeset_c--\r\n--batch_b--\r\n";
}

// "<status>\n<Content-Type>\n\n<body>" with the response GUID boundaries replaced by B and C and
// CRLFs shown as "\n" (after checking that the body uses CRLF only).
std::string Show(const Harness::Reply& reply) {
  if (!reply.error_code.empty()) return std::to_string(reply.status) + " " + reply.error_code;
  std::string body = reply.body;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\n' && (i == 0 || body[i - 1] != '\r'))
      return "bare LF at " + std::to_string(i);
  }
  static const std::regex guid("(batchresponse|changesetresponse)_[0-9a-f-]{36}");
  body = std::regex_replace(body, guid, "$1_X");
  body = std::regex_replace(body, std::regex("\r\n"), "\n");
  std::string type =
      std::regex_replace(std::string(reply.Find("Content-Type").value_or("")), guid, "$1_X");
  return std::to_string(reply.status) + "\n" + type + "\n\n" + body;
}

struct BatchFixture {
  BatchFixture() { REQUIRE(h.Run("POST", "Tables", R"J({"TableName":"parts"})J").status == 201); }
  Harness::Reply Batch(const std::string& body,
                       std::string type = "multipart/mixed; boundary=batch_b") {
    return h.Run("POST", "$batch", body, {{"Content-Type", std::move(type)}});
  }
  std::string Call(const std::vector<Op>& ops) { return Show(Batch(ChangesetBody(ops))); }
  // The stored entity at nometadata, or the error code.
  std::string Get(const std::string& rk, const std::string& pk = "p") {
    auto reply = h.Run("GET", "parts(PartitionKey='" + pk + "',RowKey='" + rk + "')", {}, {},
                       MetadataLevel::kNone);
    return reply.error_code.empty() ? reply.body : reply.error_code;
  }
  // The changeset answer holding the one error part of spec §7.4.
  static std::string FailurePart(const std::string& status_line, const std::string& content_id,
                                 const std::string& code, const std::string& message) {
    return "202\nmultipart/mixed; boundary=batchresponse_X\n\n"
           "--batchresponse_X\nContent-Type: multipart/mixed; boundary=changesetresponse_X\n\n"
           "--changesetresponse_X\nContent-Type: application/http\n"
           "Content-Transfer-Encoding: binary\n\n"
           "HTTP/1.1 " +
           status_line + "\n" + content_id +
           "X-Content-Type-Options: nosniff\nDataServiceVersion: 3.0;\n"
           "Content-Type: " +
           kJsonType +
           "\n\n"
           R"J({"odata.error":{"code":")J" +
           code + R"J(","message":{"lang":"en-US","value":")J" + message +
           R"J(\nRequestId:\nTime:2024-05-06T07:08:09.1234567Z"}}})J"
           "\n--changesetresponse_X--\n--batchresponse_X--\n";
  }
  Harness h;
};

TEST_CASE_METHOD(BatchFixture,
                 "batch: a changeset of every write kind answers one part per operation",
                 "[server]") {
  REQUIRE(h.Run("POST", "parts", R"J({"PartitionKey":"p","RowKey":"m","A":1})J").status == 201);
  REQUIRE(h.Run("POST", "parts", R"J({"PartitionKey":"p","RowKey":"d"})J").status == 201);
  const std::string expected =
      "202\nmultipart/mixed; boundary=batchresponse_X\n\n"
      "--batchresponse_X\nContent-Type: multipart/mixed; boundary=changesetresponse_X\n\n"
      "--changesetresponse_X\nContent-Type: application/http\nContent-Transfer-Encoding: binary\n\n"
      "HTTP/1.1 204 No Content\nContent-ID: 1\nX-Content-Type-Options: nosniff\n"
      "Cache-Control: no-cache\nPreference-Applied: return-no-content\nETag: " +
      kETag3 +
      "\n"
      "Location: " +
      kHost +
      "parts(PartitionKey='p',RowKey='a')\n"
      "DataServiceId: " +
      kHost +
      "parts(PartitionKey='p',RowKey='a')\n"
      "DataServiceVersion: 3.0;\n\n\n"
      "--changesetresponse_X\nContent-Type: application/http\nContent-Transfer-Encoding: binary\n\n"
      "HTTP/1.1 204 No Content\nX-Content-Type-Options: nosniff\nCache-Control: no-cache\n"
      "ETag: " +
      kETag4 +
      "\nDataServiceVersion: 1.0;\n\n\n"
      "--changesetresponse_X\nContent-Type: application/http\nContent-Transfer-Encoding: binary\n\n"
      "HTTP/1.1 204 No Content\nX-Content-Type-Options: nosniff\nCache-Control: no-cache\n"
      "DataServiceVersion: 1.0;\n\n\n"
      "--changesetresponse_X--\n--batchresponse_X--\n";
  CHECK(Call({{"POST parts",
               {"Content-ID: 1", "Prefer: return-no-content"},
               R"J({"PartitionKey":"p","RowKey":"a","v":1})J"},
              {"PATCH parts(PartitionKey='p',RowKey='m')", {"If-Match: " + kETag1}, R"J({"B":2})J"},
              {"DELETE parts(PartitionKey='p',RowKey='d')", {"If-Match: *"}}}) == expected);
  CHECK(Get("a") ==
        R"J({"PartitionKey":"p","RowKey":"a","Timestamp":"2024-05-06T07:08:09.1234569Z","v":1})J");
  CHECK(
      Get("m") ==
      R"J({"PartitionKey":"p","RowKey":"m","Timestamp":"2024-05-06T07:08:09.123457Z","A":1,"B":2})J");
  CHECK(Get("d") == "ResourceNotFound");
}

TEST_CASE_METHOD(BatchFixture,
                 "batch: an insert without Prefer answers 201 with the entity, upserts and "
                 "tunnelled verbs act as their single forms",
                 "[server]") {
  const std::string reply =
      Call({{"POST parts",
             {"Accept: application/json;odata=nometadata"},
             R"J({"PartitionKey":"p","RowKey":"a","v":1})J"},
            {"PUT parts(PartitionKey='p',RowKey='b')", {}, R"J({"w":2})J"},
            {"MERGE parts(PartitionKey='p',RowKey='c')", {}, R"J({"x":3})J"},
            {"POST parts(PartitionKey='p',RowKey='a2')", {"X-HTTP-Method: PUT"}, R"J({"y":4})J"}});
  CHECK(
      reply.find(
          "HTTP/1.1 201 Created\nX-Content-Type-Options: nosniff\nCache-Control: "
          "no-cache\nETag: " +
          kETag1 + "\nLocation: " + kHost +
          "parts(PartitionKey='p',RowKey='a')\n"
          "Content-Type: application/json;odata=nometadata;streaming=true;charset=utf-8\n"
          "DataServiceVersion: 3.0;\n\n"
          R"J({"PartitionKey":"p","RowKey":"a","Timestamp":"2024-05-06T07:08:09.1234567Z","v":1})J"
          "\n--changesetresponse_X\n") != std::string::npos);
  CHECK(Get("b").ends_with(R"J("w":2})J"));
  CHECK(Get("c").ends_with(R"J("x":3})J"));
  CHECK(Get("a2").ends_with(R"J("y":4})J"));
}

TEST_CASE_METHOD(BatchFixture,
                 "batch: a failing operation rolls back the whole changeset and answers one "
                 "part with its index",
                 "[server]") {
  REQUIRE(h.Run("POST", "parts", R"J({"PartitionKey":"p","RowKey":"x"})J").status == 201);
  CHECK(Call({{"POST parts", {}, R"J({"PartitionKey":"p","RowKey":"a"})J"},
              {"PUT parts(PartitionKey='p',RowKey='b')", {}, R"J({"v":1})J"},
              {"POST parts", {"Content-ID: 7"}, R"J({"PartitionKey":"p","RowKey":"x"})J"}}) ==
        FailurePart("409 Conflict", "Content-ID: 7\n", "EntityAlreadyExists",
                    "2:The specified entity already exists."));
  CHECK(Get("a") == "ResourceNotFound");
  CHECK(Get("b") == "ResourceNotFound");
}

TEST_CASE_METHOD(BatchFixture,
                 "batch: a single-operation changeset drops the index for entity-level failures "
                 "only",
                 "[server]") {
  CHECK(Call({{"PUT parts(PartitionKey='p',RowKey='a')",
               {"If-Match: " + kETag1, "Content-ID: 1"},
               "{}"}}) == FailurePart("404 Not Found", "", "ResourceNotFound",
                                      "The specified resource does not exist."));
  REQUIRE(h.Run("POST", "parts", R"J({"PartitionKey":"p","RowKey":"a"})J").status == 201);
  CHECK(Call({{"DELETE parts(PartitionKey='p',RowKey='a')", {"If-Match: " + kETag2}}}) ==
        FailurePart("412 Precondition Failed", "", "UpdateConditionNotSatisfied",
                    "The update condition specified in the request was not satisfied."));
  CHECK(Call({{"DELETE nosuch(PartitionKey='p',RowKey='a')", {"If-Match: *", "Content-ID: 3"}}}) ==
        FailurePart("404 Not Found", "Content-ID: 3\n", "TableNotFound",
                    "0:The table specified does not exist."));
  CHECK(Call({{"POST parts", {}, R"J({"PartitionKey":"p","RowKey":"a/b"})J"}})
            .find("\"value\":\"0:") != std::string::npos);
}

TEST_CASE_METHOD(BatchFixture, "batch: the batch rules fail at the offending index", "[server]") {
  CHECK(Call({{"POST parts", {}, R"J({"PartitionKey":"p","RowKey":"a"})J"},
              {"POST parts", {}, R"J({"PartitionKey":"q","RowKey":"b"})J"}}) ==
        FailurePart("400 Bad Request", "", "CommandsInBatchActOnDifferentPartitions",
                    "1:All commands in a batch must operate on same entity group."));
  CHECK(Call({{"POST parts", {}, R"J({"PartitionKey":"p","RowKey":"a"})J"},
              {"PUT parts(PartitionKey='p',RowKey='b')", {}, "{}"},
              {"DELETE parts(PartitionKey='p',RowKey='a')", {"If-Match: *"}}}) ==
        FailurePart("400 Bad Request", "", "InvalidDuplicateRow",
                    "2:The batch request contains multiple changes with same row key. An entity "
                    "can appear only once in a batch request."));
  CHECK(
      Call({{"POST parts", {}, R"J({"PartitionKey":"p","RowKey":"a"})J"},
            {"POST parts", {}, R"J({"PartitionKey":"p","RowKey":"b","bad-name":1})J"}}) ==
      FailurePart("400 Bad Request", "", "PropertyNameInvalid", "1:The property name is invalid."));
  CHECK(Call({{"POST parts", {}, R"J({"PartitionKey":"p","RowKey":"a"})J"},
              {"GET parts(PartitionKey='p',RowKey='a')"}}) ==
        FailurePart("400 Bad Request", "", "InvalidInput",
                    "1:One of the request inputs is not valid."));
  CHECK(Call({{"POST parts", {}, R"J({"PartitionKey":"p","RowKey":"a"})J"},
              {"DELETE parts(PartitionKey='p',RowKey='b')"}}) ==
        FailurePart("400 Bad Request", "", "MissingRequiredHeader",
                    "1:An HTTP header that's mandatory for this request is not specified."));
  std::vector<Op> many;
  for (int i = 0; i < 101; ++i) {
    many.push_back(
        {"POST parts", {}, R"J({"PartitionKey":"p","RowKey":")J" + std::to_string(i) + "\"}"});
  }
  CHECK(Call(many) == FailurePart("400 Bad Request", "", "InvalidInput",
                                  "0:The batch request operation exceeds the maximum 100 changes "
                                  "per change set."));
  many.pop_back();
  CHECK(Call(many).find("HTTP/1.1 201 Created") != std::string::npos);
  CHECK(Get("99") != "ResourceNotFound");
}

TEST_CASE_METHOD(BatchFixture,
                 "batch: a batch rejected before any write echoes the failing part's Content-ID",
                 "[server]") {
  // Failing its own validation, then failing the batch rules.
  CHECK(
      Call({{"POST parts", {"Content-ID: 1"}, R"J({"PartitionKey":"p","RowKey":"a"})J"},
            {"POST parts", {"Content-ID: 2"}, R"J({"PartitionKey":"p","RowKey":"b","a-b":1})J"}}) ==
      FailurePart("400 Bad Request", "Content-ID: 2\n", "PropertyNameInvalid",
                  "1:The property name is invalid."));
  CHECK(Call({{"POST parts", {"Content-ID: 1"}, R"J({"PartitionKey":"p","RowKey":"a"})J"},
              {"POST parts", {"Content-ID: 2"}, R"J({"PartitionKey":"p","RowKey":"a"})J"}}) ==
        FailurePart("400 Bad Request", "Content-ID: 2\n", "InvalidDuplicateRow",
                    "1:The batch request contains multiple changes with same row key. An entity "
                    "can appear only once in a batch request."));
  CHECK(Get("a") == "ResourceNotFound");
}

TEST_CASE_METHOD(BatchFixture,
                 "batch: a later operation's table name is checked unless it repeats the first's",
                 "[server]") {
  // The first operation's name passed the rules; another name fails them at its own index.
  CHECK(Call({{"POST parts", {}, R"J({"PartitionKey":"p","RowKey":"a"})J"},
              {"POST parts", {}, R"J({"PartitionKey":"p","RowKey":"b"})J"},
              {"POST ab", {}, R"J({"PartitionKey":"p","RowKey":"c"})J"}}) ==
        FailurePart("400 Bad Request", "", "OutOfRangeInput",
                    "2:The specified resource name length is not within the permissible limits."));
  CHECK(Call({{"POST parts", {}, R"J({"PartitionKey":"p","RowKey":"a"})J"},
              {"POST 1parts", {}, R"J({"PartitionKey":"p","RowKey":"b"})J"}}) ==
        FailurePart("400 Bad Request", "", "InvalidResourceName",
                    "1:The specifed resource name contains invalid characters."));
  // A bad first name fails at index 0; the same name again changes nothing.
  CHECK(Call({{"POST ab", {}, R"J({"PartitionKey":"p","RowKey":"a"})J"},
              {"POST ab", {}, R"J({"PartitionKey":"p","RowKey":"b"})J"}}) ==
        FailurePart("400 Bad Request", "", "OutOfRangeInput",
                    "0:The specified resource name length is not within the permissible limits."));
  // The same table in another case is the same table.
  CHECK(Call({{"POST parts", {}, R"J({"PartitionKey":"p","RowKey":"a"})J"},
              {"POST PARTS", {}, R"J({"PartitionKey":"p","RowKey":"b"})J"}})
            .find("HTTP/1.1 201 Created") != std::string::npos);
  CHECK(Get("b") != "ResourceNotFound");
}

TEST_CASE_METHOD(BatchFixture, "batch: a lone GET is answered in a part of its own", "[server]") {
  REQUIRE(h.Run("POST", "parts", R"J({"PartitionKey":"p","RowKey":"a","v":1})J").status == 201);
  const std::string get =
      "--batch_b\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
      "GET " +
      kHost +
      "parts(PartitionKey='p',RowKey='a') HTTP/1.1\r\n"
      "Accept: application/json;odata=nometadata\r\n\r\n--batch_b--\r\n";
  CHECK(
      Show(Batch(get)) ==
      "202\nmultipart/mixed; boundary=batchresponse_X\n\n"
      "--batchresponse_X\nContent-Type: application/http\nContent-Transfer-Encoding: binary\n\n"
      "HTTP/1.1 200 OK\nX-Content-Type-Options: nosniff\nCache-Control: no-cache\n"
      "Content-Type: application/json;odata=nometadata;streaming=true;charset=utf-8\n"
      "ETag: " +
          kETag1 +
          "\nDataServiceVersion: 3.0;\n\n"
          R"J({"PartitionKey":"p","RowKey":"a","Timestamp":"2024-05-06T07:08:09.1234567Z","v":1})J"
          "\n--batchresponse_X--\n");
  std::string missing = get;
  missing.replace(missing.find("RowKey='a'"), 10, "RowKey='z'");
  const std::string not_found = Show(Batch(missing));
  CHECK(not_found.find("HTTP/1.1 404 Not Found") != std::string::npos);
  // Azure: spec §7.4 — one operation: the entity-level failure carries no "0:" index.
  CHECK(not_found.find(R"("value":"The specified resource does not exist.\nRequestId:)") !=
        std::string::npos);
}

TEST_CASE_METHOD(BatchFixture, "batch: malformed envelopes are top-level errors, not 202",
                 "[server]") {
  CHECK(Show(Batch("garbage")) == "400 InvalidInput");
  CHECK(Show(Batch(ChangesetBody({}), "application/json")) == "400 InvalidInput");
  CHECK(Show(Batch(std::string(4 * 1024 * 1024 + 1, 'x'))) == "413 RequestBodyTooLarge");
  CHECK(Show(Batch(ChangesetBody({}))) ==
        "202\nmultipart/mixed; boundary=batchresponse_X\n\n"
        "--batchresponse_X\nContent-Type: multipart/mixed; boundary=changesetresponse_X\n\n"
        "--changesetresponse_X--\n--batchresponse_X--\n");
}

TEST_CASE_METHOD(BatchFixture, "batch: batches sharing one group commit roll back alone",
                 "[server]") {
  // Both WriteFns go to the writer together; the failing one must not take the other with it.
  auto submit = [&](const std::vector<Op>& ops) {
    Request request;
    request.method = "POST";
    request.target = "/devstoreaccount1/$batch";
    request.headers = {{"Content-Type", "multipart/mixed; boundary=batch_b"}};
    request.body = ChangesetBody(ops);
    auto route = RouteRequest(request);
    REQUIRE(route);
    RequestContext ctx{request,   *route,   MetadataLevel::kMinimal, std::string(testing::kBaseUrl),
                       h.clock(), h.store()};
    auto outcome = Dispatch(ctx);
    REQUIRE(outcome);
    REQUIRE(outcome->write);
    auto done = std::make_shared<std::promise<Result<void>>>();
    auto future = done->get_future();
    h.store().Submit(outcome->write, [done](Result<void> r) { done->set_value(std::move(r)); });
    return future;
  };
  REQUIRE(h.Run("POST", "parts", R"J({"PartitionKey":"p","RowKey":"dup"})J").status == 201);
  auto good = submit({{"POST parts", {}, R"J({"PartitionKey":"p","RowKey":"g1"})J"},
                      {"POST parts", {}, R"J({"PartitionKey":"p","RowKey":"g2"})J"}});
  auto bad = submit({{"POST parts", {}, R"J({"PartitionKey":"p","RowKey":"b1"})J"},
                     {"POST parts", {}, R"J({"PartitionKey":"p","RowKey":"dup"})J"}});
  CHECK(good.get().has_value());
  CHECK(bad.get().error().code == ErrorCode::kEntityAlreadyExists);
  CHECK(Get("g1") != "ResourceNotFound");
  CHECK(Get("g2") != "ResourceNotFound");
  CHECK(Get("b1") == "ResourceNotFound");
}

}  // namespace
}  // namespace malachite::server
