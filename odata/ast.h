// Stage 2 artefact of $filter: the expression tree (spec §6.1).
//
// Every comparison is normalised to `property op literal`: the parser flips `5 lt Qty` into
// `Qty gt 5`, so later stages (checker, evaluator, the key-range planner) look at one shape. A
// boolean literal standing where a condition may (`false`, `true and RowKey eq '1'`) is a
// constant node.
// A tree is built by the parser, completed by the checker (which decodes every literal's value)
// and then never changes. Its nodes live in one ExprTree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/edm.h"

namespace malachite::odata {

enum class CompareOp : std::uint8_t { kEq, kNe, kGt, kGe, kLt, kLe };

// "eq", "ne", ... Never fails.
std::string_view CompareOpName(CompareOp op);
// The operator that keeps the meaning when the operands swap sides: `a lt b` == `b gt a`.
CompareOp Mirror(CompareOp op);

// The constant side of a comparison.
struct Literal {
  EdmType type = EdmType::kString;  // the type the literal's spelling gives it (spec §6.1)
  std::string text;                 // as lexed: string value, digits, or the body of x'…';
                                    // a String's text moves into `value` when decoded
  std::size_t offset = 0;           // byte offset of the literal in the filter text
  bool decoded = false;             // set by the checker together with `value`
  EdmValue value;                   // the decoded value; valid only when `decoded`
};

class Expr {
 public:
  enum class Kind : std::uint8_t { kCompare, kAnd, kOr, kNot, kConstant };

  Kind kind = Kind::kCompare;
  std::size_t offset = 0;  // byte offset of the node's first token (the operator for and/or)

  // kCompare: `property op literal`.
  std::string property;
  CompareOp op = CompareOp::kEq;
  Literal literal;

  // kConstant: the condition's value for every row.
  bool constant = false;

  // kAnd, kOr: both; kNot: `left` is the operand and `right` is null. Nodes of the same
  // ExprTree.
  Expr* left = nullptr;
  Expr* right = nullptr;

  // True for a comparison on `name` (e.g. "PartitionKey"), the test a planner starts from.
  bool IsComparisonOn(std::string_view name) const {
    return kind == Kind::kCompare && property == name;
  }

  // Canonical S-expression, e.g. `(and (eq PartitionKey 'a') (gt Qty 5:Int32))`; a constant
  // prints as `true` or `false`. Literals:
  // 'str' (quotes doubled), 5:Int32, 5:Int64, 1.5:Double, true, datetime'…', guid'…', X'…'.
  // After the checker, literals print from their decoded value (datetime in the service's
  // output form, guid lower case, hex upper case, doubles shortest round-trip).
  std::string Dump() const;
};

// The nodes of one tree and its root. The first `capacity` nodes live in one block reserved up
// front (a parser that knows how many nodes it will make allocates once for the whole tree);
// more are allocated one by one. Move-only; a move keeps every node in place.
class ExprTree {
 public:
  // A tree with room for `capacity` nodes in its block and no root yet.
  explicit ExprTree(std::size_t capacity) { nodes_.reserve(capacity); }
  ExprTree(ExprTree&&) noexcept = default;
  ExprTree& operator=(ExprTree&&) noexcept = default;
  ExprTree(const ExprTree&) = delete;  // the copy's nodes would point into this tree
  ExprTree& operator=(const ExprTree&) = delete;

  // New nodes, owned by the tree. REQUIRES: operands are nodes of this tree.
  Expr* Compare(std::string_view property, CompareOp op, Literal&& literal, std::size_t offset);
  Expr* Binary(Expr::Kind kind, Expr* left, Expr* right, std::size_t offset);
  Expr* Not(Expr* operand, std::size_t offset);
  Expr* Constant(bool value, std::size_t offset);

  // REQUIRES: `root` is a node of this tree.
  void set_root(Expr* root) { root_ = root; }
  // REQUIRES: a root was set.
  Expr& root() { return *root_; }
  const Expr& root() const { return *root_; }
  Expr* operator->() { return root_; }
  const Expr* operator->() const { return root_; }

 private:
  Expr* Make();

  std::vector<Expr> nodes_;                      // never grows past its reserved capacity
  std::vector<std::unique_ptr<Expr>> overflow_;  // nodes beyond it
  Expr* root_ = nullptr;
};

// The literal alone, in the form Expr::Dump uses.
std::string DumpLiteral(const Literal& literal);

}  // namespace malachite::odata
