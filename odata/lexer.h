// Stage 1 of $filter: text -> tokens with byte offsets (spec §6.1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace malachite::odata {

enum class TokenKind : std::uint8_t {
  kIdentifier,  // a property name
  kEq,
  kNe,
  kGt,
  kGe,
  kLt,
  kLe,
  kAnd,
  kOr,
  kNot,
  kOpenParen,
  kCloseParen,
  kComma,    // only ever part of a function call, which the parser refuses as NotImplemented
  kString,   // '...'            text: the value, '' already collapsed to '
  kInteger,  // [-]digits        text: the digits (an Int32 unless out of range: checker)
  kInt64,    // [-]digitsL       text: the digits, without L
  kDouble,   // [-]d[.d][E[±]d][d|D]  text: the number, without a d/D suffix
  kTrue,
  kFalse,
  kNull,      // lexed so the parser can name it in its error
  kDateTime,  // datetime'...'    text: what is between the quotes
  kGuid,      // guid'...'        text: what is between the quotes
  kBinary,    // X'...' or binary'...'  text: the hex digits between the quotes
  kEnd,       // end of input; offset = text size
};

// "Identifier", "eq", "String", ... Never fails.
std::string_view TokenKindName(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::size_t offset = 0;  // byte offset of the token's first byte in the filter text
  std::size_t length = 0;  // bytes the token spans in the filter text
  std::string text;        // see TokenKind
};

// Splits `text` into tokens; the last token is always kEnd. Keywords, `true`/`false`/`null` and
// literal prefixes are case-sensitive (Azure: spec §6.1 "All parts of the filter string are
// case-sensitive"). Errors: kInvalidInput naming the byte offset (unterminated string, malformed
// number, unknown character, unknown literal prefix).
Result<std::vector<Token>> Lex(std::string_view text);

// One token per line: `<offset> <Kind> <text>`; e.g. "0 Identifier PartitionKey\n13 eq\n".
std::string DumpTokens(const std::vector<Token>& tokens);

}  // namespace malachite::odata
