// Stage 3 of $filter: the parsed tree -> a checked tree whose literals are decoded (spec §6.1,
// §6.3). After Check, every Literal has `decoded == true` and a `value` of its own `type`.
#pragma once

#include <cstddef>
#include <string_view>

#include "common/error.h"
#include "odata/ast.h"

namespace malachite::odata {

// Azure: spec §6.3 — at most 15 discrete comparisons per $filter. Boolean constants (`true`,
// `false` standing alone) are not comparisons and do not count.
inline constexpr std::size_t kMaxComparisons = 15;

// Decodes every literal and enforces the service's limits. `text` is the filter the tree was
// parsed from (quoted in messages). Errors, all kInvalidInput with the byte offset of the
// offending literal or comparison:
//   - more than kMaxComparisons comparisons;
//   - an integer without `L` outside Int32 (message in the ODataLib style of spec §6.1:
//     "Unrecognized 'Edm.Int32' literal '1498179600055' at '21' in '…'"), an Int64 outside
//     Int64, a Double that overflows;
//   - a malformed datetime'…' (ISO-8601, spec §5.2), guid'…' or X'…' (odd count or non-hex).
Result<ExprTree> Check(ExprTree tree, std::string_view text);

}  // namespace malachite::odata
