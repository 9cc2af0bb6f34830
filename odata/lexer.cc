#include "odata/lexer.h"

#include <array>
#include <utility>

#include "odata/filter_error.h"

namespace malachite::odata {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Azure: spec §9.3 — property names are C# identifiers; bytes >= 0x80 are let through so that
// non-ASCII letters lex as part of a name; whether such a name exists is the row's business.
bool IsIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool IsIdentifierPart(char c) { return IsIdentifierStart(c) || IsDigit(c); }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// The keyword `word` spells (eq ne gt ge lt le and or not true false null), or kIdentifier.
// Looked up by length first: a filter is mostly keywords and key names, lexed once per request.
TokenKind KeywordKind(std::string_view word) {
  switch (word.size()) {
    case 2:
      if (word == "eq") return TokenKind::kEq;
      if (word == "ne") return TokenKind::kNe;
      if (word == "gt") return TokenKind::kGt;
      if (word == "ge") return TokenKind::kGe;
      if (word == "lt") return TokenKind::kLt;
      if (word == "le") return TokenKind::kLe;
      if (word == "or") return TokenKind::kOr;
      break;
    case 3:
      if (word == "and") return TokenKind::kAnd;
      if (word == "not") return TokenKind::kNot;
      break;
    case 4:
      if (word == "true") return TokenKind::kTrue;
      if (word == "null") return TokenKind::kNull;
      break;
    case 5:
      if (word == "false") return TokenKind::kFalse;
      break;
    default:
      break;
  }
  return TokenKind::kIdentifier;
}

// Azure: spec §6.1 literal forms — datetime'…', guid'…', X'…' and binary'…'.
constexpr std::array<std::pair<std::string_view, TokenKind>, 4> kPrefixes = {{
    {"datetime", TokenKind::kDateTime},
    {"guid", TokenKind::kGuid},
    {"X", TokenKind::kBinary},
    {"binary", TokenKind::kBinary},
}};

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  Result<std::vector<Token>> Run() && {
    // SDK filters spend 5 to 10 bytes per token (the .NET SDK's fully parenthesised ones about
    // 5, unless the keys are very short); a denser one grows the vector. Room for 15 tokens of
    // a usual key filter stays under 1 KiB, which malloc serves from its per-thread cache.
    tokens_.reserve(text_.size() / 5 + 2);
    while (true) {
      while (pos_ < text_.size() && IsSpace(text_[pos_])) ++pos_;
      if (pos_ == text_.size()) break;
      Result<void> token = Next();
      if (!token) return tl::unexpected(std::move(token.error()));
    }
    Add(TokenKind::kEnd, text_.size(), 0);
    return std::move(tokens_);
  }

 private:
  // Tokens are made in place in the vector (the lexer runs on every query request).
  Token& Add(TokenKind kind, std::size_t offset, std::size_t length) {
    Token& token = tokens_.emplace_back();
    token.kind = kind;
    token.offset = offset;
    token.length = length;
    return token;
  }

  Result<void> Next() {
    const char c = text_[pos_];
    if (c == '(' || c == ')') {
      Add(c == '(' ? TokenKind::kOpenParen : TokenKind::kCloseParen, pos_++, 1);
      return {};
    }
    if (c == ',') {
      Add(TokenKind::kComma, pos_++, 1);
      return {};
    }
    if (c == '\'') return QuotedString();
    if (IsDigit(c) || (c == '-' && pos_ + 1 < text_.size() && IsDigit(text_[pos_ + 1]))) {
      return Number();
    }
    if (IsIdentifierStart(c)) return Word();
    return FilterError(pos_, "unexpected character '" + std::string(1, c) + "'");
  }

  // '…' with '' standing for one quote. The value is copied in runs between quotes.
  Result<void> QuotedString() {
    const std::size_t start = pos_++;
    Token& token = Add(TokenKind::kString, start, 0);
    while (true) {
      const std::size_t quote = text_.find('\'', pos_);
      if (quote == std::string_view::npos) return FilterError(start, "unterminated string literal");
      token.text.append(text_.data() + pos_, quote - pos_);
      pos_ = quote + 1;
      if (pos_ < text_.size() && text_[pos_] == '\'') {
        token.text += '\'';
        ++pos_;
        continue;
      }
      token.length = pos_ - start;
      return {};
    }
  }

  std::size_t SkipDigits() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
    return pos_ - start;
  }

  // Azure: spec §6.1 — Int32 `[-]digits`, Int64 `[-]digitsL`, Double
  // `[-]digits.digits[E[±]digits]`, also `2E10` and a trailing d/D (rec.).
  Result<void> Number() {
    const std::size_t start = pos_;
    if (text_[pos_] == '-') ++pos_;
    SkipDigits();
    bool is_double = false;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (SkipDigits() == 0)
        return FilterError(start, "malformed number: digits expected after '.'");
      is_double = true;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'E' || text_[pos_] == 'e')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (SkipDigits() == 0) return FilterError(start, "malformed number: exponent expected");
      is_double = true;
    }
    const std::string_view digits = text_.substr(start, pos_ - start);
    TokenKind kind = is_double ? TokenKind::kDouble : TokenKind::kInteger;
    if (pos_ < text_.size() && text_[pos_] == 'L' && !is_double) {
      kind = TokenKind::kInt64;
      ++pos_;
    } else if (pos_ < text_.size() && (text_[pos_] == 'd' || text_[pos_] == 'D')) {
      kind = TokenKind::kDouble;
      ++pos_;
    }
    if (pos_ < text_.size() && (IsIdentifierPart(text_[pos_]) || text_[pos_] == '.')) {
      return FilterError(
          start, "malformed number '" + std::string(text_.substr(start, pos_ + 1 - start)) + "'");
    }
    Add(kind, start, pos_ - start).text.assign(digits);
    return {};
  }

  Result<void> Word() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && IsIdentifierPart(text_[pos_])) ++pos_;
    const std::string_view word = text_.substr(start, pos_ - start);
    if (pos_ < text_.size() && text_[pos_] == '\'') {
      for (const auto& [prefix, kind] : kPrefixes) {
        if (word == prefix) return PrefixedLiteral(start, kind);
      }
    }
    const TokenKind kind = KeywordKind(word);
    Token& token = Add(kind, start, word.size());
    if (kind == TokenKind::kIdentifier) token.text.assign(word);
    return {};
  }

  // prefix'…': the body has no escapes (a GUID, a date or hex digits never holds a quote).
  Result<void> PrefixedLiteral(std::size_t start, TokenKind kind) {
    const std::size_t open = pos_++;
    const std::size_t close = text_.find('\'', pos_);
    if (close == std::string_view::npos) return FilterError(open, "unterminated literal");
    const std::string_view body = text_.substr(pos_, close - pos_);
    pos_ = close + 1;
    Add(kind, start, pos_ - start).text.assign(body);
    return {};
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::vector<Token> tokens_;
};

}  // namespace

std::string_view TokenKindName(TokenKind kind) {
  switch (kind) {
    case TokenKind::kIdentifier:
      return "Identifier";
    case TokenKind::kEq:
      return "eq";
    case TokenKind::kNe:
      return "ne";
    case TokenKind::kGt:
      return "gt";
    case TokenKind::kGe:
      return "ge";
    case TokenKind::kLt:
      return "lt";
    case TokenKind::kLe:
      return "le";
    case TokenKind::kAnd:
      return "and";
    case TokenKind::kOr:
      return "or";
    case TokenKind::kNot:
      return "not";
    case TokenKind::kOpenParen:
      return "(";
    case TokenKind::kCloseParen:
      return ")";
    case TokenKind::kComma:
      return ",";
    case TokenKind::kString:
      return "String";
    case TokenKind::kInteger:
      return "Integer";
    case TokenKind::kInt64:
      return "Int64";
    case TokenKind::kDouble:
      return "Double";
    case TokenKind::kTrue:
      return "true";
    case TokenKind::kFalse:
      return "false";
    case TokenKind::kNull:
      return "null";
    case TokenKind::kDateTime:
      return "DateTime";
    case TokenKind::kGuid:
      return "Guid";
    case TokenKind::kBinary:
      return "Binary";
    case TokenKind::kEnd:
      return "End";
  }
  return "?";
}

Result<std::vector<Token>> Lex(std::string_view text) { return Lexer(text).Run(); }

std::string DumpTokens(const std::vector<Token>& tokens) {
  std::string out;
  for (const Token& token : tokens) {
    out += std::to_string(token.offset);
    out += ' ';
    out += TokenKindName(token.kind);
    if (token.kind == TokenKind::kString) {
      out += " '" + token.text + "'";
    } else if (!token.text.empty()) {
      out += ' ';
      out += token.text;
    }
    out += '\n';
  }
  return out;
}

}  // namespace malachite::odata
