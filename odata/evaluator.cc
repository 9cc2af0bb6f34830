#include "odata/evaluator.h"

#include <cmath>
#include <cstddef>
#include <cstring>
#include <optional>

#include "common/encoding.h"

namespace malachite::odata {
namespace {

// Applies `op` to a three-way result.
inline bool FromOrder(int order, CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return order == 0;
    case CompareOp::kNe:
      return order != 0;
    case CompareOp::kGt:
      return order > 0;
    case CompareOp::kGe:
      return order >= 0;
    case CompareOp::kLt:
      return order < 0;
    case CompareOp::kLe:
      return order <= 0;
  }
  return false;
}

template <typename T>
int Order(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int CompareBytes(std::string_view a, std::string_view b) {
  // std::char_traits<char> compares as unsigned char, i.e. byte order.
  const int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

// IEEE semantics: a NaN on either side is unordered, so only `ne` holds.
bool CompareDoubles(double a, CompareOp op, double b) {
  switch (op) {
    case CompareOp::kEq:
      return a == b;
    case CompareOp::kNe:
      return a != b;
    case CompareOp::kGt:
      return a > b;
    case CompareOp::kGe:
      return a >= b;
    case CompareOp::kLt:
      return a < b;
    case CompareOp::kLe:
      return a <= b;
  }
  return false;
}

// CompareValues, inlined into Evaluate: a scan evaluates a comparison per entity.
[[gnu::always_inline]] inline bool Compare(const PropertyView& property, CompareOp op,
                                           const EdmValue& literal) {
  if (property.type != literal.type) return CompareAcrossTypes(property.type, op, literal.type);
  switch (literal.type) {
    case EdmType::kString:
      return FromOrder(CompareUtf16Order(property.bytes, literal.bytes), op);
    case EdmType::kInt32:
    case EdmType::kInt64:
    case EdmType::kBoolean:
    case EdmType::kDateTime:
      return FromOrder(Order(property.integer, literal.integer), op);
    case EdmType::kDouble:
      return CompareDoubles(property.number, op, literal.number);
    case EdmType::kGuid:
    case EdmType::kBinary:
      return FromOrder(CompareBytes(property.bytes, literal.bytes), op);
  }
  return false;
}

// The type every entity holds for a system property; nullopt for custom properties.
std::optional<EdmType> SystemPropertyType(std::string_view name) {
  if (name == "PartitionKey" || name == "RowKey") return EdmType::kString;
  if (name == "Timestamp") return EdmType::kDateTime;
  return std::nullopt;
}

}  // namespace

// Azure: spec §6.2 — values of different types never convert. `eq` is false and `ne` true;
// ordering: the service returned Double/DateTime values for `X lt ''` and not for `X gt ''`, so
// (rec., unverified) String ranks above every other type and other pairs are unordered (false).
bool CompareAcrossTypes(EdmType property, CompareOp op, EdmType literal) {
  if (op == CompareOp::kEq) return false;
  if (op == CompareOp::kNe) return true;
  if (property == EdmType::kString) return op == CompareOp::kGt || op == CompareOp::kGe;
  if (literal == EdmType::kString) return op == CompareOp::kLt || op == CompareOp::kLe;
  return false;
}

std::optional<TypeMismatch> FindTypeMismatch(const Expr& expr, const PropertySource* row) {
  switch (expr.kind) {
    case Expr::Kind::kCompare: {
      std::optional<EdmType> stored = SystemPropertyType(expr.property);
      if (!stored && row != nullptr) {
        if (const std::optional<PropertyView> value = row->Get(expr.property)) stored = value->type;
      }
      const EdmType literal = expr.literal.value.type;
      if (!stored || *stored == literal) return std::nullopt;
      return TypeMismatch{static_cast<std::uint32_t>(expr.literal.offset), *stored, literal};
    }
    case Expr::Kind::kConstant:
      return std::nullopt;
    case Expr::Kind::kAnd:
    case Expr::Kind::kOr:
      if (auto found = FindTypeMismatch(*expr.left, row)) return found;
      return FindTypeMismatch(*expr.right, row);
    case Expr::Kind::kNot:
      return FindTypeMismatch(*expr.left, row);
  }
  return std::nullopt;
}

bool CompareValues(const PropertyView& property, CompareOp op, const EdmValue& literal) {
  return Compare(property, op, literal);
}

bool Evaluate(const Expr& expr, const PropertySource& row) {
  switch (expr.kind) {
    case Expr::Kind::kCompare: {
      // Azure: spec §6.2 — a comparison with a missing property is false for every operator,
      // `ne` included.
      const std::optional<PropertyView> value = row.Get(expr.property);
      return value && Compare(*value, expr.op, expr.literal.value);
    }
    case Expr::Kind::kConstant:
      return expr.constant;
    case Expr::Kind::kAnd:
      return Evaluate(*expr.left, row) && Evaluate(*expr.right, row);
    case Expr::Kind::kOr:
      return Evaluate(*expr.left, row) || Evaluate(*expr.right, row);
    // Azure: spec §6.2 — plain negation, so `not (Foo eq 'a')` holds for rows without Foo.
    case Expr::Kind::kNot:
      return !Evaluate(*expr.left, row);
  }
  return false;
}

}  // namespace malachite::odata
