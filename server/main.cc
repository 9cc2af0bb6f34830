// The `malachite` binary: parse the configuration, bind the port, open the store, serve until
// SIGINT/SIGTERM, then drain and close everything in order.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>

#include "common/clock.h"
#include "config/server_config.h"
#include "server/listener.h"
#include "server/service.h"
#include "storage/store.h"

int main(int argc, char** argv, char** envp) {
  using namespace malachite;
  auto config = ParseArgs(argc, argv, envp);
  if (!config) {
    std::fprintf(stderr, "malachite: %s\n", config.error().message.c_str());
    return 2;
  }
  if (config->help) {
    std::fputs(HelpText().c_str(), stdout);
    return 0;
  }
  // Logs go to stderr: stdout carries only the "listening on" line tests parse.
  spdlog::set_default_logger(spdlog::stderr_color_mt("malachite"));
  spdlog::set_level(spdlog::level::from_str(config->log_level));

  // Bind first: a busy port fails before the data directory is touched.
  auto listener = server::Listener::Open(*config);
  if (!listener) {
    std::fprintf(stderr, "malachite: %s\n", listener.error().message.c_str());
    return 1;
  }
  const std::uint16_t port = (*listener)->port();

  storage::StoreOptions options;
  options.data_dir = config->data_dir;
  options.map_size_bytes = config->map_size_mb << 20;
  options.sync = config->sync;
  auto store = storage::Store::Open(options, SystemClock::Instance());
  if (!store) {
    std::fprintf(stderr, "malachite: %s\n", store.error().message.c_str());
    return 1;
  }
  // With --port 0 the bound port is only known now; it is the default Host of base URLs.
  config->port = port;
  server::Service service(*config, **store, SystemClock::Instance());

  const AccountConfig& account = config->accounts.front();
  spdlog::info("Malachite 0.1.0 (Azure Table storage emulator)");
  spdlog::info("listening on {}:{} with {} threads; data dir {}", config->host, port,
               config->threads, config->data_dir);
  spdlog::info(
      "connection string: DefaultEndpointsProtocol=http;AccountName={};AccountKey={};"
      "TableEndpoint=http://{}:{}/{};",
      account.name, account.key1, config->host, port, account.name);
  // Tests parse this line to learn the port (--port 0).
  std::printf("malachite: listening on %s:%u\n", config->host.c_str(), static_cast<unsigned>(port));
  std::fflush(stdout);

  (*listener)->Run(service, **store);
  spdlog::info("stopped accepting; closing the store");
  // The store first (drains the writer, whose completions post into the stopped I/O context),
  // then the listener (destroys the I/O context and any idle sessions).
  store->reset();
  listener->reset();
  spdlog::info("bye");
  return 0;
}
