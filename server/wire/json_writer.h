// Small append-only JSON writing helpers: everything appends to one caller-owned output, so a
// response body is built without streams or intermediate strings. The output (`Out`) is a
// std::string or a JsonBuffer (json_buffer.h); both are instantiated in json_writer.cc, and
// both receive the same bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/edm.h"
#include "server/wire/json_buffer.h"
#include "server/wire/json_number.h"

namespace malachite::server {

// Appends `text` as a JSON string literal: quotes, `\"`, `\\`, `\n` `\r` `\t`, other control
// characters as `\u00XX`; every other byte (including UTF-8 sequences) is copied as is.
template <class Out>
void AppendJsonString(Out& out, std::string_view text);
// The same escaping without the surrounding quotes, for values assembled from several parts.
template <class Out>
void AppendJsonEscaped(Out& out, std::string_view text);

// Appends a finite double in shortest round-trip form; when that form has no '.', exponent or
// 'n' it gets ".0" (5 -> "5.0", 1e+20 stays "1e+20") so clients read a float, not an integer.
// REQUIRES: std::isfinite(value).
template <class Out>
void AppendJsonDouble(Out& out, double value);

// Appends a decimal integer.
template <class Out>
void AppendJsonInt(Out& out, std::int64_t value);

// OData pieces, JSON-escaped, without surrounding quotes:
// `<table>(PartitionKey='<pk>',RowKey='<rk>')` with each key's `'` doubled and then
// percent-encoded (odata.editLink, and odata.id after the base URL).
template <class Out>
void AppendEntityPath(Out& out, std::string_view table, std::string_view partition_key,
                      std::string_view row_key);
// Appends FormatETag(t) as a JSON string literal (quotes included), e.g.
// "W/\"datetime'2021-02-05T17%3A15%3A16.7935715Z'\"", without temporaries.
template <class Out>
void AppendETagJson(Out& out, DateTime t);
// The same from the timestamp as PutIso8601 (common/datetime.h) formatted it.
// REQUIRES: `iso8601` is PutIso8601's output.
template <class Out>
void AppendETagJson(Out& out, std::string_view iso8601);

// Writes the members of one JSON object into `out`, placing the commas. Does not write the
// braces. Lives as long as the statement or scope that uses it; keeps a reference to `out`.
template <class Out>
class BasicJsonMembers {
 public:
  explicit BasicJsonMembers(Out& out) : out_(out) {}

  // `"name":` (escaped), preceded by a comma unless it is the first member.
  void Key(std::string_view name);
  // `"name@odata.type":`.
  void AnnotationKey(std::string_view name);
  // For keys known at compile time, written whole: `literal` is the member's text from its
  // comma on (`,"PartitionKey":`), written without the comma for the first member.
  // REQUIRES: literal starts with ','.
  void LiteralKey(std::string_view literal);
  // `"name":"value"` with both escaped.
  void String(std::string_view name, std::string_view value);
  // `"name":` (escaped) and then `json` as is: a number or literal already in JSON form.
  void Raw(std::string_view name, std::string_view json);
  // LiteralKey(literal) and then `"value"` (escaped). REQUIRES: as LiteralKey.
  void LiteralString(std::string_view literal, std::string_view value);

  Out& out() { return out_; }

 private:
  void Comma();
  // The text before a key: `"`, or `,"` after the first member.
  std::string_view Open() const {
    return first_ ? std::string_view("\"") : std::string_view(",\"");
  }
  Out& out_;
  bool first_ = true;
};

using JsonMembers = BasicJsonMembers<std::string>;

}  // namespace malachite::server
