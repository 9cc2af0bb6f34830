// Stage 4 of $filter: a checked tree evaluated against one row (spec §6.2).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "common/edm.h"
#include "common/property_source.h"
#include "odata/ast.h"

namespace malachite::odata {

// True when `row` satisfies `expr`. REQUIRES: `expr` went through Check (literals decoded).
// Allocates nothing; calls row.Get once per comparison reached (and/or short-circuit).
bool Evaluate(const Expr& expr, const PropertySource& row);

// One comparison `property op literal` with the typed rules of spec §6.2:
//   - same type: String by UTF-16 code unit order (the service is .NET: ordinal comparison of
//     UTF-16 strings), integers/DateTime ticks/Boolean numerically, Double by IEEE rules (NaN
//     matches only `ne`), Guid and Binary by unsigned byte order (rec.);
//   - different types (no promotion between Int32, Int64, Double): `eq` false, `ne` true;
//     ordering ranks String above every other type (rec., unverified), any other pair is false.
// A missing property is the caller's business (it is false for every operator).
bool CompareValues(const PropertyView& property, CompareOp op, const EdmValue& literal);

// What CompareValues answers for values of two different types, whatever the values.
bool CompareAcrossTypes(EdmType property, CompareOp op, EdmType literal);

// A comparison whose literal has another EDM type than the value a row holds for its property,
// so that (spec §6.2, no promotion) its outcome depends on the operator alone, not the values:
// `Amount gt 50` on a Double Amount matches nothing. For the design advisor.
struct TypeMismatch {
  std::uint32_t literal_offset = 0;    // Literal::offset: where the literal starts in the $filter
  EdmType stored = EdmType::kString;   // the type the row holds
  EdmType literal = EdmType::kString;  // the literal's type
};

// The first comparison of `expr` (left to right) whose property `row` holds with another type
// than the literal's, or nullopt. With `row` null, only PartitionKey and RowKey (always
// String) and Timestamp (always DateTime) are looked at. REQUIRES: `expr` went through Check.
// Allocates nothing; calls row->Get once per comparison.
std::optional<TypeMismatch> FindTypeMismatch(const Expr& expr, const PropertySource* row);

}  // namespace malachite::odata
