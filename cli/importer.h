// The import engine: records from a RecordSource, grouped the way the target writes atomically
// (entity group transactions of one partition online, larger store writes offline), written by
// a few worker threads at once, with retries of what the service asks to retry (ServerBusy),
// a resumable checkpoint and a progress line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cli/checkpoint.h"
#include "cli/entity_reader.h"
#include "cli/table_target.h"
#include "common/error.h"

namespace malachite::cli {

struct ImportOptions {
  ImportMode mode = ImportMode::kUpsert;
  bool keep_timestamps = false;  // offline only: entities keep their Timestamp (and ETag)
  unsigned workers = 4;          // groups in flight at once
  bool progress = false;         // draw the live progress line
};

// Why an import stopped: the record's line when one record is to blame, and the error.
struct ImportError {
  std::optional<std::size_t> line;
  Error error;
};

// Imports every record of `source` into `table` (created when missing), starting where
// `checkpoint` says `file_key` stopped and recording there, about once a second and at the end,
// how far every entity is committed (done=true at the end). A record that cannot be imported
// stops the import before its group is written: groups before it are committed, nothing of
// its own group is (so no partial batch), and the checkpoint points at that group's first
// line. `label` heads the progress line. Returns the entities written.
tl::expected<std::uint64_t, ImportError> ImportRecords(
    TableTarget& target, const std::string& table, RecordSource& source,
    const ImportOptions& options, Checkpoint& checkpoint, const std::string& file_key,
    const std::string& label);

}  // namespace malachite::cli
