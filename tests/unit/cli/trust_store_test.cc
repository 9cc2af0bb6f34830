#include "cli/trust_store.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <string_view>

namespace malachite::cli {
namespace {

auto Having(std::set<std::string, std::less<>> files) {
  return [files = std::move(files)](std::string_view path) { return files.contains(path); };
}

TEST_CASE("the system trust file is the distribution's CA bundle, Debian's first",
          "[trust_store]") {
  CHECK(SystemTrustFile(Having({"/etc/ssl/certs/ca-certificates.crt", "/etc/ssl/cert.pem"})) ==
        "/etc/ssl/certs/ca-certificates.crt");
}

TEST_CASE("on RHEL, Amazon Linux and Alpine the static binary finds their bundles",
          "[trust_store]") {
  CHECK(SystemTrustFile(Having({"/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem"})) ==
        "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem");
  CHECK(SystemTrustFile(Having({"/etc/pki/tls/certs/ca-bundle.crt",
                                "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem"})) ==
        "/etc/pki/tls/certs/ca-bundle.crt");
  CHECK(SystemTrustFile(Having({"/etc/ssl/cert.pem"})) == "/etc/ssl/cert.pem");
}

TEST_CASE("a root with no CA bundle has no system trust file", "[trust_store]") {
  CHECK_FALSE(SystemTrustFile(Having({})).has_value());
  CHECK_FALSE(SystemTrustFile(Having({"/etc/ssl/certs/other.pem"})).has_value());
}

}  // namespace
}  // namespace malachite::cli
