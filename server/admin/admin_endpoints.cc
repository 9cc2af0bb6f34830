#include "server/admin/admin_endpoints.h"

#include <fmt/format.h>

#include "server/admin/account_endpoints.h"
#include "server/admin/explorer_endpoints.h"
#include "server/insight/insight_endpoints.h"
#include "server/traffic/traffic_endpoints.h"

namespace malachite::server {
namespace {

std::string_view PathOf(std::string_view target) { return target.substr(0, target.find('?')); }

void Answer(Response& response, int status, std::string body) {
  response.status = status;
  response.headers.push_back({"Content-Type", "text/plain; charset=utf-8"});
  response.headers.push_back({"Cache-Control", "no-cache"});
  response.body = std::move(body);
  response.body += '\n';
}

}  // namespace

// Writes per commit shows how much the group commit gathers under load; inline commits are
// groups that needed no hand-off to the writer thread; the map's size shows how close data.mdb is
// to its next growth (storage/FORMAT.md, "The map grows as needed"); live and free pages how much
// of data.mdb compaction would give back (storage/FORMAT.md, "Getting disk space back").
void AppendStoreMetrics(const storage::StoreStats& stats, std::string& out) {
  out += fmt::format(
      "# HELP malachite_store_writes_total Write requests run by the store (user writes and "
      "background reclaim steps).\n"
      "# TYPE malachite_store_writes_total counter\n"
      "malachite_store_writes_total {}\n"
      "# HELP malachite_store_commits_total Write transactions committed (one per group).\n"
      "# TYPE malachite_store_commits_total counter\n"
      "malachite_store_commits_total {}\n"
      "# HELP malachite_store_inline_commits_total Lone writes committed on the I/O thread that "
      "read them.\n"
      "# TYPE malachite_store_inline_commits_total counter\n"
      "malachite_store_inline_commits_total {}\n"
      "# HELP malachite_store_syncs_total Background flushes that synced committed writes.\n"
      "# TYPE malachite_store_syncs_total counter\n"
      "malachite_store_syncs_total {}\n"
      "# HELP malachite_store_map_size_bytes The LMDB map's size: what data.mdb may hold before "
      "the map grows again (on Windows, data.mdb's size).\n"
      "# TYPE malachite_store_map_size_bytes gauge\n"
      "malachite_store_map_size_bytes {}\n"
      "# HELP malachite_store_map_growths_total Times the LMDB map grew.\n"
      "# TYPE malachite_store_map_growths_total counter\n"
      "malachite_store_map_growths_total {}\n"
      "# HELP malachite_store_page_size_bytes The size of one page of data.mdb.\n"
      "# TYPE malachite_store_page_size_bytes gauge\n"
      "malachite_store_page_size_bytes {}\n"
      "# HELP malachite_store_pages_live Pages of data.mdb in use (data, indexes, LMDB's own); "
      "read at most once a second.\n"
      "# TYPE malachite_store_pages_live gauge\n"
      "malachite_store_pages_live {}\n"
      "# HELP malachite_store_pages_free Pages of data.mdb left free by deleted or rewritten data: "
      "reused by later writes, given back to the disk by compaction; read at most once a "
      "second.\n"
      "# TYPE malachite_store_pages_free gauge\n"
      "malachite_store_pages_free {}\n"
      "# HELP malachite_store_compactions_total Times data.mdb was compacted while serving.\n"
      "# TYPE malachite_store_compactions_total counter\n"
      "malachite_store_compactions_total {}\n",
      stats.writes, stats.commits, stats.inline_commits, stats.syncs, stats.map_size_bytes,
      stats.map_growths, stats.page_size_bytes, stats.pages_live, stats.pages_free,
      stats.compactions);
}

namespace {

// The health probes (and 404 for unknown paths).
void AnswerProbe(const Request& request, std::string_view path, bool ready, Response& response) {
  const bool known = path == "/-/healthy" || path == "/-/ready";
  if (!known) return Answer(response, 404, "unknown endpoint; try /-/healthy or /-/ready");
  if (request.method != "GET") {
    Answer(response, 405, "method not allowed");
    response.headers.push_back({"Allow", "GET"});
    return;
  }
  if (path == "/-/healthy") return Answer(response, 200, "ok");
  // Emulator: the listener accepts only once the store is open, so "not ready" is what a
  // shutting-down server answers while it drains (orchestrators stop routing to it).
  if (ready) return Answer(response, 200, "ready");
  Answer(response, 503, "not ready");
}

}  // namespace

bool IsAdminTarget(std::string_view target) {
  std::string_view path = PathOf(target);
  return path == "/-" || path.substr(0, 3) == "/-/";
}

bool AdmitAdminRequest(const Request& request, std::string_view path, const AdminContext& context,
                       Response& response, std::string* credential_account) {
  if (IsHealthProbePath(path)) return true;
  if (context.access != nullptr)
    return context.access->Admit(request, response, credential_account);
  if (IsLoopbackAddress(request.remote_address)) return true;
  Answer(response, 403, "admin endpoints answer loopback clients only");
  return false;
}

AdminAnswer HandleAdminRequest(Request& request, const AdminContext& context, Response& response,
                               AdminJob* job) {
  const std::string_view path = PathOf(request.target);
  std::string credential_account;
  if (!AdmitAdminRequest(request, path, context, response, &credential_account)) {
    return AdminAnswer::kAnswered;
  }
  if (context.traffic != nullptr && context.insight != nullptr && IsExplorerPath(path)) {
    return HandleExplorerRequest(
               request, ExplorerContext{*context.insight, *context.traffic, credential_account},
               response) == ExplorerAnswer::kTableApi
               ? AdminAnswer::kTableApi
               : AdminAnswer::kAnswered;
  }
  if (context.insight != nullptr && IsInsightPath(path)) {
    HandleInsightRequest(*context.insight, request, response);
    return AdminAnswer::kAnswered;
  }
  if (context.traffic != nullptr && IsTrafficPath(path)) {
    HandleTrafficRequest(*context.traffic, request, response);
    // /-/metrics: the bill's series after the traffic room's.
    if (path == "/-/metrics" && response.status == 200 && context.insight != nullptr) {
      AppendInsightMetrics(*context.insight, response.body);
    }
    if (path == "/-/metrics" && response.status == 200 && context.store != nullptr) {
      AppendStoreMetrics(context.store->Stats(), response.body);
    }
    return AdminAnswer::kAnswered;
  }
  if (context.data != nullptr && context.data->directory != nullptr && IsAccountsPath(path)) {
    AdminJob accounts_job = HandleAccountsRequest(*context.data, request, response);
    if (accounts_job && job == nullptr) {
      Answer(response, 503, "this endpoint needs a blocking thread");
    } else if (accounts_job) {
      *job = std::move(accounts_job);
    }
    return AdminAnswer::kAnswered;
  }
  if (context.data != nullptr && IsDataPath(path)) {
    if (job == nullptr) {
      Answer(response, 503, "this endpoint needs a blocking thread");
    } else {
      *job = HandleDataRequest(*context.data, request, response);
    }
    return AdminAnswer::kAnswered;
  }
  AnswerProbe(request, path, context.ready, response);
  return AdminAnswer::kAnswered;
}

}  // namespace malachite::server
