#include "server/admin/data_endpoints.h"

#include <algorithm>
#include <chrono>

#include "server/http/route.h"
#include "server/http/url_coding.h"
#include "server/wire/json_writer.h"
#include "storage/account_reset.h"

namespace malachite::server {
namespace {

std::string_view PathOf(std::string_view target) { return target.substr(0, target.find('?')); }

// The decoded query parameters of `target`.
QueryParams ParamsOf(std::string_view target) {
  QueryParams params;
  const std::size_t q = target.find('?');
  if (q == std::string_view::npos) return params;
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    std::string_view item = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    const std::size_t eq = item.find('=');
    params.items.emplace_back(
        PercentDecode(item.substr(0, eq), true),
        eq == std::string_view::npos ? "" : PercentDecode(item.substr(eq + 1), true));
  }
  return params;
}

void AnswerText(Response& response, int status, std::string body) {
  response.status = status;
  response.Set("Content-Type", "text/plain; charset=utf-8");
  response.Set("Cache-Control", "no-cache");
  response.body = std::move(body) + "\n";
}

void AnswerJson(Response& response, std::string body) {
  response.status = 200;
  response.Set("Content-Type", "application/json");
  response.Set("Cache-Control", "no-cache");
  response.body = std::move(body) + "\n";
}

double MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

AdminJob ResetJob(const DataEndpoints& data, const Request& request, Response& response) {
  const QueryParams params = ParamsOf(request.target);
  std::vector<std::string> accounts = data.accounts;
  bool seed = true;
  for (const auto& [name, value] : params.items) {
    if (name == "account") {
      const bool runtime = data.directory != nullptr && data.directory->Current()->Find(value);
      if (!runtime &&
          std::find(data.accounts.begin(), data.accounts.end(), value) == data.accounts.end()) {
        AnswerText(response, 400, "unknown account '" + value + "'");
        return {};
      }
      accounts = {value};
    } else if (name == "seed" && (value == "false" || value == "true")) {
      seed = value == "true";
    } else {
      AnswerText(response, 400, "unknown parameter '" + name + "' (account=<name>, seed=false)");
      return {};
    }
  }
  return [&data, accounts = std::move(accounts), seed](Response& out) {
    const auto start = std::chrono::steady_clock::now();
    static const std::vector<TableContent> no_seed;
    auto summary = ResetAccounts(*data.store, accounts, seed ? data.seed : no_seed);
    if (!summary) return AnswerText(out, 500, "reset failed: " + summary.error().message);
    std::string body = "{\"accounts\":[";
    for (std::size_t i = 0; i < accounts.size(); ++i) {
      if (i > 0) body += ',';
      AppendJsonString(body, accounts[i]);
    }
    body += "],\"tables_deleted\":" + std::to_string(summary->tables_deleted) +
            ",\"tables_seeded\":" + std::to_string(summary->tables_seeded) +
            ",\"entities_seeded\":" + std::to_string(summary->entities_seeded) + ",\"ms\":";
    AppendJsonDouble(body, MillisSince(start));
    AnswerJson(out, body + "}");
  };
}

AdminJob BackupJob(const DataEndpoints& data, const Request& request, Response& response) {
  const QueryParams params = ParamsOf(request.target);
  const std::string* dest = params.Find("dest");
  if (dest == nullptr || dest->empty()) {
    AnswerText(response, 400, "POST /-/backup?dest=<directory on the server>");
    return {};
  }
  return [&data, dest = *dest](Response& out) {
    const auto start = std::chrono::steady_clock::now();
    auto bytes = data.store->Backup(dest);
    if (!bytes) {
      const int status = bytes.error().code == ErrorCode::kInvalidInput ? 400 : 500;
      return AnswerText(out, status, "backup failed: " + bytes.error().message);
    }
    std::string body = "{\"dest\":";
    AppendJsonString(body, dest);
    body += ",\"bytes\":" + std::to_string(*bytes) + ",\"ms\":";
    AppendJsonDouble(body, MillisSince(start));
    AnswerJson(out, body + "}");
  };
}

}  // namespace

bool IsDataPath(std::string_view path) { return path == "/-/reset" || path == "/-/backup"; }

AdminJob HandleDataRequest(const DataEndpoints& data, const Request& request, Response& response) {
  if (request.method != "POST") {
    AnswerText(response, 405, "method not allowed");
    response.headers.push_back({"Allow", "POST"});
    return {};
  }
  if (PathOf(request.target) == "/-/reset") return ResetJob(data, request, response);
  return BackupJob(data, request, response);
}

Result<ResetSummary> ResetAccounts(storage::Store& store, const std::vector<std::string>& accounts,
                                   const std::vector<TableContent>& seed) {
  ResetSummary summary;
  auto ok = store.Write([&](storage::WriteContext& ctx) -> Result<void> {
    summary = ResetSummary{};
    for (const std::string& account : accounts) {
      auto deleted = storage::DeleteAccountTables(ctx, account);
      if (!deleted) return tl::unexpected(deleted.error());
      summary.tables_deleted += *deleted;
    }
    for (const TableContent& table : seed) {
      if (std::find(accounts.begin(), accounts.end(), table.account) == accounts.end()) continue;
      auto created = ctx.CreateTable(table.account, table.table);
      if (!created) return tl::unexpected(created.error());
      if (!*created) continue;  // the same table named twice in the fixtures
      ++summary.tables_seeded;
      for (const Entity& entity : table.entities) {
        Entity stamped = entity;
        stamped.timestamp = ctx.NextTimestamp();
        if (auto put = ctx.PutEntity(**created, stamped); !put) return put;
        ++summary.entities_seeded;
      }
    }
    return {};
  });
  if (!ok) return tl::unexpected(ok.error());
  return summary;
}

}  // namespace malachite::server
