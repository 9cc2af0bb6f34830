#include "odata/parser.h"

#include <optional>
#include <string>
#include <utility>

#include "odata/filter_error.h"

namespace malachite::odata {
namespace {

std::optional<CompareOp> AsCompareOp(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEq:
      return CompareOp::kEq;
    case TokenKind::kNe:
      return CompareOp::kNe;
    case TokenKind::kGt:
      return CompareOp::kGt;
    case TokenKind::kGe:
      return CompareOp::kGe;
    case TokenKind::kLt:
      return CompareOp::kLt;
    case TokenKind::kLe:
      return CompareOp::kLe;
    default:
      return std::nullopt;
  }
}

// The EDM type a literal token spells, or nullopt when the token is no literal.
std::optional<EdmType> LiteralType(TokenKind kind) {
  switch (kind) {
    case TokenKind::kString:
      return EdmType::kString;
    case TokenKind::kInteger:
      return EdmType::kInt32;
    case TokenKind::kInt64:
      return EdmType::kInt64;
    case TokenKind::kDouble:
      return EdmType::kDouble;
    case TokenKind::kTrue:
    case TokenKind::kFalse:
      return EdmType::kBoolean;
    case TokenKind::kDateTime:
      return EdmType::kDateTime;
    case TokenKind::kGuid:
      return EdmType::kGuid;
    case TokenKind::kBinary:
      return EdmType::kBinary;
    default:
      return std::nullopt;
  }
}

// One side of a comparison: a property name or a literal, read from its token when the
// comparison is built (the parser owns the tokens, so a literal's text moves into the tree).
struct Operand {
  Token* token = nullptr;
  EdmType type = EdmType::kString;  // a literal's type; unused for a property
  bool is_property() const { return token->kind == TokenKind::kIdentifier; }
  std::size_t offset() const { return token->offset; }
};

// Takes the token's text.
Literal MakeLiteral(const Operand& operand) {
  Literal literal;
  literal.type = operand.type;
  literal.offset = operand.offset();
  if (operand.type == EdmType::kBoolean) {
    literal.text = TokenKindName(operand.token->kind);
  } else {
    literal.text = std::move(operand.token->text);
  }
  return literal;
}

// An upper bound on the nodes a parse of `tokens` makes: each node takes a token of its own (a
// comparison its operator, and/or/not their keyword, a constant its true/false).
std::size_t MaxNodes(const std::vector<Token>& tokens) {
  std::size_t nodes = 0;
  for (const Token& token : tokens) {
    switch (token.kind) {
      case TokenKind::kEq:
      case TokenKind::kNe:
      case TokenKind::kGt:
      case TokenKind::kGe:
      case TokenKind::kLt:
      case TokenKind::kLe:
      case TokenKind::kAnd:
      case TokenKind::kOr:
      case TokenKind::kNot:
      case TokenKind::kTrue:
      case TokenKind::kFalse:
        ++nodes;
        break;
      default:
        break;
    }
  }
  return nodes;
}

class Parser {
 public:
  explicit Parser(std::vector<Token>& tokens) : tokens_(tokens), tree_(MaxNodes(tokens)) {}

  Result<ExprTree> Run() && {
    Result<Expr*> root = ParseOr(0);
    if (!root) return tl::unexpected(std::move(root.error()));
    if (Peek().kind != TokenKind::kEnd) return Unexpected("'and', 'or' or the end of the filter");
    tree_.set_root(*root);
    return std::move(tree_);
  }

 private:
  const Token& Peek() const { return tokens_[pos_]; }
  // Never moves past the final kEnd token.
  Token& Take() { return tokens_[pos_ + 1 < tokens_.size() ? pos_++ : pos_]; }

  tl::unexpected<Error> Unexpected(std::string_view expected) const {
    const Token& token = Peek();
    if (token.kind == TokenKind::kEnd) {
      return FilterError(token.offset, "expected " + std::string(expected) + ", found the end");
    }
    return FilterError(token.offset, "expected " + std::string(expected) + ", found '" +
                                         std::string(TokenKindName(token.kind)) + "'");
  }

  Result<Expr*> ParseOr(std::size_t depth) {
    Result<Expr*> left = ParseAnd(depth);
    while (left && Peek().kind == TokenKind::kOr) {
      const std::size_t offset = Take().offset;
      Result<Expr*> right = ParseAnd(depth);
      if (!right) return right;
      left = tree_.Binary(Expr::Kind::kOr, *left, *right, offset);
    }
    return left;
  }

  Result<Expr*> ParseAnd(std::size_t depth) {
    Result<Expr*> left = ParseUnary(depth);
    while (left && Peek().kind == TokenKind::kAnd) {
      const std::size_t offset = Take().offset;
      Result<Expr*> right = ParseUnary(depth);
      if (!right) return right;
      left = tree_.Binary(Expr::Kind::kAnd, *left, *right, offset);
    }
    return left;
  }

  Result<Expr*> ParseUnary(std::size_t depth) {
    if (depth >= kMaxNestingDepth) {
      return FilterError(Peek().offset,
                         "nesting deeper than " + std::to_string(kMaxNestingDepth) + " levels");
    }
    if (Peek().kind == TokenKind::kNot) {
      const std::size_t offset = Take().offset;
      Result<Expr*> operand = ParseUnary(depth + 1);
      if (!operand) return operand;
      return tree_.Not(*operand, offset);
    }
    if (Peek().kind == TokenKind::kOpenParen) {
      const std::size_t open = Take().offset;
      Result<Expr*> inner = ParseOr(depth + 1);
      if (!inner) return inner;
      if (Peek().kind != TokenKind::kCloseParen) {
        return Unexpected("')' closing the '(' at position " + std::to_string(open));
      }
      Take();
      return inner;
    }
    return ParseCondition();
  }

  // A comparison, or a boolean literal standing alone. Azure: spec §6.1 — `$filter=false` (the
  // health checks' probe), `true and RowKey eq '1'` and the .NET PredicateBuilder's `false or ...`
  // are accepted by the service.
  Result<Expr*> ParseCondition() {
    if (++conditions_ > kMaxParsedConditions) {
      return FilterError(Peek().offset, "more than " + std::to_string(kMaxParsedConditions) +
                                            " comparisons and constants");
    }
    const Token& token = Peek();
    const bool boolean = token.kind == TokenKind::kTrue || token.kind == TokenKind::kFalse;
    // Not the last token, so the next one exists (the list ends with kEnd).
    if (boolean && !AsCompareOp(tokens_[pos_ + 1].kind)) {
      Take();
      return tree_.Constant(token.kind == TokenKind::kTrue, token.offset);
    }
    return ParseComparison();
  }

  Result<Expr*> ParseComparison() {
    Result<Operand> left = ParseOperand();
    if (!left) return tl::unexpected(std::move(left.error()));
    const std::optional<CompareOp> op = AsCompareOp(Peek().kind);
    if (!op) {
      if (left->is_property() && IsUnsupportedOData(Peek())) return NotImplemented(*left);
      return Unexpected("a comparison operator (eq ne gt ge lt le)");
    }
    Take();
    Result<Operand> right = ParseOperand();
    if (!right) return tl::unexpected(std::move(right.error()));
    // Azure: spec §6.1/§6.3 — one side of every comparison is a property, the other a constant.
    if (left->is_property() && right->is_property()) {
      return FilterError(right->offset(), "comparing two properties is not supported");
    }
    if (!left->is_property() && !right->is_property()) {
      return FilterError(left->offset(), "a comparison needs a property on one side");
    }
    if (left->is_property()) {
      return tree_.Compare(left->token->text, *op, MakeLiteral(*right), left->offset());
    }
    return tree_.Compare(right->token->text, Mirror(*op), MakeLiteral(*left), left->offset());
  }

  // Azure: spec §6.1 — OData v3 syntax the service does not implement (501 NotImplemented): a
  // function call `name(` or an arithmetic operator after a property.
  static bool IsUnsupportedOData(const Token& token) {
    if (token.kind == TokenKind::kOpenParen) return true;
    if (token.kind != TokenKind::kIdentifier) return false;
    for (std::string_view arithmetic : {"add", "sub", "mul", "div", "mod"}) {
      if (token.text == arithmetic) return true;
    }
    return false;
  }

  // Azure: spec §6.1 — functions and arithmetic are not supported; (rec.) 501 NotImplemented.
  tl::unexpected<Error> NotImplemented(const Operand& left) const {
    const Token& token = Peek();
    const std::string what = token.kind == TokenKind::kOpenParen
                                 ? "function '" + left.token->text + "'"
                                 : "operator '" + token.text + "'";
    return Fail(ErrorCode::kNotImplemented, "The " + what + " at position " +
                                                std::to_string(left.offset()) +
                                                " is not supported in a $filter.");
  }

  Result<Operand> ParseOperand() {
    const Token& token = Peek();
    if (token.kind == TokenKind::kIdentifier) return Operand{&Take(), EdmType::kString};
    if (token.kind == TokenKind::kNull) {
      // Azure: spec §6.1 — null is not allowed in a filter (400 InvalidInput).
      return FilterError(token.offset, "null is not supported in a filter");
    }
    const std::optional<EdmType> type = LiteralType(token.kind);
    if (!type) return Unexpected("a property name or a literal");
    return Operand{&Take(), *type};
  }

  std::vector<Token>& tokens_;
  ExprTree tree_;
  std::size_t pos_ = 0;
  std::size_t conditions_ = 0;
};

}  // namespace

Result<ExprTree> ParseTokens(std::vector<Token> tokens) {
  if (tokens.empty() || tokens.back().kind != TokenKind::kEnd) {
    return FilterError(0, "token list does not end with End");
  }
  return Parser(tokens).Run();
}

Result<ExprTree> ParseExpr(std::string_view text) {
  Result<std::vector<Token>> tokens = Lex(text);
  if (!tokens) return tl::unexpected(std::move(tokens.error()));
  return ParseTokens(std::move(*tokens));
}

}  // namespace malachite::odata
