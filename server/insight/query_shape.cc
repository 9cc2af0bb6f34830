#include "server/insight/query_shape.h"

#include <algorithm>

#include "common/property_view.h"
#include "odata/ast.h"
#include "odata/filter.h"

namespace malachite::server {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsWordChar(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// Digits, '.', an exponent and the type suffixes of odata/lexer.h (5L, 1.5d, ...).
bool IsNumberChar(char c) { return IsWordChar(c) || c == '.' || c == '+' || c == '-'; }

// The index after the quoted text starting at `i` ('' is a quote inside); the end when it is
// not closed.
std::size_t SkipQuoted(std::string_view text, std::size_t i) {
  for (++i; i < text.size(); ++i) {
    if (text[i] != '\'') continue;
    if (i + 1 < text.size() && text[i + 1] == '\'') {
      ++i;
      continue;
    }
    return i + 1;
  }
  return text.size();
}

void CollectEqualities(const odata::Expr& expr, std::vector<std::string>& out) {
  if (expr.kind == odata::Expr::Kind::kAnd) {
    CollectEqualities(*expr.left, out);
    CollectEqualities(*expr.right, out);
    return;
  }
  if (expr.kind != odata::Expr::Kind::kCompare || expr.op != odata::CompareOp::kEq) return;
  if (IsSystemProperty(expr.property)) return;
  if (std::find(out.begin(), out.end(), expr.property) == out.end()) out.push_back(expr.property);
}

}  // namespace

// Emulator: a scan of the text rather than odata::Lex, because it runs on the request path for
// every scanning query, where the lexer's tokens (each with its own string) would cost more than
// the rest of the recording. It knows the literals of odata/lexer.h: '...' (with ''), a prefix
// and quotes (datetime'...', guid'...', X'...', binary'...'), numbers, true, false and null.
std::string QueryShape(std::string_view filter) {
  std::string shape;
  shape.reserve(filter.size());
  auto emit = [&shape](std::string_view piece) {
    if (!shape.empty() && shape.back() != '(' && piece != ")") shape.push_back(' ');
    shape.append(piece);
  };
  std::size_t i = 0;
  while (i < filter.size()) {
    const char c = filter[i];
    const std::size_t start = i;
    if (c == ' ' || c == '\t') {
      ++i;
    } else if (c == '\'') {
      i = SkipQuoted(filter, i);
      emit("?");
    } else if (IsDigit(c) || (c == '-' && i + 1 < filter.size() && IsDigit(filter[i + 1]))) {
      for (++i; i < filter.size() && IsNumberChar(filter[i]);) ++i;
      emit("?");
    } else if (!IsWordChar(c)) {
      emit(filter.substr(i++, 1));
    } else {
      while (i < filter.size() && IsWordChar(filter[i])) ++i;
      const std::string_view word = filter.substr(start, i - start);
      if (i < filter.size() && filter[i] == '\'') {
        i = SkipQuoted(filter, i);
        emit("?");
      } else {
        emit(word == "true" || word == "false" || word == "null" ? "?" : word);
      }
    }
  }
  return shape;
}

std::size_t LiteralEnd(std::string_view filter, std::size_t start) {
  std::size_t i = start;
  if (i >= filter.size()) return filter.size();
  if (filter[i] == '\'') return SkipQuoted(filter, i);
  if (filter[i] == '-') ++i;
  if (i < filter.size() && IsDigit(filter[i])) {
    while (i < filter.size() && IsNumberChar(filter[i])) ++i;
    return i;
  }
  while (i < filter.size() && IsWordChar(filter[i])) ++i;
  return i < filter.size() && filter[i] == '\'' ? SkipQuoted(filter, i) : i;
}

std::vector<std::string> EqualityProperties(std::string_view filter) {
  std::vector<std::string> out;
  if (filter.find_first_not_of(" \t") == std::string_view::npos) return out;
  auto parsed = odata::Filter::Parse(filter);
  if (parsed) CollectEqualities(parsed->root(), out);
  return out;
}

}  // namespace malachite::server
