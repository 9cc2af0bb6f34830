// malachite export: a table, a list of tables or a whole account to JSON Lines or CSV.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/cli_args.h"
#include "cli/cli_main.h"
#include "cli/exporter.h"
#include "cli/progress.h"
#include "platform/process.h"

namespace malachite::cli {
namespace {

const std::vector<CliOption>& CommandOptions() {
  static const std::vector<CliOption> options = [] {
    std::vector<CliOption> list = {
        {"table", "<name>", "every table of the account", "a table to export (repeat for a list)",
         true},
        {"output", "<path>", "- (stdout) for one table",
         "the file for one table; a directory (one <table>.<ext> file each)\n"
         "for a list or the whole account"},
        {"format", "jsonl|csv", "from --output's extension, else jsonl",
         "JSON Lines (every EDM type exact) or CSV with typed headers"},
        {"timestamps", "", "off", "also write each entity's Timestamp"},
    };
    for (const CliOption& o : LocationOptions()) list.push_back(o);
    list.push_back({"help", "", "", "print this help and exit"});
    return list;
  }();
  return options;
}

int Usage(const std::string& message) {
  std::fprintf(stderr, "malachite export: %s\n", message.c_str());
  return 2;
}

}  // namespace

int RunExport(int argc, const char* const* argv, const char* const* envp) {
  auto args = ParseCliArgs(argc, argv, 2, CommandOptions());
  if (!args) return Usage(args.error().message);
  if (args->Has("help")) {
    std::fputs(CliHelp("malachite export [--table T]... [--output PATH] [options]",
                       "Writes tables to JSON Lines or CSV, in key order: exporting the same data "
                       "twice gives the same bytes.",
                       CommandOptions())
                   .c_str(),
               stdout);
    return 0;
  }
  if (!args->positional.empty()) return Usage("unexpected argument '" + args->positional[0] + "'");
  const std::string output = args->Get("output", "-");
  ExportOptions options;
  const std::string format = args->Get("format");
  if (format == "csv" || (format.empty() && output.ends_with(".csv"))) {
    options.format = FileFormat::kCsv;
  } else if (!format.empty() && format != "jsonl") {
    return Usage("--format is jsonl or csv");
  }
  options.with_timestamps = args->Has("timestamps");
  options.progress = platform::StderrIsTerminal();  // the default for drawing progress
  auto target = OpenTarget(*args, false, envp);
  if (!target) return Usage(target.error().message);
  std::vector<std::string> tables = args->All("table");
  const bool one_file = tables.size() == 1;
  if (tables.empty()) {
    auto listed = (*target)->ListTables();
    if (!listed) {
      std::fprintf(stderr, "malachite export: %s\n", listed.error().message.c_str());
      return 1;
    }
    tables = std::move(*listed);
  }
  if (!one_file && output == "-") return Usage("several tables need --output DIR");
  std::error_code ec;
  if (!one_file) std::filesystem::create_directories(output, ec);
  for (const std::string& table : tables) {
    std::string path =
        one_file ? output : output + "/" + table + "." + std::string(FileExtension(options.format));
    std::ofstream file;
    if (path != "-") file.open(path, std::ios::binary | std::ios::trunc);
    std::ostream& out = path == "-" ? std::cout : file;
    if (path != "-" && !file) {
      std::fprintf(stderr, "malachite export: cannot write %s\n", path.c_str());
      return 1;
    }
    auto count = ExportTable(**target, table, out, options, "export " + table);
    if (!count) {
      std::fprintf(stderr, "malachite export: %s: %s: %s\n", table.c_str(),
                   std::string(count.error().AzureCode()).c_str(),
                   std::string(count.error().UserMessage()).c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace malachite::cli
