#include "odata/filter.h"

#include <utility>

#include "odata/ast.h"
#include "odata/checker.h"
#include "odata/evaluator.h"
#include "odata/parser.h"

namespace malachite::odata {

Result<Filter> Filter::Parse(std::string_view text) {
  Result<std::unique_ptr<Expr>> parsed = ParseExpr(text);
  if (!parsed) return tl::unexpected(std::move(parsed.error()));
  Result<std::unique_ptr<Expr>> checked = Check(std::move(*parsed), text);
  if (!checked) return tl::unexpected(std::move(checked.error()));
  return Filter(std::move(*checked));
}

// Out of line: Expr is complete only here.
Filter::Filter(std::unique_ptr<const Expr> root) : root_(std::move(root)) {}
Filter::Filter(Filter&&) noexcept = default;
Filter& Filter::operator=(Filter&&) noexcept = default;
Filter::~Filter() = default;

bool Filter::Matches(const PropertySource& row) const { return Evaluate(*root_, row); }

std::string Filter::Dump() const { return root_->Dump(); }

}  // namespace malachite::odata
