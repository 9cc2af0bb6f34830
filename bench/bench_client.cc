#include "bench/bench_client.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/url/encode.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include "common/encoding.h"

namespace malachite::bench {
namespace {

// A query parameter value, percent-encoded (RFC 3986 unreserved characters stay as they are).
std::string PercentEncode(std::string_view text) {
  return boost::urls::encode(text, boost::urls::unreserved_chars);
}

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using Clock = std::chrono::steady_clock;
using Request = http::request<http::string_body>;
constexpr auto kToken = asio::as_tuple(asio::use_awaitable);
constexpr std::size_t kBodyLimit = 64 * 1024 * 1024;
constexpr std::size_t kReadRoom = 64 * 1024;

std::string RowKey(std::size_t i) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "r%08zu", i);
  return buffer;
}

std::string EntityPath(const Target& target, std::string_view pk, std::string_view rk) {
  std::string path = "/" + target.account + "/" + target.table + "(PartitionKey='";
  path.append(pk).append("',RowKey='").append(rk).append("')");
  return path;
}

std::string EntityBody(std::string_view pk, std::string_view rk, std::size_t n) {
  std::string body = "{\"PartitionKey\":\"";
  body.append(pk).append("\",\"RowKey\":\"").append(rk);
  body.append("\",\"Name\":\"bench\",\"Qty\":").append(std::to_string(n % 100000));
  body.append(",\"Price\":1.25,\"Active\":true,\"Payload\":\"");
  body.append(100, 'x').append("\"}");
  return body;
}

// The multipart body of batch `j` (bench_client.h: kBatch), framed as the SDKs frame it.
std::string BatchBody(const Target& target, const std::string& prefix, std::size_t j,
                      std::size_t op) {
  const std::size_t p = j % kSeedPartitions;
  const std::string pk = prefix + std::to_string(p);
  const std::string url = "http://" + target.host + ":" + std::to_string(target.port) + "/" +
                          target.account + "/" + target.table;
  std::string body = "--batch_b\r\ncontent-type: multipart/mixed; boundary=changeset_b\r\n\r\n";
  body.reserve(kBatchSize * 520);
  for (std::size_t m = 0; m < kBatchSize; ++m) {
    const std::size_t i = p + kSeedPartitions * (kBatchSize * (j / kSeedPartitions) + m);
    body +=
        "--changeset_b\r\ncontent-type: application/http\r\ncontent-transfer-encoding: "
        "binary\r\n\r\nPOST ";
    body += url;
    body +=
        " HTTP/1.1\r\ncontent-type: application/json;odata=nometadata\r\n"
        "accept: application/json;odata=minimalmetadata\r\nprefer: return-no-content\r\n\r\n";
    body += EntityBody(pk, RowKey(i), op * kBatchSize + m);
    body += "\r\n";
  }
  return body + "--changeset_b--\r\n--batch_b--\r\n";
}

// A request carrying the headers every SDK sends, signed with SharedKeyLite over `path`.
Request MakeRequest(const Target& target, const SharedKeyLiteSigner& signer, http::verb verb,
                    const std::string& path, std::string_view query, std::string body) {
  Request request{verb, query.empty() ? path : path + "?" + std::string(query), 11};
  const std::string& date = Rfc1123Now();
  request.set(http::field::host, target.host + ":" + std::to_string(target.port));
  request.set("x-ms-date", date);
  request.set("x-ms-version", "2019-02-02");
  request.set(http::field::accept, "application/json;odata=minimalmetadata");
  request.set("DataServiceVersion", "3.0");
  request.set(http::field::authorization, signer.Authorization(date, path));
  if (!body.empty()) {
    request.set(http::field::content_type, "application/json");
    request.body() = std::move(body);
  }
  request.keep_alive(true);
  request.prepare_payload();
  return request;
}

// The request's bytes on the wire, written by hand: Beast's serializer walks a buffer sequence of
// every header line, which cost the client as much CPU per point read as the server spent.
std::string WireBytes(const Request& request) {
  std::string wire;
  wire.reserve(384 + request.body().size());
  const auto verb = request.method_string();
  const auto target = request.target();
  wire.append(verb.data(), verb.size()).append(" ").append(target.data(), target.size());
  wire.append(" HTTP/1.1\r\n");
  for (const auto& field : request) {
    const auto name = field.name_string();
    const auto value = field.value();
    wire.append(name.data(), name.size()).append(": ").append(value.data(), value.size());
    wire.append("\r\n");
  }
  wire.append("\r\n").append(request.body());
  return wire;
}

// State shared by the workers of one run (all on one thread: no locking).
struct RunState {
  RunState(const Target& t, const SharedKeyLiteSigner& s, const RunOptions& o, Clock::time_point d)
      : target(t), signer(s), options(o), deadline(d) {}

  const Target& target;
  const SharedKeyLiteSigner& signer;
  const RunOptions& options;
  Clock::time_point deadline;
  std::size_t next_op = 0;
  RunResult result;
  std::mt19937_64 random{12345};

  bool TakeOp(std::size_t& op) {
    if (next_op >= options.max_ops || Clock::now() >= deadline) return false;
    op = next_op++;
    return true;
  }
  void Fail(std::string what) {
    ++result.errors;
    if (result.first_error.empty()) result.first_error = std::move(what);
  }
};

// Per-connection listing cursor: the continuation of the page in progress.
struct ListCursor {
  std::string next_partition_key;
  std::string next_row_key;
};

struct PreparedOp {
  Request request;
  unsigned expected_status;
  std::size_t expected_entities = 0;  // checked for the query scenarios that know their answer
};

std::string Quoted(std::string_view key) { return "'" + std::string(key) + "'"; }

std::string ContinuationQuery(const ListCursor& cursor) {
  if (cursor.next_partition_key.empty()) return "";
  std::string query = "NextPartitionKey=" + PercentEncode(cursor.next_partition_key);
  if (!cursor.next_row_key.empty()) query += "&NextRowKey=" + PercentEncode(cursor.next_row_key);
  return query;
}

// The $filter of a point or 100-row range query over the seeded entities.
std::string SeededQueryFilter(RunState& state) {
  const std::size_t key_space = state.options.key_space;
  if (state.options.scenario == Scenario::kQueryPoint) {
    const std::size_t i = state.random() % key_space;
    return "PartitionKey eq " + Quoted(SeedPartition(i)) + " and RowKey eq " + Quoted(SeedRow(i));
  }
  // Partition k holds i = k, k + 16, ...; kRangeRows consecutive ones of them, as RowKeys sort
  // like the numbers they encode.
  const std::size_t k = state.random() % kSeedPartitions;
  const std::size_t rows = (key_space - k + kSeedPartitions - 1) / kSeedPartitions;
  const std::size_t first = k + kSeedPartitions * (state.random() % (rows - kRangeRows + 1));
  const std::size_t last = first + kSeedPartitions * (kRangeRows - 1);
  return "PartitionKey eq " + Quoted(SeedPartition(first)) + " and RowKey ge " +
         Quoted(SeedRow(first)) + " and RowKey le " + Quoted(SeedRow(last));
}

PreparedOp PrepareOp(RunState& state, std::size_t op, const ListCursor& cursor) {
  const Target& target = state.target;
  switch (state.options.scenario) {
    case Scenario::kInsert: {
      std::string pk = state.options.insert_prefix + std::to_string(op % kSeedPartitions);
      std::string rk = RowKey(op);
      Request request =
          MakeRequest(target, state.signer, http::verb::post,
                      "/" + target.account + "/" + target.table, "", EntityBody(pk, rk, op));
      request.set("Prefer", "return-no-content");
      return {std::move(request), 204};
    }
    case Scenario::kDelete: {
      std::string pk = state.options.insert_prefix + std::to_string(op % kSeedPartitions);
      Request request = MakeRequest(target, state.signer, http::verb::delete_,
                                    EntityPath(target, pk, RowKey(op)), "", "");
      request.set(http::field::if_match, "*");
      return {std::move(request), 204};
    }
    case Scenario::kBatch: {
      Request request =
          MakeRequest(target, state.signer, http::verb::post, "/" + target.account + "/$batch", "",
                      BatchBody(target, state.options.insert_prefix, op, op));
      request.set(http::field::content_type, "multipart/mixed; boundary=batch_b");
      return {std::move(request), 202, kBatchSize};
    }
    case Scenario::kPointRead:
    case Scenario::kUpsert:
    case Scenario::kMerge: {
      std::size_t i = state.random() % state.options.key_space;
      std::string pk = SeedPartition(i);
      std::string rk = SeedRow(i);
      if (state.options.scenario == Scenario::kPointRead) {
        return {
            MakeRequest(target, state.signer, http::verb::get, EntityPath(target, pk, rk), "", ""),
            200};
      }
      if (state.options.scenario == Scenario::kMerge) {
        Request request = MakeRequest(target, state.signer, http::verb::patch,
                                      EntityPath(target, pk, rk), "", EntityBody(pk, rk, op));
        request.set(http::field::if_match, "*");
        return {std::move(request), 204};
      }
      return {MakeRequest(target, state.signer, http::verb::put, EntityPath(target, pk, rk), "",
                          EntityBody(pk, rk, op)),
              204};
    }
    case Scenario::kList:
    case Scenario::kScan: {
      std::string query = ContinuationQuery(cursor);
      if (state.options.scenario == Scenario::kScan) {
        query = "$filter=" + PercentEncode(state.options.scan_filter) +
                (query.empty() ? "" : "&" + query);
      }
      return {MakeRequest(target, state.signer, http::verb::get,
                          "/" + target.account + "/" + target.table + "()", query, ""),
              200};
    }
    case Scenario::kQueryPoint:
    case Scenario::kQueryRange: {
      const std::string query = "$filter=" + PercentEncode(SeededQueryFilter(state));
      return {MakeRequest(target, state.signer, http::verb::get,
                          "/" + target.account + "/" + target.table + "()", query, ""),
              200, state.options.scenario == Scenario::kQueryPoint ? 1 : kRangeRows};
    }
  }
  return {};
}

// `scanned=N` of x-malachite-query-plan (server --explain), else 0.
std::size_t ScannedFromHeader(std::string_view header) {
  const std::size_t at = header.rfind("scanned=");
  return at == std::string_view::npos ? 0 : std::strtoull(header.data() + at + 8, nullptr, 10);
}

std::size_t CountEntities(const std::string& body) {
  // Hops from 'R' to 'R' with memchr: a find of "\"RowKey\":" stops at every quote of the JSON.
  constexpr std::string_view kMember = "\"RowKey\":";
  std::size_t count = 0;
  const char* const begin = body.data();
  const char* const end = begin + body.size();
  for (const char* p = begin; p < end;) {
    const auto* r =
        static_cast<const char*>(std::memchr(p, 'R', static_cast<std::size_t>(end - p)));
    if (r == nullptr) break;
    if (r > begin && static_cast<std::size_t>(end - r) >= kMember.size() - 1 &&
        std::string_view(r - 1, kMember.size()) == kMember) {
      ++count;
    }
    p = r + 1;
  }
  return count;
}

asio::awaitable<void> Worker(RunState& state, asio::ip::tcp::endpoint endpoint) {
  beast::tcp_stream stream(co_await asio::this_coro::executor);
  auto [connect_error] = co_await stream.async_connect(endpoint, kToken);
  if (connect_error) {
    state.Fail("connect: " + connect_error.message());
    co_return;
  }
  // Beast reads into the buffer's free room (at least 512 bytes): without room to spare, a 30 KB
  // query answer would take dozens of reads, and the client's CPU is shared with the servers.
  beast::flat_buffer buffer;
  buffer.reserve(kReadRoom);
  ListCursor cursor;
  std::size_t op = 0;
  while (state.TakeOp(op)) {
    PreparedOp prepared = PrepareOp(state, op, cursor);
    const std::string wire = WireBytes(prepared.request);
    auto start = Clock::now();
    auto [write_error, written] = co_await asio::async_write(stream, asio::buffer(wire), kToken);
    http::response_parser<http::string_body> parser;
    parser.body_limit(kBodyLimit);
    beast::error_code read_error;
    if (!write_error)
      std::tie(read_error, std::ignore) = co_await http::async_read(stream, buffer, parser, kToken);
    if (write_error || read_error) {
      state.Fail("transport: " + (write_error ? write_error : read_error).message());
      co_return;
    }
    auto micros = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
    auto& response = parser.get();
    const bool status_ok = state.options.reference
                               ? response.result_int() / 100 == 2
                               : response.result_int() == prepared.expected_status;
    if (!status_ok) {
      state.Fail("HTTP " + std::to_string(response.result_int()) + " for " +
                 std::string(prepared.request.target()) + ": " + response.body().substr(0, 300));
      continue;
    }
    const Scenario scenario = state.options.scenario;
    const bool query = scenario == Scenario::kList || scenario == Scenario::kScan ||
                       scenario == Scenario::kQueryPoint || scenario == Scenario::kQueryRange;
    std::size_t entities = query ? CountEntities(response.body()) : 1;
    if (scenario == Scenario::kBatch) {
      entities = kBatchSize;
      // Azure: spec §7 — a failed changeset still answers 202; its part carries the error.
      const std::string& body = response.body();
      if (!state.options.reference && (body.find("HTTP/1.1 4") != std::string::npos ||
                                       body.find("HTTP/1.1 5") != std::string::npos)) {
        state.Fail("batch failed: " + response.body().substr(0, 300));
        continue;
      }
    }
    if (!state.options.reference && prepared.expected_entities != 0 &&
        entities != prepared.expected_entities) {
      state.Fail(std::to_string(entities) + " entities instead of " +
                 std::to_string(prepared.expected_entities) + " for " +
                 std::string(prepared.request.target()));
      continue;
    }
    ++state.result.ops;
    state.result.latencies.Record(micros);
    state.result.entities += entities;
    const auto plan_header = response["x-malachite-query-plan"];
    state.result.scanned += ScannedFromHeader({plan_header.data(), plan_header.size()});
    if (scenario == Scenario::kList || scenario == Scenario::kScan) {
      cursor.next_partition_key = std::string(response["x-ms-continuation-NextPartitionKey"]);
      cursor.next_row_key = std::string(response["x-ms-continuation-NextRowKey"]);
    }
    if (!response.keep_alive()) {
      state.Fail("server closed the keep-alive connection");
      co_return;
    }
  }
  beast::error_code ignored;
  stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
}

}  // namespace

std::string_view ScenarioName(Scenario scenario) {
  switch (scenario) {
    case Scenario::kInsert:
      return "insert";
    case Scenario::kPointRead:
      return "point-read";
    case Scenario::kUpsert:
      return "upsert";
    case Scenario::kMerge:
      return "merge";
    case Scenario::kList:
      return "list-page";
    case Scenario::kQueryPoint:
      return "query-point";
    case Scenario::kQueryRange:
      return "query-range";
    case Scenario::kScan:
      return "scan-page";
    case Scenario::kDelete:
      return "delete";
    case Scenario::kBatch:
      return "batch-100";
  }
  return "?";
}

std::string SeedPartition(std::size_t i) { return "seed" + std::to_string(i % kSeedPartitions); }
std::string SeedRow(std::size_t i) { return RowKey(i); }

RunResult RunScenario(const Target& target, const SharedKeyLiteSigner& signer,
                      const RunOptions& options) {
  asio::io_context context(1);
  auto endpoint = asio::ip::tcp::endpoint(asio::ip::make_address(target.host), target.port);
  auto start = Clock::now();
  RunState state(target, signer, options,
                 start + std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double>(options.max_seconds)));
  for (int i = 0; i < options.connections; ++i) {
    asio::co_spawn(context, Worker(state, endpoint), asio::detached);
  }
  context.run();
  state.result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return std::move(state.result);
}

std::string EnsureTable(const Target& target, const SharedKeyLiteSigner& signer) {
  asio::io_context context(1);
  beast::tcp_stream stream(context);
  beast::error_code error;
  stream.connect(asio::ip::tcp::endpoint(asio::ip::make_address(target.host), target.port), error);
  if (error) return "connect: " + error.message();
  Request request = MakeRequest(target, signer, http::verb::post, "/" + target.account + "/Tables",
                                "", "{\"TableName\":\"" + target.table + "\"}");
  http::write(stream, request, error);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  if (!error) http::read(stream, buffer, response, error);
  if (error) return "create table: " + error.message();
  unsigned status = response.result_int();
  if (status / 100 == 2 || status == 409) return "";
  return "create table: HTTP " + std::to_string(status) + ": " + response.body();
}

}  // namespace malachite::bench
