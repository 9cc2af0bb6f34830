// malachite import: JSON Lines or CSV files (or Azurite's database) into tables.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/azurite_db.h"
#include "cli/cli_args.h"
#include "cli/cli_main.h"
#include "cli/importer.h"
#include "cli/progress.h"
#include "config/server_config.h"
#include "platform/process.h"

namespace malachite::cli {
namespace {

namespace fs = std::filesystem;

const std::vector<CliOption>& CommandOptions() {
  static const std::vector<CliOption> options = [] {
    std::vector<CliOption> list = {
        {"table", "<name>", "the file name without extension",
         "the table to import one file (or stdin, '-') into"},
        {"format", "jsonl|csv", "from the file extension",
         "the format of the input (needed for stdin: default jsonl)"},
        {"mode", "upsert|merge|insert", "upsert",
         "Insert Or Replace, Insert Or Merge, or Insert (fails on an existing\n"
         "entity)"},
        {"resume", "", "off", "continue an interrupted import from its checkpoint"},
        {"checkpoint", "<file>", "<PATH>.import-checkpoint",
         "where progress is recorded (removed when the import completes)"},
        {"workers", "<n>", "4", "entity group transactions in flight at once"},
        {"keep-timestamps", "", "off (on for --from-azurite offline)",
         "offline only: keep each entity's Timestamp (so its ETag) from the\n"
         "input instead of stamping a new one"},
        {"from-azurite", "<path>", "",
         "import Azurite's table database (__azurite_db_table__.json, or the\n"
         "folder Azurite's --location names) instead of PATH"},
    };
    for (const CliOption& o : LocationOptions()) list.push_back(o);
    list.push_back({"help", "", "", "print this help and exit"});
    return list;
  }();
  return options;
}

int Usage(const std::string& message) {
  std::fprintf(stderr, "malachite import: %s\n", message.c_str());
  return 2;
}

// One input: a file (or stdin) and the table it goes to.
struct Input {
  std::string path;  // "-" for stdin
  std::string table;
  FileFormat format = FileFormat::kJsonLines;
};

Result<std::vector<Input>> Inputs(const CliArgs& args, const std::string& path) {
  std::optional<FileFormat> forced;
  if (args.Has("format")) {
    const std::string f = args.Get("format");
    if (f != "jsonl" && f != "csv")
      return Fail(ErrorCode::kInvalidInput, "--format is jsonl or csv");
    forced = f == "csv" ? FileFormat::kCsv : FileFormat::kJsonLines;
  }
  std::error_code ec;
  std::vector<Input> inputs;
  if (path != "-" && fs::is_directory(path, ec)) {
    if (args.Has("table")) return Fail(ErrorCode::kInvalidInput, "--table goes with one file");
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(path, ec)) {
      if (e.is_regular_file() && FormatOfPath(e.path().string())) files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      inputs.push_back({f.string(), f.stem().string(), *FormatOfPath(f.string())});
    }
    if (inputs.empty())
      return Fail(ErrorCode::kInvalidInput, path + " holds no .jsonl or .csv file");
    return inputs;
  }
  Input input{path, args.Get("table", fs::path(path).stem().string()),
              forced.value_or(FormatOfPath(path).value_or(FileFormat::kJsonLines))};
  if (path == "-" && !args.Has("table"))
    return Fail(ErrorCode::kInvalidInput, "stdin needs --table");
  if (path != "-" && !fs::is_regular_file(path, ec)) {
    return Fail(ErrorCode::kInvalidInput, "cannot read " + path);
  }
  inputs.push_back(std::move(input));
  return inputs;
}

void ReportFailure(const std::string& where, const ImportError& e, const Checkpoint& checkpoint) {
  std::string at = where;
  if (e.line) at += ":" + std::to_string(*e.line);
  std::fprintf(stderr, "malachite import: %s: %s: %s\n", at.c_str(),
               std::string(e.error.AzureCode()).c_str(),
               std::string(e.error.UserMessage()).c_str());
  if (!checkpoint.path().empty()) {
    std::fprintf(stderr,
                 "malachite import: nothing of that line's group was written; progress is in %s "
                 "(fix the input and run again with --resume)\n",
                 checkpoint.path().c_str());
  }
}

int ImportAzurite(TableTarget& target, const std::string& path, const std::string& account,
                  ImportOptions options, Checkpoint& checkpoint) {
  auto tables = ReadAzuriteDb(path);
  if (!tables) {
    std::fprintf(stderr, "malachite import: %s\n", tables.error().message.c_str());
    return 1;
  }
  for (TableContent& table : *tables) {
    if (table.account != account) {
      std::fprintf(stderr, "malachite import: skipping table %s of account %s (use --account %s)\n",
                   table.table.c_str(), table.account.c_str(), table.account.c_str());
      continue;
    }
    auto source = VectorRecordSource(std::move(table.entities));
    auto written = ImportRecords(target, table.table, *source, options, checkpoint,
                                 "azurite:" + table.table, "import azurite " + table.table);
    if (!written) {
      ReportFailure(path + " table " + table.table + " entity", written.error(), checkpoint);
      return 1;
    }
  }
  return 0;
}

int ImportFiles(TableTarget& target, const std::vector<Input>& inputs, const ImportOptions& options,
                Checkpoint& checkpoint) {
  for (const Input& input : inputs) {
    std::ifstream file;
    std::uint64_t size = 0;
    if (input.path != "-") {
      file.open(input.path, std::ios::binary);
      std::error_code ec;
      size = fs::file_size(input.path, ec);
    }
    std::istream& in = input.path == "-" ? std::cin : file;
    auto source = OpenRecordSource(in, input.format, options.keep_timestamps, size);
    if (!source) {
      ReportFailure(input.path, ImportError{source.error().line, source.error().error}, checkpoint);
      return 1;
    }
    auto written = ImportRecords(target, input.table, **source, options, checkpoint, input.path,
                                 "import " + input.path + " -> " + input.table);
    if (!written) {
      ReportFailure(input.path, written.error(), checkpoint);
      return 1;
    }
  }
  return 0;
}

}  // namespace

int RunImport(int argc, const char* const* argv, const char* const* envp) {
  auto args = ParseCliArgs(argc, argv, 2, CommandOptions());
  if (!args) return Usage(args.error().message);
  if (args->Has("help")) {
    std::fputs(CliHelp("malachite import PATH|- [options]  |  malachite import --from-azurite DB",
                       "Writes JSON Lines or CSV files (a directory: one table per file) into "
                       "tables, in entity group\ntransactions; resumable; a bad line stops the "
                       "import with its line number and the service's error.",
                       CommandOptions())
                   .c_str(),
               stdout);
    return 0;
  }
  const bool azurite = args->Has("from-azurite");
  if (args->positional.size() != (azurite ? 0u : 1u)) {
    return Usage(azurite ? "--from-azurite takes no PATH" : "give one PATH (file, directory or -)");
  }
  auto endpoint = EndpointOf(*args, envp);
  if (!endpoint) return Usage(endpoint.error().message);
  ImportOptions options;
  const std::string mode = args->Get("mode", "upsert");
  if (mode == "merge")
    options.mode = ImportMode::kMerge;
  else if (mode == "insert")
    options.mode = ImportMode::kInsert;
  else if (mode != "upsert")
    return Usage("--mode is upsert, merge or insert");
  options.keep_timestamps = args->Has("keep-timestamps") || (azurite && !*endpoint);
  if (options.keep_timestamps && *endpoint) {
    return Usage("--keep-timestamps works offline only (the service stamps every write)");
  }
  options.workers =
      static_cast<unsigned>(std::max(1, std::atoi(args->Get("workers", "4").c_str())));
  options.progress = platform::StderrIsTerminal();  // the default for drawing progress
  const std::string path = azurite ? args->Get("from-azurite") : args->positional[0];
  std::string trimmed = path;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  Checkpoint checkpoint(args->Get("checkpoint", path == "-" ? "" : trimmed + ".import-checkpoint"));
  if (args->Has("resume")) {
    if (auto ok = checkpoint.Load(); !ok) return Usage(ok.error().message);
  }
  auto target = OpenTarget(*args, true, envp);
  if (!target) return Usage(target.error().message);
  int status = 0;
  if (azurite) {
    const std::string account =
        *endpoint ? (*endpoint)->account : args->Get("account", std::string(kDevAccountName));
    status = ImportAzurite(**target, path, account, options, checkpoint);
  } else {
    auto inputs = Inputs(*args, path);
    if (!inputs) return Usage(inputs.error().message);
    status = ImportFiles(**target, *inputs, options, checkpoint);
  }
  if (status == 0) checkpoint.Remove();
  return status;
}

}  // namespace malachite::cli
