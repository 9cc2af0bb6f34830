// The export engine: a table of a TableTarget written as JSON Lines or CSV, in key order, so
// that exporting the same data twice gives the same bytes.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "cli/entity_reader.h"
#include "cli/table_target.h"
#include "common/error.h"

namespace malachite::cli {

struct ExportOptions {
  FileFormat format = FileFormat::kJsonLines;
  bool with_timestamps = false;  // write each entity's Timestamp (not needed to import)
  bool progress = false;
};

// Writes every entity of `table` to `out` (CSV: a first pass gathers the columns, the second
// writes the rows). Returns the entities written. Errors: the target's (kTableNotFound, ...),
// kInternalError when `out` fails.
Result<std::uint64_t> ExportTable(TableTarget& target, const std::string& table, std::ostream& out,
                                  const ExportOptions& options, const std::string& label);

}  // namespace malachite::cli
