#include "cli/entity_reader.h"

#include "cli/entity_csv.h"
#include "cli/entity_line.h"

namespace malachite::cli {
namespace {

class JsonLinesSource final : public RecordSource {
 public:
  JsonLinesSource(std::istream& in, bool keep, std::uint64_t total)
      : in_(in), keep_(keep), total_(total) {}

  tl::expected<std::optional<EntityRecord>, LineError> Next() override {
    while (std::getline(in_, line_)) {
      offset_ += line_.size() + (in_.eof() ? 0 : 1);
      const std::size_t number = line_number_++;
      if (!line_.empty() && line_.back() == '\r') line_.pop_back();
      if (line_.find_first_not_of(" \t") == std::string::npos) continue;  // blank lines
      auto entity = ParseEntityLine(line_, keep_);
      if (!entity) return tl::unexpected(LineError{number, std::move(entity.error())});
      return std::optional<EntityRecord>(
          EntityRecord{std::move(*entity), number, offset_, line_number_});
    }
    return std::optional<EntityRecord>();
  }

  void Seek(std::uint64_t offset, std::size_t line) override {
    in_.clear();
    in_.seekg(static_cast<std::streamoff>(offset));
    offset_ = offset;
    line_number_ = line;
  }
  std::uint64_t position() const override { return offset_; }
  std::uint64_t total() const override { return total_; }

 private:
  std::istream& in_;
  bool keep_;
  std::uint64_t total_;
  std::uint64_t offset_ = 0;
  std::size_t line_number_ = 1;
  std::string line_;
};

class CsvSource final : public RecordSource {
 public:
  CsvSource(CsvEntityDecoder decoder, bool keep, std::uint64_t total,
            std::unique_ptr<CsvRecordReader> reader)
      : decoder_(std::move(decoder)), keep_(keep), total_(total), reader_(std::move(reader)) {}

  tl::expected<std::optional<EntityRecord>, LineError> Next() override {
    for (;;) {
      const std::size_t start = reader_->line();
      auto record = reader_->Next();
      if (!record) return tl::unexpected(LineError{start, std::move(record.error())});
      if (!*record) return std::optional<EntityRecord>();
      const CsvRecord& row = **record;
      if (row.fields.size() == 1 && row.fields[0].empty() && !row.quoted[0]) continue;
      auto entity = decoder_.Decode(row, keep_);
      if (!entity) return tl::unexpected(LineError{row.line, std::move(entity.error())});
      return std::optional<EntityRecord>(
          EntityRecord{std::move(*entity), row.line, reader_->offset(), reader_->line()});
    }
  }

  void Seek(std::uint64_t offset, std::size_t line) override { reader_->Seek(offset, line); }
  std::uint64_t position() const override { return reader_->offset(); }
  std::uint64_t total() const override { return total_; }

 private:
  CsvEntityDecoder decoder_;
  bool keep_;
  std::uint64_t total_;
  std::unique_ptr<CsvRecordReader> reader_;
};

class VectorSource final : public RecordSource {
 public:
  explicit VectorSource(std::vector<Entity> entities) : entities_(std::move(entities)) {}
  tl::expected<std::optional<EntityRecord>, LineError> Next() override {
    if (next_ >= entities_.size()) return std::optional<EntityRecord>();
    const std::size_t i = next_++;
    return std::optional<EntityRecord>(EntityRecord{std::move(entities_[i]), i + 1, next_, i + 2});
  }
  void Seek(std::uint64_t offset, std::size_t) override { next_ = offset; }
  std::uint64_t position() const override { return next_; }
  std::uint64_t total() const override { return entities_.size(); }

 private:
  std::vector<Entity> entities_;
  std::size_t next_ = 0;
};

}  // namespace

std::optional<FileFormat> FormatOfPath(std::string_view path) {
  for (std::string_view ext : {".jsonl", ".ndjson"}) {
    if (path.ends_with(ext)) return FileFormat::kJsonLines;
  }
  if (path.ends_with(".csv")) return FileFormat::kCsv;
  return std::nullopt;
}

std::string_view FileExtension(FileFormat format) {
  return format == FileFormat::kCsv ? "csv" : "jsonl";
}

tl::expected<std::unique_ptr<RecordSource>, LineError> OpenRecordSource(std::istream& in,
                                                                        FileFormat format,
                                                                        bool keep_timestamps,
                                                                        std::uint64_t total_bytes) {
  if (format == FileFormat::kJsonLines) {
    return std::unique_ptr<RecordSource>(new JsonLinesSource(in, keep_timestamps, total_bytes));
  }
  auto reader = std::make_unique<CsvRecordReader>(in);
  auto header = reader->Next();
  if (!header) return tl::unexpected(LineError{1, std::move(header.error())});
  if (!*header) {
    return tl::unexpected(LineError{1, Error{ErrorCode::kInvalidInput, "empty CSV file", {}}});
  }
  auto decoder = CsvEntityDecoder::FromHeader(**header);
  if (!decoder) return tl::unexpected(LineError{1, std::move(decoder.error())});
  return std::unique_ptr<RecordSource>(
      new CsvSource(std::move(*decoder), keep_timestamps, total_bytes, std::move(reader)));
}

std::unique_ptr<RecordSource> VectorRecordSource(std::vector<Entity> entities) {
  return std::make_unique<VectorSource>(std::move(entities));
}

}  // namespace malachite::cli
