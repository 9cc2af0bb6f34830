#include "server/insight/query_shape.h"

#include <algorithm>

#include "odata/ast.h"
#include "odata/filter.h"
#include "odata/lexer.h"

namespace malachite::server {
namespace {

bool IsLiteral(odata::TokenKind kind) {
  using odata::TokenKind;
  switch (kind) {
    case TokenKind::kString:
    case TokenKind::kInteger:
    case TokenKind::kInt64:
    case TokenKind::kDouble:
    case TokenKind::kTrue:
    case TokenKind::kFalse:
    case TokenKind::kNull:
    case TokenKind::kDateTime:
    case TokenKind::kGuid:
    case TokenKind::kBinary:
      return true;
    default:
      return false;
  }
}

bool IsSystemProperty(std::string_view name) {
  return name == "PartitionKey" || name == "RowKey" || name == "Timestamp";
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

std::string QueryShape(std::string_view filter) {
  auto tokens = odata::Lex(filter);
  if (!tokens) return std::string(filter);
  std::string shape;
  shape.reserve(filter.size());
  for (const odata::Token& token : *tokens) {
    if (token.kind == odata::TokenKind::kEnd) break;
    const bool tight = token.kind == odata::TokenKind::kCloseParen ||
                       token.kind == odata::TokenKind::kComma ||
                       (!shape.empty() && shape.back() == '(');
    if (!shape.empty() && !tight) shape.push_back(' ');
    if (IsLiteral(token.kind)) {
      shape.push_back('?');
    } else {
      shape.append(filter.substr(token.offset, token.length));
    }
  }
  return shape;
}

std::vector<std::string> EqualityProperties(std::string_view filter) {
  std::vector<std::string> out;
  if (filter.find_first_not_of(" \t") == std::string_view::npos) return out;
  auto parsed = odata::Filter::Parse(filter);
  if (parsed) CollectEqualities(parsed->root(), out);
  return out;
}

}  // namespace malachite::server
