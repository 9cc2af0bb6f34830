#include "server/insight/capacity.h"

#include <fmt/format.h>

#include "common/datetime.h"
#include "common/entity_size.h"
#include "server/wire/json_writer.h"

namespace malachite::server {
namespace {

using SteadyClock = std::chrono::steady_clock;

// Adds the entities of `table` to `out` until `deadline`; false when it ran out of time.
Result<bool> MeasureTable(storage::ReadView& view, const storage::TableInfo& table,
                          SteadyClock::time_point deadline, TableCapacity& out) {
  bool in_time = true;
  auto scanned = view.ScanEntities(table, KeyRange{}, [&](const storage::EntityView& e) {
    out.entities++;
    out.bytes += BillableEntitySize(e.Decode());
    // The clock is read every 256 entities: cheap against the decoding.
    if (out.entities % 256 == 0 && SteadyClock::now() > deadline) in_time = false;
    return in_time;
  });
  if (!scanned) return tl::unexpected(scanned.error());
  return in_time;
}

}  // namespace

std::uint64_t CapacityReport::entities() const {
  std::uint64_t total = 0;
  for (const TableCapacity& t : tables) total += t.entities;
  return total;
}

std::uint64_t CapacityReport::bytes() const {
  std::uint64_t total = 0;
  for (const TableCapacity& t : tables) total += t.bytes;
  return total;
}

Result<CapacityReport> MeasureCapacity(storage::Store& store, std::string_view account,
                                       std::optional<std::string_view> table,
                                       std::chrono::milliseconds budget, DateTime now) {
  const auto started = SteadyClock::now();
  const auto deadline = started + budget;
  CapacityReport report;
  report.account = account;
  report.measured = now;
  auto view = store.Read();
  if (!view) return tl::unexpected(view.error());
  std::vector<storage::TableInfo> tables;
  if (table) {
    auto found = (*view)->FindTable(account, *table);
    if (!found) return tl::unexpected(found.error());
    if (!found->has_value()) return Fail(ErrorCode::kTableNotFound);
    tables.push_back(std::move(**found));
  } else {
    auto listed = (*view)->ScanTables(account, "", [&](const storage::TableInfo& info) {
      tables.push_back(info);
      return true;
    });
    if (!listed) return tl::unexpected(listed.error());
  }
  for (const storage::TableInfo& info : tables) {
    TableCapacity& out = report.tables.emplace_back(TableCapacity{info.name});
    auto in_time = MeasureTable(**view, info, deadline, out);
    if (!in_time) return tl::unexpected(in_time.error());
    if (!*in_time) {
      report.complete = false;
      break;
    }
  }
  report.elapsed =
      std::chrono::duration_cast<std::chrono::microseconds>(SteadyClock::now() - started);
  return report;
}

std::string CapacityJson(const CapacityReport& report) {
  std::string out = "{";
  JsonMembers m(out);
  m.String("account", report.account);
  out += fmt::format(
      ",\"entities\":{},\"bytes\":{},\"complete\":{},\"elapsed_ms\":{:.3f},\"measured\":\"",
      report.entities(), report.bytes(), report.complete ? "true" : "false",
      report.elapsed.count() / 1000.0);
  AppendIso8601(out, report.measured);
  out += "\",\"tables\":[";
  for (std::size_t i = 0; i < report.tables.size(); ++i) {
    if (i > 0) out += ",";
    out += "{";
    JsonMembers t(out);
    t.String("table", report.tables[i].table);
    out += fmt::format(",\"entities\":{},\"bytes\":{}}}", report.tables[i].entities,
                       report.tables[i].bytes);
  }
  return out + "]}";
}

}  // namespace malachite::server
