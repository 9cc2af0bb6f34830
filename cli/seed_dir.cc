#include "cli/seed_dir.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "cli/entity_reader.h"
#include "common/encoding.h"
#include "common/validation.h"

namespace malachite::cli {
namespace {

namespace fs = std::filesystem;

Result<TableContent> LoadFile(const fs::path& path, FileFormat format, const std::string& account) {
  const std::string table = path.stem().string();
  if (auto ok = ValidateTableName(table); !ok) {
    return Fail(ErrorCode::kInvalidInput,
                path.string() + ": '" + table +
                    "' is not a table name: " + std::string(ok.error().UserMessage()));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Fail(ErrorCode::kInvalidInput, "cannot read " + path.string());
  TableContent content{account, table, {}};
  auto source = OpenRecordSource(in, format, false, 0);
  auto fail = [&](const LineError& e) {
    return Fail(e.error.code, path.string() + ":" + std::to_string(e.line) + ": " +
                                  std::string(e.error.AzureCode()) + ": " +
                                  std::string(e.error.UserMessage()));
  };
  if (!source) return fail(source.error());
  for (;;) {
    auto record = (*source)->Next();
    if (!record) return fail(record.error());
    if (!*record) break;
    content.entities.push_back(std::move((*record)->entity));
  }
  return content;
}

Result<void> LoadFolder(const fs::path& dir, const std::string& account, bool top,
                        std::vector<TableContent>& out, std::vector<std::string>* skipped) {
  std::vector<fs::path> entries;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) entries.push_back(entry.path());
  if (ec)
    return Fail(ErrorCode::kInvalidInput, "cannot list " + dir.string() + ": " + ec.message());
  std::sort(entries.begin(), entries.end());
  for (const fs::path& path : entries) {
    const std::string name = path.filename().string();
    if (name.starts_with(".")) continue;
    if (fs::is_directory(path, ec)) {
      if (top) {
        if (auto ok = LoadFolder(path, name, false, out, skipped); !ok) return ok;
      } else if (skipped) {
        skipped->push_back(path.string() + " (folders nest one level: <account>/<table>.jsonl)");
      }
      continue;
    }
    const std::optional<FileFormat> format = FormatOfPath(name);
    if (!format) {
      if (skipped) skipped->push_back(path.string() + " (not .jsonl, .ndjson or .csv)");
      continue;
    }
    auto content = LoadFile(path, *format, account);
    if (!content) return tl::unexpected(content.error());
    const bool twice = std::any_of(out.begin(), out.end(), [&](const TableContent& t) {
      return t.account == account && AsciiIEquals(t.table, content->table);
    });
    if (twice) {
      return Fail(ErrorCode::kInvalidInput, path.string() + ": table " + content->table +
                                                " of account " + account + " has two files");
    }
    out.push_back(std::move(*content));
  }
  return {};
}

}  // namespace

Result<std::vector<TableContent>> LoadSeedDir(const std::string& dir,
                                              const std::string& default_account,
                                              std::vector<std::string>* skipped) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return Fail(ErrorCode::kInvalidInput, "--seed " + dir + " is not a directory");
  }
  std::vector<TableContent> out;
  if (auto ok = LoadFolder(dir, default_account, true, out, skipped); !ok) {
    return tl::unexpected(ok.error());
  }
  return out;
}

}  // namespace malachite::cli
