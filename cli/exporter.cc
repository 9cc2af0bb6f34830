#include "cli/exporter.h"

#include "cli/entity_csv.h"
#include "cli/entity_line.h"
#include "cli/progress.h"

namespace malachite::cli {
namespace {

constexpr std::size_t kFlushBytes = 1 << 20;

}  // namespace

Result<std::uint64_t> ExportTable(TableTarget& target, const std::string& table, std::ostream& out,
                                  const ExportOptions& options, const std::string& label) {
  std::vector<CsvColumn> columns;
  if (options.format == FileFormat::kCsv) {
    CsvLayout layout;
    auto scanned = target.ScanTable(table, [&](Entity&& e) {
      layout.Add(e);
      return true;
    });
    if (!scanned) return tl::unexpected(scanned.error());
    columns = layout.columns();
    out << CsvHeader(columns, options.with_timestamps);
  }
  Progress progress(label, options.progress);
  std::uint64_t count = 0;
  std::string buffer;
  bool write_failed = false;
  auto scanned = target.ScanTable(table, [&](Entity&& e) {
    if (options.format == FileFormat::kCsv) {
      AppendCsvRow(buffer, e, columns, options.with_timestamps);
    } else {
      AppendEntityLine(buffer, e, options.with_timestamps);
      buffer.push_back('\n');
    }
    ++count;
    if (buffer.size() >= kFlushBytes) {
      out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      buffer.clear();
      progress.Update(count, 0, 0);
      if (!out) write_failed = true;
    }
    return !write_failed;
  });
  if (!scanned) return tl::unexpected(scanned.error());
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
  out.flush();
  if (write_failed || !out) return Fail(ErrorCode::kInternalError, "cannot write the output");
  progress.Finish(count);
  return count;
}

}  // namespace malachite::cli
