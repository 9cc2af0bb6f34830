// The TCP listener: binds the configured address and runs the Beast sessions on `threads`
// I/O threads until SIGINT/SIGTERM. No Boost in this header (the implementation is in .cc).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "config/server_config.h"
#include "server/admin/data_endpoints.h"
#include "server/pipeline/service.h"
#include "storage/store.h"

namespace malachite::server {

class Listener {
 public:
  // Binds and listens on config.host:config.port (port 0 picks a free port); with
  // config.cert_file/key_file set, loads them and serves HTTPS only. Errors: kInternalError with a
  // one-line message ("cannot listen on 127.0.0.1:10002: Address already in use", "cannot load
  // --cert 'x.pem': ...").
  static Result<std::unique_ptr<Listener>> Open(const ServerConfig& config);
  virtual ~Listener() = default;

  // The port actually bound.
  virtual std::uint16_t port() const = 0;

  // True when connections speak TLS (--cert/--key).
  virtual bool secure() const = 0;

  // The connection limits in force, one log line each: the open-file limit (raised to the hard
  // limit at Open) and the number of connections past which idle ones are closed; the memory
  // budget of request bodies in flight.
  virtual std::vector<std::string> Describe() const = 0;

  // Serves connections with `service` (writes go to `store`) on config.threads threads; returns
  // after SIGINT/SIGTERM once in-flight requests finished (bounded wait). After Run returns, the
  // store may be destroyed first, then the Listener. `data` (may be null: no /-/reset or
  // /-/backup) must outlive Run; their jobs run on a thread of their own, joined before Run
  // returns.
  virtual void Run(const Service& service, storage::Store& store,
                   const DataEndpoints* data = nullptr) = 0;
};

}  // namespace malachite::server
