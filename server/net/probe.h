// `malachite --probe URL`: a minimal HTTP(S) GET for container health checks, so that the runtime
// image needs no curl.
#pragma once

#include <string>

namespace malachite::server {

// GETs `url` (http://host[:port]/path or https://...; the certificate is not verified: the probe
// talks to its own server) with a 5-second overall timeout. Returns 0 when the answer is 200,
// else 1; writes one line saying what happened to stderr when it is not 200.
int Probe(const std::string& url);

}  // namespace malachite::server
