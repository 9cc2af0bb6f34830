#include "odata/filter.h"

#include <utility>

#include "odata/ast.h"
#include "odata/checker.h"
#include "odata/evaluator.h"
#include "odata/parser.h"

namespace malachite::odata {

Result<Filter> Filter::Parse(std::string_view text) {
  Result<ExprTree> parsed = ParseExpr(text);
  if (!parsed) return tl::unexpected(std::move(parsed.error()));
  Result<ExprTree> checked = Check(std::move(*parsed), text);
  if (!checked) return tl::unexpected(std::move(checked.error()));
  return Filter(std::move(*checked));
}

bool Filter::Matches(const PropertySource& row) const { return Evaluate(root(), row); }

std::string Filter::Dump() const { return root().Dump(); }

}  // namespace malachite::odata
