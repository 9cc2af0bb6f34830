// batch_loader: loads N entities through $batch (spec §7) in B-operation changesets from C
// concurrent keep-alive connections (one blocking thread each) and reports entities per second,
// batch latency percentiles and, with --server-pid, the server's CPU time per entity.
//
//   batch_loader --port 10002 [--entities 1000000] [--clients 8] [--batch 100]
//                [--table loadtable] [--server-pid <pid>]
//
// Each batch inserts B fresh entities into one partition (PartitionKey "c<client>-<n>"), as the
// JS SDK frames it (CRLF, Prefer: return-no-content). Every response must be 202 without an
// error part; anything else is counted and the first one printed.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/hmac.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/encoding.h"

namespace {

constexpr const char* kAccount = "devstoreaccount1";
constexpr const char* kKey =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

struct Options {
  std::string host = "127.0.0.1";
  int port = 10002;
  long entities = 1000000;
  int clients = 8;
  int batch = 100;
  std::string table = "loadtable";
  long server_pid = 0;
};

std::string HttpDate() {
  char buffer[64];
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::strftime(buffer, sizeof buffer, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return buffer;
}

// SharedKeyLite (Table): HMAC-SHA256 over "<date>\n/<account>/<account><path>".
std::string Authorization(const std::string& date, const std::string& path) {
  static const std::string key = *malachite::Base64Decode(kKey);
  const std::string to_sign = date + "\n/" + kAccount + "/" + kAccount + path;
  unsigned char digest[32];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(to_sign.data()), to_sign.size(), digest, &length);
  return std::string("SharedKeyLite ") + kAccount + ":" +
         malachite::Base64Encode(std::string_view(reinterpret_cast<char*>(digest), length));
}

class Connection {
 public:
  explicit Connection(const Options& options) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(options.port));
    inet_pton(AF_INET, options.host.c_str(), &address.sin_addr);
    if (connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
      std::perror("connect");
      std::exit(1);
    }
    int one = 1;
    setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  ~Connection() { close(fd_); }

  // Sends one request and returns "<status>\n<body>", or "" on a transport error.
  std::string Exchange(const std::string& method, const std::string& path,
                       const std::string& content_type, const std::string& body) {
    const std::string date = HttpDate();
    std::string request = method + " /" + kAccount + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                          "x-ms-date: " + date + "\r\nx-ms-version: 2019-02-02\r\n" +
                          "Accept: application/json\r\nDataServiceVersion: 3.0\r\n" +
                          "Authorization: " + Authorization(date, path) + "\r\n" +
                          "Content-Type: " + content_type + "\r\n" +
                          "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    for (std::size_t sent = 0; sent < request.size();) {
      const ssize_t n = send(fd_, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return {};
      sent += static_cast<std::size_t>(n);
    }
    std::string in;
    std::size_t head_end = std::string::npos;
    char buffer[65536];
    while ((head_end = in.find("\r\n\r\n")) == std::string::npos) {
      const ssize_t n = recv(fd_, buffer, sizeof buffer, 0);
      if (n <= 0) return {};
      in.append(buffer, static_cast<std::size_t>(n));
    }
    std::size_t length = 0;
    const std::size_t cl = in.find("Content-Length: ");
    if (cl != std::string::npos && cl < head_end)
      length = std::strtoul(in.c_str() + cl + 16, nullptr, 10);
    while (in.size() < head_end + 4 + length) {
      const ssize_t n = recv(fd_, buffer, sizeof buffer, 0);
      if (n <= 0) return {};
      in.append(buffer, static_cast<std::size_t>(n));
    }
    return in.substr(9, 3) + "\n" + in.substr(head_end + 4, length);
  }

 private:
  int fd_ = -1;
};

std::string BatchBody(const Options& options, const std::string& partition, long first_row) {
  const std::string url = "http://" + options.host + ":" + std::to_string(options.port) + "/" +
                          kAccount + "/" + options.table;
  std::string body =
      "--batch_load\r\ncontent-type: multipart/mixed; boundary=changeset_load\r\n\r\n";
  char row[32];
  for (int i = 0; i < options.batch; ++i) {
    std::snprintf(row, sizeof row, "%010ld", first_row + i);
    body +=
        "--changeset_load\r\ncontent-type: application/http\r\ncontent-transfer-encoding: "
        "binary\r\n\r\nPOST " +
        url +
        " HTTP/1.1\r\ncontent-type: application/json;odata=nometadata\r\n"
        "accept: application/json;odata=minimalmetadata\r\nprefer: return-no-content\r\n\r\n"
        "{\"PartitionKey\":\"" +
        partition + "\",\"RowKey\":\"" + row + "\",\"Name\":\"customer " + row +
        "\",\"Qty\":" + std::to_string(i) +
        ",\"Price\":12.5,\"Active\":true,\"City\":\"Seattle\"}\r\n";
  }
  return body + "--changeset_load--\r\n--batch_load--\r\n";
}

double ServerCpuSeconds(long pid) {
  if (pid <= 0) return 0;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const std::size_t close = text.rfind(')');
  if (close == std::string::npos) return 0;
  std::vector<std::string> fields;
  std::size_t pos = close + 2;
  while (pos < text.size()) {
    const std::size_t space = text.find(' ', pos);
    fields.push_back(text.substr(pos, space - pos));
    if (space == std::string::npos) break;
    pos = space + 1;
  }
  // Fields after ")" start at field 3 (state); utime and stime are fields 14 and 15.
  if (fields.size() < 13) return 0;
  return (std::stod(fields[11]) + std::stod(fields[12])) /
         static_cast<double>(sysconf(_SC_CLK_TCK));
}

Options Parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::string value = argv[i + 1];
    if (flag == "--host")
      options.host = value;
    else if (flag == "--port")
      options.port = std::stoi(value);
    else if (flag == "--entities")
      options.entities = std::stol(value);
    else if (flag == "--clients")
      options.clients = std::stoi(value);
    else if (flag == "--batch")
      options.batch = std::stoi(value);
    else if (flag == "--table")
      options.table = value;
    else if (flag == "--server-pid")
      options.server_pid = std::stol(value);
    else {
      std::fprintf(stderr, "unknown flag %s\n", flag.c_str());
      std::exit(2);
    }
  }
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = Parse(argc, argv);
  {
    Connection setup(options);
    const std::string created = setup.Exchange("POST", "/Tables", "application/json",
                                               "{\"TableName\":\"" + options.table + "\"}");
    if (created.substr(0, 3) != "201" && created.substr(0, 3) != "409") {
      std::fprintf(stderr, "create table failed: %s\n", created.c_str());
      return 1;
    }
  }
  const long batches = (options.entities + options.batch - 1) / options.batch;
  std::atomic<long> next{0};
  std::atomic<long> errors{0};
  std::mutex mu;
  std::vector<double> latencies_ms;
  std::string first_error;
  const double cpu_before = ServerCpuSeconds(options.server_pid);
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int c = 0; c < options.clients; ++c) {
    threads.emplace_back([&, c] {
      Connection connection(options);
      std::vector<double> mine;
      for (long b = next++; b < batches; b = next++) {
        // 50 batches (5,000 entities) per partition.
        std::string partition = "c";
        partition.append(std::to_string(c)).append("-").append(std::to_string(b / 50));
        const std::string body = BatchBody(options, partition, b * options.batch);
        const auto sent = std::chrono::steady_clock::now();
        const std::string reply =
            connection.Exchange("POST", "/$batch", "multipart/mixed; boundary=batch_load", body);
        mine.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - sent)
                .count());
        if (reply.substr(0, 3) != "202" || reply.find("HTTP/1.1 4") != std::string::npos ||
            reply.find("HTTP/1.1 5") != std::string::npos) {
          ++errors;
          std::lock_guard<std::mutex> lock(mu);
          if (first_error.empty()) first_error = reply.substr(0, 600);
        }
      }
      std::lock_guard<std::mutex> lock(mu);
      latencies_ms.insert(latencies_ms.end(), mine.begin(), mine.end());
    });
  }
  for (auto& thread : threads) thread.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = ServerCpuSeconds(options.server_pid) - cpu_before;
  std::sort(latencies_ms.begin(), latencies_ms.end());
  auto pct = [&](double p) {
    return latencies_ms.empty()
               ? 0.0
               : latencies_ms[static_cast<std::size_t>(p * (latencies_ms.size() - 1))];
  };
  const double entities = static_cast<double>(batches - errors.load()) * options.batch;
  std::printf(
      "batch_loader: %.0f entities in %ld batches of %d from %d clients in %.2f s = %.0f "
      "entities/s "
      "(%.0f batches/s); batch latency ms p50 %.2f p90 %.2f p99 %.2f max %.2f; errors %ld\n",
      entities, batches, options.batch, options.clients, seconds, entities / seconds,
      static_cast<double>(batches) / seconds, pct(0.5), pct(0.9), pct(0.99), pct(1.0),
      errors.load());
  if (options.server_pid > 0) {
    std::printf("batch_loader: server CPU %.2f s = %.2f us per entity (%.0f%% of one core)\n", cpu,
                cpu * 1e6 / entities, 100 * cpu / seconds);
  }
  if (!first_error.empty()) std::printf("first error:\n%s\n", first_error.c_str());
  return errors.load() == 0 ? 0 : 1;
}
