// Reading entities out of an import file (JSON Lines or CSV) one record at a time, with the line
// and byte offset of each, so that errors name their line and an interrupted import resumes
// where it stopped.
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/entity.h"
#include "common/error.h"

namespace malachite::cli {

enum class FileFormat { kJsonLines, kCsv };

// The format a file name implies: .jsonl/.ndjson -> JSON Lines, .csv -> CSV; nullopt for
// anything else.
std::optional<FileFormat> FormatOfPath(std::string_view path);
// "jsonl" / "csv".
std::string_view FileExtension(FileFormat format);

// An entity read from a source, with where it ends (for checkpoints).
struct EntityRecord {
  Entity entity;
  std::size_t line = 0;          // 1-based line (JSON Lines, CSV) or entity number
  std::uint64_t end_offset = 0;  // position just after the record
  std::size_t next_line = 0;     // the line that starts at end_offset
};

// A refused record: its line and the service's error for it.
struct LineError {
  std::size_t line = 0;
  Error error;
};

// Where an import takes its entities from.
class RecordSource {
 public:
  virtual ~RecordSource() = default;
  // The next record, nullopt at the end, or the error of a record that cannot be imported.
  virtual tl::expected<std::optional<EntityRecord>, LineError> Next() = 0;
  // Continues at `offset` (an end_offset returned earlier), which starts line `line`.
  virtual void Seek(std::uint64_t offset, std::size_t line) = 0;
  // Progress: the position reached and the total, in the same unit as end_offset (0: unknown).
  virtual std::uint64_t position() const = 0;
  virtual std::uint64_t total() const = 0;
};

// Reads `in` (owned by the caller, which keeps it alive; `total_bytes` may be 0 when unknown).
// For CSV the header record is read here. Errors: the CSV header's (kInvalidInput), as a
// LineError of line 1.
tl::expected<std::unique_ptr<RecordSource>, LineError> OpenRecordSource(std::istream& in,
                                                                        FileFormat format,
                                                                        bool keep_timestamps,
                                                                        std::uint64_t total_bytes);

// Entities already in memory (Azurite's database); record i is line i+1.
std::unique_ptr<RecordSource> VectorRecordSource(std::vector<Entity> entities);

}  // namespace malachite::cli
