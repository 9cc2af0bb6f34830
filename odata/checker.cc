#include "odata/checker.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "common/datetime.h"
#include "common/encoding.h"
#include "odata/filter_error.h"

namespace malachite::odata {
namespace {

// Azure: spec §6.1 — ODataLib's wording for a literal it cannot read as its type.
tl::unexpected<Error> Unrecognized(std::string_view type_name, std::string_view spelling,
                                   std::size_t offset, std::string_view text) {
  std::string message = "Unrecognized '";
  message += type_name;
  message += "' literal '";
  message += spelling;
  message += "' at '" + std::to_string(offset) + "' in '";
  message += text;
  message += "'.";
  return Fail(ErrorCode::kInvalidInput, std::move(message));
}

std::optional<std::int64_t> ParseInteger(std::string_view digits) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

// The lexer guarantees the shape `[-]d+[.d+][E[±]d+]`. Underflow reads as (signed) zero, as
// .NET's double parsing does. Azure: spec §5.2 — overflow (1.797693134862316e308) is an error.
std::optional<double> ParseDouble(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (end != text.data() + text.size()) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {
    const std::size_t e = text.find_first_of("eE");
    if (e == std::string_view::npos || e + 1 >= text.size() || text[e + 1] != '-') {
      return std::nullopt;
    }
    return text.front() == '-' ? -0.0 : 0.0;
  }
  if (ec != std::errc() || !std::isfinite(value)) return std::nullopt;
  return value;
}

// Fills `literal.value` from `literal.text`.
Result<void> Decode(Literal& literal, std::string_view text) {
  const std::string& s = literal.text;
  EdmValue& value = literal.value;  // set in place, and only once the text is known good
  switch (literal.type) {
    case EdmType::kString:
      // The text is the value: moved, not copied (a key is often longer than a string keeps
      // inline).
      value = EdmValue::String(std::move(literal.text));
      literal.text.clear();
      break;
    case EdmType::kBoolean:
      value = EdmValue::Boolean(s == "true");
      break;
    case EdmType::kInt32: {
      const std::optional<std::int64_t> v = ParseInteger(s);
      if (!v || *v < std::numeric_limits<std::int32_t>::min() ||
          *v > std::numeric_limits<std::int32_t>::max()) {
        return Unrecognized("Edm.Int32", s, literal.offset, text);
      }
      value = EdmValue::Int32(static_cast<std::int32_t>(*v));
      break;
    }
    case EdmType::kInt64: {
      const std::optional<std::int64_t> v = ParseInteger(s);
      if (!v) return Unrecognized("Edm.Int64", s + "L", literal.offset, text);
      value = EdmValue::Int64(*v);
      break;
    }
    case EdmType::kDouble: {
      const std::optional<double> v = ParseDouble(s);
      if (!v) return Unrecognized("Edm.Double", s, literal.offset, text);
      value = EdmValue::Double(*v);
      break;
    }
    case EdmType::kDateTime: {
      const std::optional<DateTime> v = ParseIso8601(s);
      if (!v) return Unrecognized("Edm.DateTime", "datetime'" + s + "'", literal.offset, text);
      value = EdmValue::Time(*v);
      break;
    }
    case EdmType::kGuid: {
      const auto v = ParseGuid(s);
      if (!v) return Unrecognized("Edm.Guid", "guid'" + s + "'", literal.offset, text);
      value = EdmValue::Guid(*v);
      break;
    }
    case EdmType::kBinary: {
      std::optional<std::string> v = HexDecode(s);
      if (!v) return Unrecognized("Edm.Binary", "X'" + s + "'", literal.offset, text);
      value = EdmValue::Binary(std::move(*v));
      break;
    }
  }
  literal.decoded = true;
  return {};
}

// Walks the tree in source order; recursion depth is bounded by the parser's limits.
Result<void> CheckNode(Expr& expr, std::string_view text, std::size_t& comparisons) {
  if (expr.kind == Expr::Kind::kCompare) {
    if (++comparisons > kMaxComparisons) {
      return FilterError(expr.offset, "more than " + std::to_string(kMaxComparisons) +
                                          " comparisons in one filter");
    }
    return Decode(expr.literal, text);
  }
  // A constant is no comparison: the service's limit counts comparisons (the parser bounds
  // the number of constants).
  if (expr.kind == Expr::Kind::kConstant) return {};
  Result<void> left = CheckNode(*expr.left, text, comparisons);
  if (!left || !expr.right) return left;
  return CheckNode(*expr.right, text, comparisons);
}

}  // namespace

Result<ExprTree> Check(ExprTree tree, std::string_view text) {
  std::size_t comparisons = 0;
  Result<void> checked = CheckNode(tree.root(), text, comparisons);
  if (!checked) return tl::unexpected(std::move(checked.error()));
  return tree;
}

}  // namespace malachite::odata
