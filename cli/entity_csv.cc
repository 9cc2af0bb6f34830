#include "cli/entity_csv.h"

#include <algorithm>
#include <cmath>

#include "cli/entity_line.h"
#include "common/datetime.h"
#include "common/encoding.h"
#include "common/property_view.h"
#include "server/wire/json_writer.h"

namespace malachite::cli {
namespace {

void AppendCell(std::string& out, std::string_view text, bool force_quotes) {
  const bool quote = force_quotes || text.find_first_of(",\"\r\n") != std::string_view::npos;
  if (!quote) {
    out.append(text);
    return;
  }
  out.push_back('"');
  for (char c : text) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

// The cell text of a value: the JSON form without quotes.
std::string ValueText(const EdmValue& v) {
  std::string out;
  switch (v.type) {
    case EdmType::kString:
      return v.bytes;
    case EdmType::kInt32:
    case EdmType::kInt64:
      return std::to_string(v.integer);
    case EdmType::kDouble:
      if (std::isnan(v.number)) return "NaN";
      if (std::isinf(v.number)) return v.number > 0 ? "Infinity" : "-Infinity";
      server::AppendJsonDouble(out, v.number);
      return out;
    case EdmType::kBoolean:
      return v.integer != 0 ? "true" : "false";
    case EdmType::kDateTime:
      return FormatIso8601(v.AsDateTime());
    case EdmType::kGuid:
      return FormatGuid(v.bytes);
    case EdmType::kBinary:
      return Base64Encode(v.bytes);
  }
  return out;
}

std::string_view ShortTypeName(EdmType type) { return EdmTypeName(type).substr(4); }

Result<CsvColumn> ParseHeaderCell(std::string_view cell) {
  const std::size_t colon = cell.find(':');
  if (colon == std::string_view::npos) return CsvColumn{std::string(cell), EdmType::kString};
  std::string type_name(cell.substr(colon + 1));
  if (!type_name.starts_with("Edm.")) type_name = "Edm." + type_name;
  std::optional<EdmType> type = ParseEdmTypeName(type_name);
  if (!type) {
    return Fail(ErrorCode::kInvalidInput, "unknown type in CSV header '" + std::string(cell) + "'");
  }
  return CsvColumn{std::string(cell.substr(0, colon)), *type};
}

}  // namespace

void CsvLayout::Add(const Entity& entity) {
  for (const Property& p : entity.properties) {
    CsvColumn column{p.name, p.value.type};
    if (std::find(columns_.begin(), columns_.end(), column) == columns_.end()) {
      columns_.push_back(std::move(column));
    }
  }
}

std::string CsvHeader(const std::vector<CsvColumn>& columns, bool with_timestamp) {
  std::string out =
      with_timestamp ? "PartitionKey,RowKey,Timestamp:DateTime" : "PartitionKey,RowKey";
  for (const CsvColumn& c : columns) {
    out.push_back(',');
    AppendCell(out, c.name + ":" + std::string(ShortTypeName(c.type)), false);
  }
  out.push_back('\n');
  return out;
}

void AppendCsvRow(std::string& out, const Entity& entity, const std::vector<CsvColumn>& columns,
                  bool with_timestamp) {
  AppendCell(out, entity.partition_key, entity.partition_key.empty());
  out.push_back(',');
  AppendCell(out, entity.row_key, entity.row_key.empty());
  if (with_timestamp) out += "," + FormatIso8601(entity.timestamp);
  for (const CsvColumn& c : columns) {
    out.push_back(',');
    const Property* p = entity.Find(c.name);
    if (p == nullptr || p->value.type != c.type) continue;  // absent: an empty unquoted cell
    // The empty string is quoted so that it differs from an absent property.
    const std::string text = ValueText(p->value);
    AppendCell(out, text, text.empty());
  }
  out.push_back('\n');
}

Result<std::optional<CsvRecord>> CsvRecordReader::Next() {
  CsvRecord record;
  record.line = line_;
  std::string field;
  bool quoted = false, in_quotes = false, after_quote = false, any = false;
  auto end_field = [&] {
    record.fields.push_back(std::move(field));
    record.quoted.push_back(quoted);
    field.clear();
    quoted = after_quote = false;
  };
  for (int ch; (ch = in_.get()) != std::char_traits<char>::eof();) {
    ++offset_;
    any = true;
    const char c = static_cast<char>(ch);
    if (c == '\n') ++line_;
    if (in_quotes) {
      if (c != '"') {
        field.push_back(c);
      } else if (in_.peek() == '"') {
        in_.get();
        ++offset_;
        field.push_back('"');
      } else {
        in_quotes = false;
        after_quote = true;
      }
      continue;
    }
    if (c == ',') {
      end_field();
    } else if (c == '\n') {
      end_field();
      return std::optional<CsvRecord>(std::move(record));
    } else if (c == '\r' && in_.peek() == '\n') {
      continue;
    } else if (c == '"' && field.empty() && !quoted) {
      in_quotes = quoted = true;
    } else if (after_quote) {
      return Fail(ErrorCode::kInvalidInput,
                  "line " + std::to_string(line_) + ": text after a closing quote");
    } else {
      field.push_back(c);
    }
  }
  if (in_quotes) {
    return Fail(ErrorCode::kInvalidInput,
                "line " + std::to_string(record.line) + ": a quoted field never ends");
  }
  if (!any) return std::optional<CsvRecord>();
  end_field();
  return std::optional<CsvRecord>(std::move(record));
}

void CsvRecordReader::Seek(std::uint64_t offset, std::size_t line) {
  in_.clear();
  in_.seekg(static_cast<std::streamoff>(offset));
  offset_ = offset;
  line_ = line;
}

Result<CsvEntityDecoder> CsvEntityDecoder::FromHeader(const CsvRecord& header) {
  CsvEntityDecoder decoder;
  for (const std::string& cell : header.fields) {
    auto column = ParseHeaderCell(cell);
    if (!column) return tl::unexpected(column.error());
    const bool duplicate = std::any_of(decoder.columns_.begin(), decoder.columns_.end(),
                                       [&](const CsvColumn& c) { return c == *column; });
    if (duplicate) {
      return Fail(ErrorCode::kInvalidInput, "CSV header names '" + cell + "' twice");
    }
    decoder.columns_.push_back(std::move(*column));
  }
  for (std::string_view key : {"PartitionKey", "RowKey"}) {
    const bool found = std::any_of(decoder.columns_.begin(), decoder.columns_.end(),
                                   [&](const CsvColumn& c) { return c.name == key; });
    if (!found) {
      return Fail(ErrorCode::kInvalidInput, "CSV header has no " + std::string(key) + " column");
    }
  }
  return decoder;
}

Result<Entity> CsvEntityDecoder::Decode(const CsvRecord& row, bool keep_timestamp) const {
  if (row.fields.size() > columns_.size()) {
    return Fail(ErrorCode::kInvalidInput, "The row has more cells than the header has columns.");
  }
  // The row as the JSON body a client would send, so the service's parser decides every value.
  std::string json = "{";
  server::JsonMembers m(json);
  for (std::size_t i = 0; i < row.fields.size(); ++i) {
    const CsvColumn& c = columns_[i];
    if (row.fields[i].empty() && !row.quoted[i] &&
        !(IsSystemProperty(c.name) && c.name != "Timestamp")) {
      continue;
    }
    if (!IsSystemProperty(c.name) && c.type != EdmType::kString) {
      m.AnnotationKey(c.name);
      server::AppendJsonString(json, EdmTypeName(c.type));
    }
    m.String(c.name, row.fields[i]);
  }
  json.push_back('}');
  return ParseEntityLine(json, keep_timestamp);
}

}  // namespace malachite::cli
