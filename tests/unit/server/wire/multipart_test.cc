#include "server/wire/multipart.h"

#include <catch2/catch.hpp>
#include <string>

namespace malachite::server {
namespace {

// "changeset=<0|1> too_many=<0|1>" then per operation "[<content-id>] METHOD target", its
// headers indented, and "  body=<body>" — or "error <AzureCode>".
std::string Dump(const BatchBody& parsed) {
  std::string out = "changeset=" + std::to_string(parsed.changeset) +
                    " too_many=" + std::to_string(parsed.too_many_operations) + "\n";
  for (const BatchOperation& op : parsed.operations) {
    out += "[" + op.content_id.value_or("-") + "] " + op.request.method + " " + op.request.target +
           "\n";
    for (const Header& h : op.request.headers) out += "  " + h.name + ": " + h.value + "\n";
    out += "  body=" + op.request.body + "\n";
  }
  return out;
}

std::string Dump(const Result<BatchBody>& parsed) {
  if (!parsed) return "error " + std::string(parsed.error().AzureCode());
  return Dump(*parsed);
}

std::string Crlf(std::string text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') out.push_back('\r');
    out.push_back(c);
  }
  return out;
}

// As @azure/data-tables writes it (spec §7.2): lower-case part headers, absolute URLs, no
// Content-ID, an extra blank line between the headers and the body.
const std::string kJsBody = Crlf(
    "--batch_1\n"
    "content-type: multipart/mixed; boundary=changeset_2\n"
    "\n"
    "--changeset_2\n"
    "content-type: application/http\n"
    "content-transfer-encoding: binary\n"
    "\n"
    "POST http://127.0.0.1:10002/devstoreaccount1/parts HTTP/1.1\n"
    "content-type: application/json;odata=nometadata\n"
    "prefer: return-no-content\n"
    "\n"
    "\n"
    "{\"PartitionKey\":\"p2\",\"RowKey\":\"a\",\"v\":1}\n"
    "--changeset_2\n"
    "content-type: application/http\n"
    "content-transfer-encoding: binary\n"
    "\n"
    "DELETE http://127.0.0.1:10002/devstoreaccount1/parts(PartitionKey='p2',RowKey='c') "
    "HTTP/1.1\n"
    "if-match: *\n"
    "\n"
    "\n"
    "--changeset_2--\n"
    "--batch_1--\n");

TEST_CASE("multipart: the JS SDK's batch body decodes into its two operations", "[server]") {
  CHECK(Dump(ParseBatchBody("multipart/mixed; boundary=batch_1", kJsBody)) ==
        "changeset=1 too_many=0\n"
        "[-] POST http://127.0.0.1:10002/devstoreaccount1/parts\n"
        "  content-type: application/json;odata=nometadata\n"
        "  prefer: return-no-content\n"
        "  body={\"PartitionKey\":\"p2\",\"RowKey\":\"a\",\"v\":1}\n"
        "[-] DELETE http://127.0.0.1:10002/devstoreaccount1/parts(PartitionKey='p2',RowKey='c')\n"
        "  if-match: *\n"
        "  body=\n");
}

TEST_CASE("multipart: the legacy node SDK's LF-only body with charset parameters and Content-ID",
          "[server]") {
  const std::string body =
      "--batch_a\n"
      "Content-Type: multipart/mixed;charset=\"utf-8\";boundary=changeset_b\n\n"
      "--changeset_b\n"
      "Content-Type: application/http\nContent-Transfer-Encoding: binary\n\n"
      "MERGE http://h/acct/t(PartitionKey='p',RowKey='1') HTTP/1.1\n"
      "Content-Type: application/json;type=entry\n\n"
      "{\"a\":1}\n"
      "--changeset_b\n"
      "Content-Type: application/http\nContent-Transfer-Encoding: binary\n\n"
      "PUT http://h/acct/t(PartitionKey='p',RowKey='2') HTTP/1.1\n"
      "content-id: 1\n\n"
      "{\"b\":2}\n"
      "--changeset_b\n"
      "Content-Type: application/http\nContent-ID: 2\nContent-Transfer-Encoding: binary\n\n"
      "DELETE http://h/acct/t(PartitionKey='p',RowKey='3') HTTP/1.1\n"
      "If-Match: *\n\n"
      "\n"
      "--changeset_b--\n"
      "--batch_a--";
  CHECK(Dump(ParseBatchBody("multipart/mixed; charset=\"utf-8\"; boundary=batch_a", body)) ==
        "changeset=1 too_many=0\n"
        "[-] MERGE http://h/acct/t(PartitionKey='p',RowKey='1')\n"
        "  Content-Type: application/json;type=entry\n"
        "  body={\"a\":1}\n"
        "[1] PUT http://h/acct/t(PartitionKey='p',RowKey='2')\n"
        "  content-id: 1\n"
        "  body={\"b\":2}\n"
        "[2] DELETE http://h/acct/t(PartitionKey='p',RowKey='3')\n"
        "  If-Match: *\n"
        "  body=\n");
}

TEST_CASE(
    "multipart: preamble, epilogue, transport padding and a blank line before the batch "
    "close are ignored",
    "[server]") {
  const std::string body = Crlf(
      "this is a preamble\n"
      "--batch_x   \n"
      "Content-Type: multipart/mixed; boundary=\"cs\"\n"
      "\n"
      "\n"
      "--cs\t\n"
      "Content-Type: application/http\n"
      "Content-ID: 0\n"
      "\n"
      "\n"
      "PATCH   /acct/t(PartitionKey='p',RowKey='r')   HTTP/1.1\n"
      "X-HTTP-Method:MERGE\n"
      "\n"
      "  {\"x\":true}  \n"
      "--cs--\n"
      "\n"
      "--batch_x--\n"
      "epilogue --batch_x\n");
  CHECK(Dump(ParseBatchBody("Multipart/Mixed;Boundary=batch_x", body)) ==
        "changeset=1 too_many=0\n"
        "[0] PATCH /acct/t(PartitionKey='p',RowKey='r')\n"
        "  X-HTTP-Method: MERGE\n"
        "  body={\"x\":true}\n");
}

TEST_CASE("multipart: a request target with an unencoded space stays one target", "[server]") {
  auto request =
      ParseEmbeddedRequest("DELETE /a/t(PartitionKey='a b',RowKey='c') HTTP/1.1\r\n\r\n");
  REQUIRE(request);
  CHECK(request->target == "/a/t(PartitionKey='a b',RowKey='c')");
}

TEST_CASE("multipart: a lone GET outside a changeset", "[server]") {
  const std::string body = Crlf(
      "--batch_q\n"
      "Content-Type: application/http\n"
      "Content-Transfer-Encoding: binary\n"
      "\n"
      "GET http://h/acct/t(PartitionKey='p',RowKey='r') HTTP/1.1\n"
      "Accept: application/json;odata=nometadata\n"
      "\n"
      "--batch_q--\n");
  CHECK(Dump(ParseBatchBody("multipart/mixed; boundary=batch_q", body)) ==
        "changeset=0 too_many=0\n"
        "[-] GET http://h/acct/t(PartitionKey='p',RowKey='r')\n"
        "  Accept: application/json;odata=nometadata\n"
        "  body=\n");
}

TEST_CASE("multipart: a boundary that prefixes another delimiter-like line does not split",
          "[server]") {
  auto parts = SplitMultipart("--b\r\nX: 1\r\n\r\n--bb\r\n--b-\r\n--b--\r\n", "b", 10);
  REQUIRE(parts);
  REQUIRE(parts->size() == 1);
  CHECK(parts->front().content == "--bb\r\n--b-");
  CHECK(parts->front().Find("x") == std::optional<std::string_view>("1"));
}

TEST_CASE("multipart: delimiters count only at line starts, after CRLF or LF, with padding",
          "[server]") {
  // A preamble (also one naming the boundary mid-line), a boundary inside a line of a part, a
  // delimiter with transport padding, LF and CRLF lines mixed, no line end after the close.
  const std::string body =
      "preamble --b\n"
      "--b\r\n"
      "A: 1\r\n"
      "\r\n"
      "x --b y\n"
      "--b \t\r\n"
      "B: 2\n"
      "\n"
      "--b-- epilogue --b\n";
  auto parts = SplitMultipart(body, "b", 10);
  REQUIRE(parts);
  REQUIRE(parts->size() == 2);
  CHECK(parts->at(0).Find("a") == std::optional<std::string_view>("1"));
  CHECK(parts->at(0).content == "x --b y");
  CHECK(parts->at(1).Find("B") == std::optional<std::string_view>("2"));
  CHECK(parts->at(1).content.empty());
  // The first delimiter may open the body; the close delimiter may end it without a line end.
  auto bare = SplitMultipart("--b\n\nbody\n--b--", "b", 10);
  REQUIRE(bare);
  REQUIRE(bare->size() == 1);
  CHECK(bare->front().content == "body");
  // A delimiter that only starts mid-line is no delimiter at all.
  auto none = SplitMultipart("x--b\n\nbody\nx--b--", "b", 10);
  REQUIRE_FALSE(none);
  CHECK(none.error().code == ErrorCode::kInvalidInput);
}

TEST_CASE("multipart: a long boundary is found past near misses and mid-line copies", "[server]") {
  // An SDK-style boundary; lines that hold a prefix of it, a copy of it mid-line, a longer
  // boundary, and a delimiter right after a part's last line.
  const std::string b = "changeset_5c4c8d8e-1a2b-4c3d-9e8f-0123456789ab";
  const std::string body = "--" + b + "\r\nA: 1\r\n\r\n--changeset_5c4c8d8e-1a2b\r\nx --" + b +
                           "\r\n--" + b + "x\r\n--" + b + "\r\nB: 2\r\n\r\nlast\r\n--" + b +
                           "--\r\n";
  auto parts = SplitMultipart(body, b, 10);
  REQUIRE(parts);
  REQUIRE(parts->size() == 2);
  CHECK(parts->at(0).content == "--changeset_5c4c8d8e-1a2b\r\nx --" + b + "\r\n--" + b + "x");
  CHECK(parts->at(1).Find("b") == std::optional<std::string_view>("2"));
  CHECK(parts->at(1).content == "last");
  // Without its close delimiter the body is malformed.
  auto open = SplitMultipart(body.substr(0, body.size() - 4), b, 10);
  REQUIRE_FALSE(open);
  CHECK(open.error().code == ErrorCode::kInvalidInput);
}

TEST_CASE("multipart: boundary parameter forms", "[server]") {
  CHECK(MultipartBoundary("multipart/mixed; boundary=batch_1").value() == "batch_1");
  CHECK(MultipartBoundary("multipart/mixed;charset=\"utf-8\";boundary=changeset_9").value() ==
        "changeset_9");
  CHECK(MultipartBoundary("multipart/mixed ; BOUNDARY = \"q r\" ; x=y").value() == "q r");
  for (const char* bad : {"application/json", "multipart/mixed", "multipart/mixed; boundary=",
                          "multipart/mixed; boundary=\"\"", "multipart/related; boundary=a", ""}) {
    INFO(bad);
    auto boundary = MultipartBoundary(bad);
    REQUIRE(!boundary);
    CHECK(boundary.error().code == ErrorCode::kInvalidInput);
  }
}

std::string Changeset(int operations) {
  std::string body = "--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n";
  for (int i = 0; i < operations; ++i) {
    body += "--c\r\nContent-Type: application/http\r\n\r\nDELETE /a/t(PartitionKey='p',RowKey='" +
            std::to_string(i) + "') HTTP/1.1\r\nIf-Match: *\r\n\r\n\r\n";
  }
  return body + "--c--\r\n--b--\r\n";
}

TEST_CASE("multipart: decoding into a reused BatchBody gives what a fresh decode gives",
          "[server]") {
  const std::string type = "multipart/mixed; boundary=b";
  // Bodies of 3, 101, 1 and 0 operations, a lone GET, a malformed body, then 2 operations with
  // fewer headers and no Content-ID where the first had more and one.
  const std::string with_ids = Crlf(
      "--b\nContent-Type: multipart/mixed; boundary=c\n\n"
      "--c\nContent-Type: application/http\nContent-ID: 7\n\n"
      "PUT /a/t(PartitionKey='p',RowKey='1') HTTP/1.1\nIf-Match: *\nPrefer: x\nA: 1\n\n{}\n"
      "--c\nContent-Type: application/http\n\n"
      "DELETE /a/t(PartitionKey='p',RowKey='2') HTTP/1.1\nIf-Match: *\nContent-ID: 8\n\n\n"
      "--c\nContent-Type: application/http\n\nPOST /a/t HTTP/1.1\n\n{\"x\":1}\n"
      "--c--\n--b--\n");
  const std::string fewer = Crlf(
      "--b\nContent-Type: multipart/mixed; boundary=c\n\n"
      "--c\nContent-Type: application/http\n\nPOST /a/t HTTP/1.1\n\n{\"y\":2}\n"
      "--c\nContent-Type: application/http\n\n"
      "MERGE /a/t(PartitionKey='p',RowKey='3') HTTP/1.1\nIf-Match: *\n\n{}\n"
      "--c--\n--b--\n");
  const std::string lone_get = Crlf(
      "--b\nContent-Type: application/http\n\nGET /a/t(PartitionKey='p',RowKey='r') HTTP/1.1\n"
      "\n--b--\n");
  BatchBody reused;
  for (const std::string& body : {with_ids, Changeset(101), Changeset(1), Changeset(0), lone_get,
                                  std::string("--b\r\nbad\r\n\r\n--b--"), with_ids, fewer}) {
    INFO(body);
    const std::string fresh = Dump(ParseBatchBody(type, body));
    auto ok = ParseBatchBody(type, body, reused);
    CHECK((ok ? Dump(reused) : Dump(tl::unexpected(ok.error()))) == fresh);
  }
  CHECK(Dump(reused) ==
        "changeset=1 too_many=0\n"
        "[-] POST /a/t\n"
        "  body={\"y\":2}\n"
        "[-] MERGE /a/t(PartitionKey='p',RowKey='3')\n"
        "  If-Match: *\n"
        "  body={}\n");
}

TEST_CASE("multipart: 100 operations decode, a 101st sets too_many_operations", "[server]") {
  auto hundred = ParseBatchBody("multipart/mixed; boundary=b", Changeset(100));
  REQUIRE(hundred);
  CHECK(hundred->operations.size() == 100);
  CHECK(!hundred->too_many_operations);
  auto more = ParseBatchBody("multipart/mixed; boundary=b", Changeset(101));
  REQUIRE(more);
  CHECK(more->operations.size() == 100);
  CHECK(more->too_many_operations);
  auto none = ParseBatchBody("multipart/mixed; boundary=b", Changeset(0));
  REQUIRE(none);
  CHECK(none->operations.empty());
}

TEST_CASE("multipart: malformed bodies fail with InvalidInput", "[server]") {
  const std::string type = "multipart/mixed; boundary=b";
  const std::string ok_part =
      "--c\r\nContent-Type: application/http\r\n\r\nDELETE /a/t(PartitionKey='p',RowKey='r') "
      "HTTP/1.1\r\n\r\n";
  const std::string head = "--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n";
  const std::vector<std::string> bodies = {
      "",
      "no delimiter at all",
      "--b\r\n",                     // never closed
      "--b--\r\n",                   // no batch part
      head + ok_part,                // changeset never closed
      head + ok_part + "--c--\r\n",  // batch never closed
      head + ok_part + "--c--\r\n--b\r\n\r\nGET /a/t HTTP/1.1\r\n\r\n--b--",  // two parts
      "--b\r\nbad header line\r\n\r\n--b--",
      head + "--c\r\nContent-Type: application/http\r\n\r\n\r\n\r\n--c--\r\n--b--",
      head +
          "--c\r\nContent-Type: application/http\r\n\r\nDELETE /a HTTP/1.1 x\r\n\r\n--c--\r\n--b--",
      head + "--c\r\nContent-Type: application/http\r\n\r\nDELETE HTTP/1.1\r\n\r\n--c--\r\n--b--",
      head +
          "--c\r\nContent-Type: application/http\r\n\r\ndelete /a HTTP/1.1\r\n\r\n--c--\r\n--b--",
      head + "--c\r\nContent-Type: application/http\r\n\r\nDELETE /a FTP/1\r\n\r\n--c--\r\n--b--",
      head + "--c\r\nContent-Type: text/plain\r\n\r\nDELETE /a HTTP/1.1\r\n\r\n--c--\r\n--b--",
      head +
          "--c\r\nContent-Type: application/http\r\n\r\nDELETE /a HTTP/1.1\r\n: v\r\n\r\n"
          "--c--\r\n--b--",
      "--b\r\nContent-Type: multipart/mixed\r\n\r\n--c--\r\n--b--",
  };
  for (const std::string& body : bodies) {
    INFO(body);
    CHECK(Dump(ParseBatchBody(type, body)) == "error InvalidInput");
  }
  CHECK(Dump(ParseBatchBody("application/json", Changeset(1))) == "error InvalidInput");
}

}  // namespace
}  // namespace malachite::server
