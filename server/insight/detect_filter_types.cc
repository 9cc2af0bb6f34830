// Detector over $filter comparisons whose literal has another EDM type than the property the
// entities hold (table_usage.h TypeMismatchStats): the service never converts between types, so
// `Amount gt 50` on a Double Amount matches nothing there, while Azurite, which ignores the EDM
// types, returns the rows. One finding per (table, property, stored type, literal type).
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include "common/datetime.h"
#include "common/encoding.h"
#include "odata/evaluator.h"
#include "odata/filter.h"
#include "server/insight/advisor.h"
#include "server/insight/query_shape.h"

namespace malachite::server {
namespace {

// A number as an Edm.Double literal: always with a '.' or an exponent (50 -> 50.0).
std::string DoubleLiteral(double value) {
  std::string text = fmt::format("{}", value);
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

std::optional<double> ParseNumber(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

// The integer a literal stands for, when it is one (an Int32, an Int64, an integral Double or a
// string of digits).
std::optional<std::int64_t> IntegerOf(const EdmValue& v) {
  switch (v.type) {
    case EdmType::kInt32:
    case EdmType::kInt64:
      return v.integer;
    case EdmType::kDouble:
      if (std::trunc(v.number) == v.number && std::abs(v.number) < 9.0e18) {
        return static_cast<std::int64_t>(v.number);
      }
      return std::nullopt;
    case EdmType::kString: {
      std::int64_t value = 0;
      const auto [end, ec] =
          std::from_chars(v.bytes.data(), v.bytes.data() + v.bytes.size(), value);
      if (ec != std::errc() || end != v.bytes.data() + v.bytes.size()) return std::nullopt;
      return value;
    }
    default:
      return std::nullopt;
  }
}

std::string Quoted(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

// The literal of type `stored` that says what `literal` (spelled `text` in the filter) meant,
// or nullopt when there is no such reading (a word compared with a Double).
std::optional<std::string> CorrectedLiteral(const EdmValue& literal, std::string_view text,
                                            EdmType stored) {
  const std::optional<std::int64_t> integer = IntegerOf(literal);
  switch (stored) {
    case EdmType::kDouble:
      if (literal.type == EdmType::kString) {
        if (auto number = ParseNumber(literal.bytes)) return DoubleLiteral(*number);
        return std::nullopt;
      }
      if (integer) return DoubleLiteral(static_cast<double>(*integer));
      return std::nullopt;
    case EdmType::kInt64:
      if (integer) return fmt::format("{}L", *integer);
      return std::nullopt;
    case EdmType::kInt32:
      if (integer && *integer >= INT32_MIN && *integer <= INT32_MAX)
        return fmt::format("{}", *integer);
      return std::nullopt;
    case EdmType::kString:
      if (literal.type == EdmType::kDateTime) return Quoted(FormatIso8601(literal.AsDateTime()));
      if (literal.type == EdmType::kGuid) return Quoted(FormatGuid(literal.bytes));
      if (literal.type == EdmType::kBinary) return std::nullopt;
      if (literal.type == EdmType::kDouble) return Quoted(fmt::format("{}", literal.number));
      return Quoted(text);
    case EdmType::kDateTime:
      if (literal.type == EdmType::kString && ParseIso8601(literal.bytes)) {
        return "datetime" + Quoted(literal.bytes);
      }
      return std::nullopt;
    case EdmType::kGuid:
      if (literal.type == EdmType::kString && ParseGuid(literal.bytes)) {
        return "guid" + Quoted(literal.bytes);
      }
      return std::nullopt;
    case EdmType::kBoolean:
      if (literal.type == EdmType::kString &&
          (literal.bytes == "true" || literal.bytes == "false")) {
        return literal.bytes;
      }
      if (integer && (*integer == 0 || *integer == 1)) return *integer == 1 ? "true" : "false";
      return std::nullopt;
    case EdmType::kBinary:
      // Azure: spec §5.2 — the SDKs send Binary as base64; a string literal of base64 meant
      // those bytes.
      if (literal.type == EdmType::kString) {
        if (auto raw = Base64Decode(literal.bytes); raw && !raw->empty()) {
          std::string hex = "X'";
          AppendHex(hex, *raw, HexCase::kUpper);
          return hex + "'";
        }
      }
      return std::nullopt;
  }
  return std::nullopt;
}

// A literal of each type, for when the value has no reading in the property's type.
std::string_view LiteralForm(EdmType type) {
  switch (type) {
    case EdmType::kString:
      return "'text'";
    case EdmType::kInt32:
      return "50";
    case EdmType::kInt64:
      return "50L";
    case EdmType::kDouble:
      return "50.0";
    case EdmType::kBoolean:
      return "true";
    case EdmType::kDateTime:
      return "datetime'2024-01-31T00:00:00Z'";
    case EdmType::kGuid:
      return "guid'00000000-0000-0000-0000-000000000000'";
    case EdmType::kBinary:
      return "X'0A1B'";
  }
  return "";
}

const odata::Expr* FindComparison(const odata::Expr& expr, std::size_t literal_offset) {
  if (expr.kind == odata::Expr::Kind::kCompare) {
    return expr.literal.offset == literal_offset ? &expr : nullptr;
  }
  if (expr.left == nullptr) return nullptr;
  if (const odata::Expr* found = FindComparison(*expr.left, literal_offset)) return found;
  return expr.right == nullptr ? nullptr : FindComparison(*expr.right, literal_offset);
}

// One mismatch as the finding needs it, read back from the $filter it was seen in.
struct Mismatch {
  const TypeMismatchStats* stats;
  std::string property;
  odata::CompareOp op;
  std::string literal_text;              // as written in the filter
  std::optional<std::string> corrected;  // the literal in the stored type
  std::string corrected_filter;          // the filter with it in place
};

std::optional<Mismatch> ReadBack(const TypeMismatchStats& s) {
  auto filter = odata::Filter::Parse(s.filter);
  if (!filter) return std::nullopt;
  const odata::Expr* cmp = FindComparison(filter->root(), s.mismatch.literal_offset);
  if (cmp == nullptr) return std::nullopt;
  const std::size_t start = s.mismatch.literal_offset;
  const std::size_t end = LiteralEnd(s.filter, start);
  Mismatch m{&s, cmp->property, cmp->op, s.filter.substr(start, end - start), std::nullopt, {}};
  m.corrected = CorrectedLiteral(cmp->literal.value, m.literal_text, s.mismatch.stored);
  if (m.corrected) {
    m.corrected_filter = s.filter.substr(0, start) + *m.corrected + s.filter.substr(end);
  }
  return m;
}

Finding MismatchFinding(const TableUsage& usage, const Mismatch& first, std::uint64_t queries) {
  const odata::TypeMismatch& t = first.stats->mismatch;
  const std::string_view stored = EdmTypeName(t.stored);
  const std::string_view literal = EdmTypeName(t.literal);
  // Azure: spec §6.2 — across types the operator alone decides: eq never, ne always, and the
  // ordering operators by the service's type order.
  const bool all = odata::CompareAcrossTypes(t.stored, first.op, t.literal);
  const std::string comparison =
      fmt::format("{} {} {}", first.property, odata::CompareOpName(first.op), first.literal_text);
  Finding f;
  f.id = "filter-type-mismatch";
  f.severity = Severity::kWarning;
  f.category = Category::kDiffersFromAzurite;
  f.pattern = "EDM-typed comparisons in $filter";
  f.account = usage.account;
  f.table = usage.table;
  f.title =
      fmt::format("$filter compares {} ({}) with an {} literal: Azure {}", first.property, stored,
                  literal, all ? "returns every entity that has it" : "matches no entity");
  f.evidence = fmt::format(
      "{} {} compared {}, which the entities hold as {}, with the {} literal {} (e.g. "
      "$filter={}). Azure never converts between EDM types, so `{}` {} whatever the values; "
      "Azurite ignores the types and compares the values, so the same query returned the "
      "entities you expected there.",
      queries, queries == 1 ? "query" : "queries", first.property, stored, literal,
      first.literal_text, first.stats->filter, comparison,
      all ? "is true for every entity that has the property" : "is false for every entity");
  f.facts = {TextFact("filter", first.stats->filter), TextFact("property", first.property),
             TextFact("stored_type", stored),         TextFact("literal", first.literal_text),
             TextFact("literal_type", literal),       IntFact("queries", queries)};
  if (first.corrected) {
    f.facts.push_back(TextFact("corrected_literal", *first.corrected));
    f.facts.push_back(TextFact("corrected_filter", first.corrected_filter));
    f.recommendation =
        fmt::format("Write the literal in the property's type: $filter={} ({} is an {} literal).",
                    first.corrected_filter, *first.corrected, stored);
  } else {
    f.recommendation = fmt::format("Compare {} with an {} literal, such as {}.", first.property,
                                   stored, LiteralForm(t.stored));
  }
  f.recommendation +=
      " Literal types: 50 is Edm.Int32, 50L Edm.Int64, 50.0 Edm.Double, '50' Edm.String, "
      "datetime'2024-01-31T00:00:00Z', guid'...', X'0A1B' (binary), true/false. Check the type "
      "your SDK writes a number with (the JavaScript SDK writes 5.0 as Int32 unless typed "
      "Double), and keep one type per property.";
  f.guide = std::string(guide::kQueryingEntities);
  return f;
}

}  // namespace

void DetectFilterTypes(const AdvisorInput& input, std::vector<Finding>& out) {
  for (const TableUsage& usage : input.tables) {
    std::vector<Mismatch> seen;
    for (const TypeMismatchStats& s : usage.mismatches) {
      if (auto m = ReadBack(s)) seen.push_back(std::move(*m));
    }
    // One finding per property and pair of types, from its first $filter, counting them all.
    for (std::size_t i = 0; i < seen.size(); ++i) {
      const auto same = [&](const Mismatch& m) {
        return m.property == seen[i].property &&
               m.stats->mismatch.stored == seen[i].stats->mismatch.stored &&
               m.stats->mismatch.literal == seen[i].stats->mismatch.literal;
      };
      if (std::any_of(seen.begin(), seen.begin() + static_cast<std::ptrdiff_t>(i), same)) continue;
      std::uint64_t queries = 0;
      for (const Mismatch& m : seen) queries += same(m) ? m.stats->count : 0;
      out.push_back(MismatchFinding(usage, seen[i], queries));
    }
  }
}

}  // namespace malachite::server
