// Connection strings: the emulator shorthand, explicit endpoints, Azure and SAS.
#include "cli/connection_string.h"

#include <catch2/catch.hpp>
#include <string>

namespace malachite::cli {
namespace {

std::string Dump(const TableEndpoint& e) {
  return e.BaseUrl() + " account=" + e.account + " key=" + (e.key.empty() ? "no" : "yes") +
         " sas=" + e.sas;
}

}  // namespace

TEST_CASE("connection_string: the emulator shorthand, explicit endpoints, Azure and SAS", "[cli]") {
  CHECK(Dump(*ParseConnectionString("UseDevelopmentStorage=true")) ==
        "http://127.0.0.1:10002/devstoreaccount1 account=devstoreaccount1 key=yes sas=");
  CHECK(Dump(*ParseConnectionString(
            "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=a2V5;"
            "TableEndpoint=http://127.0.0.1:4000/devstoreaccount1;")) ==
        "http://127.0.0.1:4000/devstoreaccount1 account=devstoreaccount1 key=yes sas=");
  CHECK(Dump(*ParseConnectionString("DefaultEndpointsProtocol=https;AccountName=acme;AccountKey="
                                    "a2V5;EndpointSuffix=core.windows.net")) ==
        "https://acme.table.core.windows.net account=acme key=yes sas=");
  CHECK(Dump(*ParseConnectionString("TableEndpoint=https://acme.table.core.windows.net/"
                                    ";SharedAccessSignature=sv=2019&sig=x")) ==
        "https://acme.table.core.windows.net account=acme key=no sas=sv=2019&sig=x");
  CHECK(ParseConnectionString("AccountName=acme").error().message ==
        "the connection string has neither AccountKey nor SharedAccessSignature");
  CHECK(ParseConnectionString("garbage").error().message ==
        "connection string part 'garbage' is not name=value");
  CHECK(EndpointFromUrl("ftp://x", "", "a2V5", "").error().message ==
        "'ftp://x' is not an http(s) URL");
}

}  // namespace malachite::cli
