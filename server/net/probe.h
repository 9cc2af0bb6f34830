// `malachite --probe URL`: a minimal HTTP(S) GET for container health checks, so that the runtime
// image needs no curl.
#pragma once

#include <string>
#include <string_view>

#include "config/server_config.h"

namespace malachite::server {

// GETs `url` (http://host[:port]/path or https://...; the certificate is not verified: the probe
// talks to its own server) with a 5-second overall timeout. Returns 0 when the answer is 200,
// else 1; writes one line saying what happened to stderr when it is not 200.
int Probe(const std::string& url);

// The URL of `path` (e.g. "/-/ready") on the server `config` describes, as a client on the same
// machine reaches it: https when config.cert_file is set; config.host, or loopback for the
// wildcard addresses (0.0.0.0 -> 127.0.0.1, :: -> [::1]); config.port. What `--probe /-/ready`
// probes, so that a container's health check follows MALACHITE_PORT and MALACHITE_CERT.
std::string SelfProbeUrl(const ServerConfig& config, std::string_view path);

}  // namespace malachite::server
