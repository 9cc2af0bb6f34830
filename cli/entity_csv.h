// Entities as CSV with typed headers, for spreadsheets. The header row names the columns:
// PartitionKey, RowKey, optionally Timestamp, then one column per (property, type) as
// "<name>:<type>" with the EDM type without "Edm." (Qty:Int64, Price:Double, When:DateTime); a
// header without a type is a String column. A property stored with two types in different
// entities gets two columns. Cells are RFC 4180 (quoted when they hold ',', '"', CR or LF);
// an empty unquoted cell means the entity lacks the property, "" is the empty string. Values are
// written as in JSON (Int64 as digits, DateTime to 100 ns, Doubles in shortest round-trip form,
// NaN/Infinity/-Infinity, Guid as text, Binary as base64).
#pragma once

#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/entity.h"
#include "common/error.h"

namespace malachite::cli {

struct CsvColumn {
  std::string name;
  EdmType type = EdmType::kString;
  bool operator==(const CsvColumn&) const = default;
};

// The columns of a table's CSV, gathered over its entities in order: each (name, type) pair in
// the order of first appearance.
class CsvLayout {
 public:
  void Add(const Entity& entity);
  const std::vector<CsvColumn>& columns() const { return columns_; }

 private:
  std::vector<CsvColumn> columns_;
};

// The header row (with "\n").
std::string CsvHeader(const std::vector<CsvColumn>& columns, bool with_timestamp);
// Appends the row of `entity` (with "\n"). REQUIRES: every property of `entity` has a column.
void AppendCsvRow(std::string& out, const Entity& entity, const std::vector<CsvColumn>& columns,
                  bool with_timestamp);

// One CSV record: its fields and whether each was quoted.
struct CsvRecord {
  std::vector<std::string> fields;
  std::vector<bool> quoted;
  std::size_t line = 0;  // line number (1-based) where the record starts
};

// Reads RFC 4180 records (LF or CRLF line ends; quoted fields may span lines) from a stream.
class CsvRecordReader {
 public:
  explicit CsvRecordReader(std::istream& in) : in_(in) {}
  // The next record, or nullopt at the end. Errors: kInvalidInput for a quote that never closes
  // or a character after a closing quote, with the line in the message.
  Result<std::optional<CsvRecord>> Next();
  // Bytes consumed so far (the offset of the next record).
  std::uint64_t offset() const { return offset_; }
  std::size_t line() const { return line_; }
  // Skips to byte `offset`, which starts line `line` (resuming an import).
  void Seek(std::uint64_t offset, std::size_t line);

 private:
  std::istream& in_;
  std::uint64_t offset_ = 0;
  std::size_t line_ = 1;
};

// Turns records into entities with the header's columns.
class CsvEntityDecoder {
 public:
  // Reads the header record. Errors: kInvalidInput (no PartitionKey/RowKey column, unknown type,
  // a column named twice).
  static Result<CsvEntityDecoder> FromHeader(const CsvRecord& header);
  // The entity of one row, through the service's entity parser and validation (the same errors
  // as ParseEntityLine). Errors also: kInvalidInput when the row has more cells than columns.
  Result<Entity> Decode(const CsvRecord& row, bool keep_timestamp) const;

 private:
  std::vector<CsvColumn> columns_;  // PartitionKey/RowKey/Timestamp as String columns
};

}  // namespace malachite::cli
