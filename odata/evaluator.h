// Stage 4 of $filter: a checked tree evaluated against one row (spec §6.2).
#pragma once

#include <string_view>

#include "common/edm.h"
#include "odata/ast.h"
#include "odata/filter.h"

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
bool CompareValues(const ValueView& property, CompareOp op, const EdmValue& literal);

// Ordinal order of two UTF-8 strings as the UTF-16 strings they encode: <0, 0 or >0. Equals
// byte order except that U+E000..U+FFFF sort after supplementary characters (whose UTF-16
// form starts with a surrogate D800..DBFF).
int CompareUtf16Order(std::string_view a, std::string_view b);

}  // namespace malachite::odata
