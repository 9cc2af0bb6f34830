// Stage 4 of $filter: a checked tree evaluated against one row (spec §6.2).
#pragma once

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

}  // namespace malachite::odata
