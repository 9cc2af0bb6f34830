// Seed inputs for the multipart fuzz target: "<Content-Type>\n<body>" as each SDK frames a batch
// (spec §7.2): JS (CRLF, extra blank lines), legacy node (LF, charset parameters, MERGE,
// Content-ID among the request headers), Python (Content-ID part headers, blank line before the
// batch close), a lone GET, tunnelling and padding variations.
#pragma once

#include <string>
#include <vector>

namespace malachite::fuzz {

inline std::vector<std::string> MultipartSeeds() {
  const std::string url = "http://127.0.0.1:10002/devstoreaccount1/parts";
  return {
      "multipart/mixed; boundary=batch_1\n"
      "--batch_1\r\ncontent-type: multipart/mixed; boundary=changeset_2\r\n\r\n"
      "--changeset_2\r\ncontent-type: application/http\r\ncontent-transfer-encoding: binary\r\n\r\n"
      "POST " +
          url +
          " HTTP/1.1\r\ncontent-type: application/json;odata=nometadata\r\n"
          "prefer: return-no-content\r\n\r\n\r\n"
          "{\"PartitionKey\":\"p2\",\"RowKey\":\"a\",\"v\":1,\"n@odata.type\":\"Edm.Int64\",\"n\":"
          "\"5\"}\r\n"
          "--changeset_2\r\ncontent-type: application/http\r\ncontent-transfer-encoding: "
          "binary\r\n\r\n"
          "DELETE " +
          url +
          "(PartitionKey='p2',RowKey='c') HTTP/1.1\r\nif-match: *\r\n\r\n\r\n"
          "--changeset_2--\r\n--batch_1--\r\n",

      "multipart/mixed; charset=\"utf-8\"; boundary=batch_a\n"
      "--batch_a\nContent-Type: multipart/mixed;charset=\"utf-8\";boundary=changeset_b\n\n"
      "--changeset_b\nContent-Type: application/http\nContent-Transfer-Encoding: binary\n\n"
      "MERGE " +
          url +
          "(PartitionKey='p',RowKey='1') HTTP/1.1\n"
          "Content-Type: application/json;type=entry\nIf-Match: *\n\n{\"a\":1}\n"
          "--changeset_b\nContent-Type: application/http\nContent-Transfer-Encoding: binary\n\n"
          "PUT " +
          url +
          "(PartitionKey='p',RowKey='2') HTTP/1.1\ncontent-id: 1\n\n{\"b\":2.5}\n"
          "--changeset_b--\n--batch_a--",

      "multipart/mixed; boundary=batch_py\n"
      "--batch_py\r\nContent-Type: multipart/mixed; boundary=changeset_py\r\n\r\n"
      "--changeset_py\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n"
      "Content-ID: 0\r\n\r\nPATCH " +
          url +
          "(PartitionKey='p',RowKey='x%27y') HTTP/1.1\r\n"
          "x-ms-version: 2019-02-02\r\nContent-Length: 60\r\nAccept: application/json\r\n"
          "Content-Type: application/json\r\n\r\n"
          "{\"PartitionKey\":\"p\",\"PartitionKey@odata.type\":\"Edm.String\",\"d\":null}\r\n"
          "--changeset_py--\r\n\r\n--batch_py--\r\n",

      "multipart/mixed; boundary=batch_q\n"
      "--batch_q\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
      "GET " +
          url +
          "(PartitionKey='p',RowKey='r')?$select=a HTTP/1.1\r\n"
          "Accept: application/json;odata=nometadata\r\n\r\n--batch_q--\r\n",

      "Multipart/Mixed;Boundary=\"b x\"\n"
      "preamble\r\n--b x  \r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n"
      "--c\t\r\nContent-Type: application/http\r\n\r\n"
      "POST /devstoreaccount1/parts(PartitionKey='p',RowKey='t') HTTP/1.1\r\n"
      "X-HTTP-Method: MERGE\r\nIf-Match: W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\"\r\n\r\n"
      "{\"g@odata.type\":\"Edm.Guid\",\"g\":\"c9da6455-213d-42c9-9a79-3e9149a57833\"}\r\n"
      "--c--\r\n--b x--\r\nepilogue",
  };
}

}  // namespace malachite::fuzz
