// Small append-only JSON writing helpers: everything appends to one caller-owned std::string, so a
// response body is built without streams or intermediate strings.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/edm.h"

namespace malachite::server {

// Appends `text` as a JSON string literal: quotes, `\"`, `\\`, `\n` `\r` `\t`, other control
// characters as `\u00XX`; every other byte (including UTF-8 sequences) is copied as is.
void AppendJsonString(std::string& out, std::string_view text);
// The same escaping without the surrounding quotes, for values assembled from several parts.
void AppendJsonEscaped(std::string& out, std::string_view text);

// Appends a finite double in shortest round-trip form; when that form has no '.', exponent or
// 'n' it gets ".0" (5 -> "5.0", 1e+20 stays "1e+20") so clients read a float, not an integer.
// REQUIRES: std::isfinite(value).
void AppendJsonDouble(std::string& out, double value);

// Appends a decimal integer.
void AppendJsonInt(std::string& out, std::int64_t value);

// OData pieces, JSON-escaped, without surrounding quotes:
// `<table>(PartitionKey='<pk>',RowKey='<rk>')` with each key's `'` doubled and then
// percent-encoded (odata.editLink, and odata.id after the base URL).
void AppendEntityPath(std::string& out, std::string_view table, std::string_view partition_key,
                      std::string_view row_key);
// Appends FormatETag(t) as a JSON string literal (quotes included), e.g.
// "W/\"datetime'2021-02-05T17%3A15%3A16.7935715Z'\"", without temporaries.
void AppendETagJson(std::string& out, DateTime t);
// The same from the timestamp as PutIso8601 (common/datetime.h) formatted it.
// REQUIRES: `iso8601` is PutIso8601's output.
void AppendETagJson(std::string& out, std::string_view iso8601);

// Writes the members of one JSON object into `out`, placing the commas. Does not write the
// braces. Lives as long as the statement or scope that uses it; keeps a reference to `out`.
class JsonMembers {
 public:
  explicit JsonMembers(std::string& out) : out_(out) {}

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

  std::string& out() { return out_; }

 private:
  void Comma();
  std::string& out_;
  bool first_ = true;
};

}  // namespace malachite::server
