// A folder of fixtures (--seed DIR): every <table>.jsonl / <table>.ndjson / <table>.csv file in
// DIR belongs to the default account, every such file in DIR/<account>/ to that account. The
// same layout `malachite export --output DIR` writes.
#pragma once

#include <string>
#include <vector>

#include "common/error.h"
#include "common/table_content.h"

namespace malachite::cli {

// Reads every fixture file of `dir` into memory, validated as an import would (a bad line fails
// with "<file>:<line>: <Code>: <message>"). Hidden files are skipped; other files are skipped
// with a line in `*skipped`. Errors: kInvalidInput (not a directory, a file name that is not a
// table name, one table named by two files, a bad line).
Result<std::vector<TableContent>> LoadSeedDir(const std::string& dir,
                                              const std::string& default_account,
                                              std::vector<std::string>* skipped);

}  // namespace malachite::cli
