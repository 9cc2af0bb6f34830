#include "tests/fuzz/fuzz_seeds.h"

#include <simdjson.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace malachite::fuzz {
namespace {

namespace dom = simdjson::dom;

std::vector<std::filesystem::path> CaseFiles() {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(FilterCasesDir(), error)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Calls `visit(file)` for each case file that parses; a broken file is the cases test's problem.
template <typename Visit>
void ForEachCaseFile(Visit visit) {
  for (const auto& path : CaseFiles()) {
    dom::parser parser;
    dom::object file;
    if (parser.load(path.string()).get_object().get(file) != simdjson::SUCCESS) continue;
    visit(file);
  }
}

}  // namespace

std::string FilterCasesDir() {
  if (const char* dir = std::getenv("MALACHITE_FILTER_CASES_DIR")) return dir;
  return MALACHITE_FILTER_CASES_DIR;
}

std::vector<std::string> FilterSeeds() {
  std::vector<std::string> seeds;
  ForEachCaseFile([&](dom::object file) {
    dom::array cases;
    if (file["cases"].get_array().get(cases) != simdjson::SUCCESS) return;
    for (dom::element test_case : cases) {
      std::string_view filter;
      if (test_case["filter"].get_string().get(filter) == simdjson::SUCCESS)
        seeds.emplace_back(filter);
    }
  });
  const std::vector<std::string> extra = {
      "PartitionKey eq 'p' and RowKey eq 'r'",
      "PartitionKey eq 'p' and RowKey ge 'a' and RowKey lt 'b'",
      "PartitionKey ge 'a' and PartitionKey le 'c' and Qty gt 3",
      "(PartitionKey eq 'a' or PartitionKey eq 'b') and not (RowKey ne 'x')",
      "RowKey eq 'x' or RowKey eq 'y' or (PartitionKey gt 'q' and RowKey lt '')",
      "not not not (TableName ge 'pre' and TableName lt 'prf')",
      "((((((((((((((((((((Qty eq 1))))))))))))))))))))",
      "Timestamp ge datetime'2024-01-01T00:00:00.0000001Z' and Big lt -9223372036854775808L",
      "Ratio ge -1.7976931348623157E+308 and Ratio le 4.9E-324 and Id eq "
      "guid'00000000-0000-0000-0000-000000000000'",
      "Blob ne binary'00ff' and Blob lt X'FFFFFFFF' and On eq false",
      "PartitionKey eq '\xc3\xa9\xf0\x9f\x98\x80' and RowKey eq 'it''s'",
  };
  seeds.insert(seeds.end(), extra.begin(), extra.end());
  return seeds;
}

std::vector<std::string> EntityJsonSeeds() {
  std::vector<std::string> seeds;
  ForEachCaseFile([&](dom::object file) {
    dom::array entities;
    if (file["entities"].get_array().get(entities) != simdjson::SUCCESS) return;
    for (dom::element entity : entities) seeds.push_back(simdjson::minify(entity));
  });
  const std::vector<std::string> extra = {
      R"({"PartitionKey":"p","RowKey":"r","S":"text","I":-5,"D":2.5,"B":true})",
      R"({"PartitionKey@odata.type":"Edm.String","PartitionKey":"p","RowKey":"r",)"
      R"("L@odata.type":"Edm.Int64","L":"-9223372036854775808","I@odata.type":"Edm.Int32","I":7})",
      R"({"PartitionKey":"p","RowKey":"r","T@odata.type":"Edm.DateTime","T":"2024-02-29T23:59:59.9999999Z",)"
      R"("G@odata.type":"Edm.Guid","G":"a455c695-df98-5678-aaaa-81d3367e5a34",)"
      R"("X@odata.type":"Edm.Binary","X":"AAECAwQ=","N@odata.type":"Edm.Double","N":"NaN",)"
      R"("P@odata.type":"Edm.Double","P":"Infinity","M@odata.type":"Edm.Double","M":"-Infinity"})",
      R"({"odata.metadata":"http://h/a/$metadata#t/@Element","odata.etag":"W/\"x\"",)"
      R"("PartitionKey":"p","RowKey":"r","Timestamp":"2024-01-01T00:00:00Z","Z":null,"E":""})",
      R"({"PartitionKey":"\u00e9\ud83d\ude00","RowKey":"\"q\"","Big":1e300,"Neg":-0.0,"Int":2147483648})",
      R"({"RowKey":"only-row","A":{"nested":1}})",
      R"({"a":1,"a":2})",
      R"({})",
  };
  seeds.insert(seeds.end(), extra.begin(), extra.end());
  return seeds;
}

std::vector<std::string> UrlSeeds() {
  const std::string a = "/devstoreaccount1";
  return {
      "GET " + a + "/Tables",
      "GET " + a + "/Tables()?$filter=TableName%20ge%20%27a%27&$top=5&NextTableName=b",
      "POST " + a + "/Tables\nContent-Type: application/json",
      "GET " + a + "/Tables('mytable')",
      "DELETE " + a + "/Tables(%27mytable%27)",
      "GET " + a + "/mytable()?$filter=PartitionKey%20eq%20%27p%27&$select=A,B&$top=1000",
      "GET " + a + "/mytable?NextPartitionKey=1!8!cA--&NextRowKey=1!8!cg--",
      "POST " + a + "/mytable\nPrefer: return-no-content",
      "GET " + a + "/mytable(PartitionKey='p',RowKey='r')",
      "GET " + a + "/mytable(PartitionKey=%27a%27%27b%27,RowKey=%27%C3%A9%27)",
      "PUT " + a + "/mytable(PartitionKey='p',RowKey='r')\nIf-Match: *",
      "PUT " + a + "/mytable(PartitionKey='p',RowKey='r')",
      "MERGE " + a + "/mytable(PartitionKey='p', RowKey='')\nIf-Match: W/\"datetime'x'\"",
      "PATCH " + a + "/mytable(PartitionKey='',RowKey='')",
      "DELETE " + a + "/mytable(PartitionKey='p',RowKey='r')\nIf-Match: *",
      "POST " + a + "/mytable(PartitionKey='p',RowKey='r')\nX-HTTP-Method: MERGE\nIf-Match: *",
      "POST " + a +
          "/mytable(PartitionKey='p',RowKey='r')\nX-HTTP-Method: DELETE\nX-HTTP-Method: PUT",
      "GET " + a + "/mytable(PartitionKey='p',RowKey='r')\nX-HTTP-Method: PUT",
      "POST " + a + "/$batch\nContent-Type: multipart/mixed; boundary=batch_1",
      "GET " + a + "/mytable?comp=acl",
      "PUT " + a + "/mytable?comp=acl",
      "GET " + a + "/?restype=service&comp=properties",
      "PUT " + a + "/?restype=service&comp=properties",
      "GET " + a + "-secondary/?restype=service&comp=stats",
      "OPTIONS " + a + "/mytable\nOrigin: http://x\nAccess-Control-Request-Method: PUT",
      "GET http://127.0.0.1:10002" + a + "/Tables('t12')",
      "GET " + a + "/Tables('tables')",
      "GET " + a + "/1abc()",
      "GET " + a + "/mytable()?sv=2019-02-02&sig=abc%2B%2F%3D&tn=mytable&spk=a&epk=b&sp=raud",
      "HEAD /",
      // Host style (spec §1.1): the account in the Host or the absolute-form authority.
      "GET /Tables\nHost: devstoreaccount1.localhost:10002",
      "GET /mytable(PartitionKey='p',RowKey='r')\nHost: devstoreaccount1.table.localhost",
      "GET /?restype=service&comp=stats\nHost: devstoreaccount1-secondary.localhost:10002",
      "POST https://devstoreaccount1.localhost:10002/mytable\nHost: [::1]:10002",
  };
}

}  // namespace malachite::fuzz
