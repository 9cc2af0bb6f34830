#include "odata/ast.h"

#include <charconv>
#include <utility>

#include "common/datetime.h"
#include "common/encoding.h"

namespace malachite::odata {
namespace {

void AppendQuoted(std::string& out, std::string_view value) {
  out += '\'';
  for (char c : value) {
    if (c == '\'') out += '\'';
    out += c;
  }
  out += '\'';
}

std::string FormatDouble(double value) {
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, result.ptr);
}

// The value part of a literal: decoded when the checker has run, else the lexed text.
std::string LiteralBody(const Literal& literal) {
  if (!literal.decoded) return literal.text;
  const EdmValue& v = literal.value;
  switch (v.type) {
    case EdmType::kInt32:
    case EdmType::kInt64:
      return std::to_string(v.integer);
    case EdmType::kDouble:
      return FormatDouble(v.number);
    case EdmType::kBoolean:
      return v.integer != 0 ? "true" : "false";
    case EdmType::kDateTime:
      return FormatIso8601(v.AsDateTime());
    case EdmType::kGuid:
      return FormatGuid(v.bytes);
    case EdmType::kBinary: {
      std::string hex;
      AppendHex(hex, v.bytes, HexCase::kUpper);
      return hex;
    }
    case EdmType::kString:
      return v.bytes;
  }
  return literal.text;
}

void DumpInto(const Expr& expr, std::string& out) {
  switch (expr.kind) {
    case Expr::Kind::kCompare:
      out += '(';
      out += CompareOpName(expr.op);
      out += ' ';
      out += expr.property;
      out += ' ';
      out += DumpLiteral(expr.literal);
      out += ')';
      return;
    case Expr::Kind::kConstant:
      out += expr.constant ? "true" : "false";
      return;
    case Expr::Kind::kNot:
      out += "(not ";
      DumpInto(*expr.left, out);
      out += ')';
      return;
    case Expr::Kind::kAnd:
    case Expr::Kind::kOr:
      out += expr.kind == Expr::Kind::kAnd ? "(and " : "(or ";
      DumpInto(*expr.left, out);
      out += ' ';
      DumpInto(*expr.right, out);
      out += ')';
      return;
  }
}

}  // namespace

std::string_view CompareOpName(CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return "eq";
    case CompareOp::kNe:
      return "ne";
    case CompareOp::kGt:
      return "gt";
    case CompareOp::kGe:
      return "ge";
    case CompareOp::kLt:
      return "lt";
    case CompareOp::kLe:
      return "le";
  }
  return "?";
}

CompareOp Mirror(CompareOp op) {
  switch (op) {
    case CompareOp::kGt:
      return CompareOp::kLt;
    case CompareOp::kGe:
      return CompareOp::kLe;
    case CompareOp::kLt:
      return CompareOp::kGt;
    case CompareOp::kLe:
      return CompareOp::kGe;
    case CompareOp::kEq:
    case CompareOp::kNe:
      return op;
  }
  return op;
}

Expr* ExprTree::Make() {
  // Growing the block would move the nodes made so far, to which other nodes point.
  if (nodes_.size() < nodes_.capacity()) return &nodes_.emplace_back();
  return overflow_.emplace_back(std::make_unique<Expr>()).get();
}

Expr* ExprTree::Compare(std::string_view property, CompareOp op, Literal&& literal,
                        std::size_t offset) {
  Expr* expr = Make();
  expr->kind = Expr::Kind::kCompare;
  expr->offset = offset;
  expr->property = property;
  expr->op = op;
  expr->literal = std::move(literal);
  return expr;
}

Expr* ExprTree::Binary(Expr::Kind kind, Expr* left, Expr* right, std::size_t offset) {
  Expr* expr = Make();
  expr->kind = kind;
  expr->offset = offset;
  expr->left = left;
  expr->right = right;
  return expr;
}

Expr* ExprTree::Not(Expr* operand, std::size_t offset) {
  Expr* expr = Make();
  expr->kind = Expr::Kind::kNot;
  expr->offset = offset;
  expr->left = operand;
  return expr;
}

Expr* ExprTree::Constant(bool value, std::size_t offset) {
  Expr* expr = Make();
  expr->kind = Expr::Kind::kConstant;
  expr->offset = offset;
  expr->constant = value;
  return expr;
}

std::string Expr::Dump() const {
  std::string out;
  DumpInto(*this, out);
  return out;
}

std::string DumpLiteral(const Literal& literal) {
  std::string out;
  const std::string body = LiteralBody(literal);
  switch (literal.type) {
    case EdmType::kString:
      AppendQuoted(out, body);
      break;
    case EdmType::kInt32:
      out = body + ":Int32";
      break;
    case EdmType::kInt64:
      out = body + ":Int64";
      break;
    case EdmType::kDouble:
      out = body + ":Double";
      break;
    case EdmType::kBoolean:
      out = body;
      break;
    case EdmType::kDateTime:
      out = "datetime'" + body + "'";
      break;
    case EdmType::kGuid:
      out = "guid'" + body + "'";
      break;
    case EdmType::kBinary:
      out = "X'" + body + "'";
      break;
  }
  return out;
}

}  // namespace malachite::odata
