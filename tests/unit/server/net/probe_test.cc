#include "server/net/probe.h"

#include <catch2/catch.hpp>

namespace malachite::server {

TEST_CASE("probe: a path probes the configuration's own port and scheme", "[probe]") {
  ServerConfig config;
  config.host = "0.0.0.0";
  config.port = 10005;
  CHECK(SelfProbeUrl(config, "/-/ready") == "http://127.0.0.1:10005/-/ready");
  config.cert_file = "/certs/cert.pem";
  CHECK(SelfProbeUrl(config, "/-/ready") == "https://127.0.0.1:10005/-/ready");
  config.host = "::";
  CHECK(SelfProbeUrl(config, "/-/healthy") == "https://[::1]:10005/-/healthy");
  config.host = "192.0.2.7";
  config.cert_file.clear();
  CHECK(SelfProbeUrl(config, "/-/ready") == "http://192.0.2.7:10005/-/ready");
}

TEST_CASE("probe: a URL that is not http(s) fails at once", "[probe]") {
  CHECK(Probe("ftp://127.0.0.1/-/ready") == 1);
  CHECK(Probe("not a url") == 1);
}

}  // namespace malachite::server
