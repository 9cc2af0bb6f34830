// The online TableTarget: the Table REST API of any endpoint, with a pool of keep-alive clients
// so that several threads can write entity group transactions at once.
#include <simdjson.h>

#include <mutex>

#include "cli/table_client.h"
#include "cli/table_target.h"
#include "common/datetime.h"
#include "common/encoding.h"
#include "server/http/url_coding.h"
#include "server/wire/entity_json_parse.h"
#include "server/wire/entity_json_render.h"
#include "server/wire/json_writer.h"

namespace malachite::cli {
namespace {

constexpr std::string_view kFullMetadata = "application/json;odata=fullmetadata";

bool Retryable(int status) { return status == 503 || status == 500 || status == 408; }

WriteFailure FailureOf(const HttpReply& reply) {
  return WriteFailure{ReplyError(reply), std::nullopt, Retryable(reply.status)};
}

// The first failed operation of a $batch response: its status line and odata.error, whose
// message starts with "<index>:" (spec §7.4).
std::optional<WriteFailure> BatchFailure(const std::string& body) {
  for (std::size_t at = body.find("HTTP/1.1 "); at != std::string::npos;
       at = body.find("HTTP/1.1 ", at + 1)) {
    const int status = std::atoi(body.c_str() + at + 9);
    if (status < 300) continue;
    HttpReply part;
    part.status = status;
    const std::size_t json = body.find('{', at);
    const std::size_t end = body.rfind('}');
    if (json != std::string::npos && end != std::string::npos && end > json) {
      part.body = body.substr(json, end - json + 1);
      part.body = part.body.substr(0, part.body.find("\r\n--"));
    }
    WriteFailure failure = FailureOf(part);
    const std::size_t colon = failure.error.message.find(':');
    if (colon != std::string::npos && colon > 0 &&
        failure.error.message.find_first_not_of("0123456789") == colon) {
      failure.index = std::stoul(failure.error.message.substr(0, colon));
      failure.error.message.erase(0, colon + 1);
    }
    return failure;
  }
  return std::nullopt;
}

class HttpTarget final : public TableTarget {
 public:
  explicit HttpTarget(TableEndpoint endpoint) : endpoint_(std::move(endpoint)) {}

  std::string Describe() const override { return endpoint_.BaseUrl(); }

  Result<std::vector<std::string>> ListTables() override {
    auto client = Acquire();
    std::vector<std::string> names;
    std::string next;
    do {
      const std::string query = next.empty() ? "" : "NextTableName=" + server::PercentEncode(next);
      auto reply = client->Send("GET", "/Tables", query, "", "",
                                {{"Accept", "application/json;odata=nometadata"}});
      if (!reply) return tl::unexpected(reply.error());
      if (reply->status != 200) return tl::unexpected(ReplyError(*reply));
      simdjson::dom::parser parser;
      simdjson::dom::array tables;
      if (parser.parse(reply->body)["value"].get(tables) != simdjson::SUCCESS) {
        return Fail(ErrorCode::kInternalError, "Query Tables answered no table list");
      }
      for (auto table : tables) {
        std::string_view name;
        if (table["TableName"].get(name) == simdjson::SUCCESS) names.emplace_back(name);
      }
      next = std::string(reply->Find("x-ms-continuation-NextTableName").value_or(""));
    } while (!next.empty());
    Release(std::move(client));
    return names;
  }

  Result<void> ScanTable(const std::string& table,
                         const std::function<bool(Entity&&)>& visit) override {
    auto client = Acquire();
    std::string next_pk, next_rk;
    simdjson::dom::parser parser;
    for (bool first = true; first || !next_pk.empty(); first = false) {
      std::string query;
      if (!next_pk.empty()) {
        query = "NextPartitionKey=" + server::PercentEncode(next_pk);
        if (!next_rk.empty()) query += "&NextRowKey=" + server::PercentEncode(next_rk);
      }
      auto reply = client->Send("GET", "/" + server::PercentEncode(table) + "()", query, "", "",
                                {{"Accept", std::string(kFullMetadata)}});
      if (!reply) return tl::unexpected(reply.error());
      if (reply->status != 200) return tl::unexpected(ReplyError(*reply));
      simdjson::dom::array values;
      if (parser.parse(reply->body)["value"].get(values) != simdjson::SUCCESS) {
        return Fail(ErrorCode::kInternalError, "Query Entities answered no entity list");
      }
      for (simdjson::dom::element value : values) {
        auto entity = DecodeEntity(value);
        if (!entity) return tl::unexpected(entity.error());
        if (!visit(std::move(*entity))) return {};
      }
      next_pk = std::string(reply->Find("x-ms-continuation-NextPartitionKey").value_or(""));
      next_rk = std::string(reply->Find("x-ms-continuation-NextRowKey").value_or(""));
    }
    Release(std::move(client));
    return {};
  }

  Result<void> EnsureTable(const std::string& table) override {
    auto client = Acquire();
    std::string body = "{\"TableName\":";
    server::AppendJsonString(body, table);
    body += "}";
    auto reply = client->Send(
        "POST", "/Tables", "", "application/json", body,
        {{"Accept", "application/json;odata=nometadata"}, {"Prefer", "return-no-content"}});
    if (!reply) return tl::unexpected(reply.error());
    Release(std::move(client));
    if (reply->status == 201 || reply->status == 204) return {};
    Error error = ReplyError(*reply);
    if (error.code == ErrorCode::kTableAlreadyExists) return {};
    return tl::unexpected(std::move(error));
  }

  tl::expected<void, WriteFailure> WriteGroup(const std::string& table,
                                              const std::vector<Entity>& entities, ImportMode mode,
                                              bool) override {
    const std::string batch = "batch_" + NewGuidText();
    auto client = Acquire();
    auto reply = client->Send("POST", "/$batch", "", "multipart/mixed; boundary=" + batch,
                              BatchBody(batch, table, entities, mode),
                              {{"Accept", "application/json;odata=minimalmetadata"}});
    if (!reply) return tl::unexpected(WriteFailure{reply.error(), std::nullopt, true});
    Release(std::move(client));
    if (reply->status != 202) return tl::unexpected(FailureOf(*reply));
    if (auto failure = BatchFailure(reply->body)) return tl::unexpected(std::move(*failure));
    return {};
  }

  // Azure: spec §7.1 — at most 100 operations per entity group transaction, one partition.
  std::size_t max_group() const override { return 100; }
  bool groups_by_partition() const override { return true; }

 private:
  static Result<Entity> DecodeEntity(simdjson::dom::element value) {
    auto parsed = server::ParseEntityJson(simdjson::minify(value));
    if (!parsed) return tl::unexpected(parsed.error());
    std::string_view stamp;
    if (value["Timestamp"].get(stamp) == simdjson::SUCCESS) {
      if (auto t = ParseIso8601(stamp)) parsed->entity.timestamp = *t;
    }
    return std::move(parsed->entity);
  }

  std::string BatchBody(const std::string& batch, const std::string& table,
                        const std::vector<Entity>& entities, ImportMode mode) const {
    const std::string changeset = "changeset_" + NewGuidText();
    std::string body =
        "--" + batch + "\r\nContent-Type: multipart/mixed; boundary=" + changeset + "\r\n\r\n";
    const std::string base = endpoint_.BaseUrl() + "/";
    for (const Entity& e : entities) {
      body += "--" + changeset +
              "\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n";
      if (mode == ImportMode::kInsert) {
        body += "POST " + base + server::PercentEncode(table);
      } else {
        body += mode == ImportMode::kMerge ? "MERGE " : "PUT ";
        body += base;
        server::AppendEntityPath(body, table, e.partition_key, e.row_key);
      }
      body +=
          " HTTP/1.1\r\nContent-Type: application/json\r\nAccept: "
          "application/json;odata=minimalmetadata\r\nPrefer: return-no-content\r\n"
          "DataServiceVersion: 3.0\r\n\r\n";
      server::AppendEntityDataJson(body, e, false);
      body += "\r\n";
    }
    return body + "--" + changeset + "--\r\n--" + batch + "--\r\n";
  }

  std::unique_ptr<TableClient> Acquire() {
    std::lock_guard<std::mutex> lock(mu_);
    if (idle_.empty()) return std::make_unique<TableClient>(endpoint_);
    auto client = std::move(idle_.back());
    idle_.pop_back();
    return client;
  }
  void Release(std::unique_ptr<TableClient> client) {
    std::lock_guard<std::mutex> lock(mu_);
    idle_.push_back(std::move(client));
  }

  TableEndpoint endpoint_;
  std::mutex mu_;
  std::vector<std::unique_ptr<TableClient>> idle_;
};

}  // namespace

std::unique_ptr<TableTarget> OpenHttpTarget(const TableEndpoint& endpoint) {
  return std::make_unique<HttpTarget>(endpoint);
}

}  // namespace malachite::cli
