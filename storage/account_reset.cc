#include "storage/account_reset.h"

#include <string>
#include <vector>

#include "storage/txn_write_context.h"

namespace malachite::storage {

Result<std::size_t> DeleteAccountTables(WriteContext& context, std::string_view account) {
  auto& ctx = static_cast<TxnWriteContext&>(context);
  // Names first: deleting while the catalog cursor walks the same database would move it.
  std::vector<std::string> names;
  auto scanned = ctx.core().catalog.Scan(ctx.txn(), account, "", [&](const TableInfo& table) {
    names.push_back(table.name);
    return true;
  });
  if (!scanned) return tl::unexpected<Error>(scanned.error());
  for (const std::string& name : names) {
    auto deleted = ctx.DeleteTable(account, name);
    if (!deleted) return tl::unexpected<Error>(deleted.error());
  }
  return names.size();
}

// One path for every way an account goes (DELETE /-/accounts/<name>, --transient-accounts at
// start and at shutdown) and for clearing a name before it is made again: a record kind added
// per account later is deleted here once, not in each caller.
Result<void> DeleteAccount(WriteContext& ctx, std::string_view account) {
  if (auto deleted = DeleteAccountTables(ctx, account); !deleted) {
    return tl::unexpected<Error>(deleted.error());
  }
  // Azure: deleting a storage account deletes its service properties too; DeleteRuntimeAccount
  // removes them with the record.
  return ctx.DeleteRuntimeAccount(account);
}

}  // namespace malachite::storage
