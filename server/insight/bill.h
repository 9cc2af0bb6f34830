// The bill: billable transactions and capacity as the service counts them, and an estimated
// monthly cost from a price table the user can change (GET/PUT /-/bill/prices).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "server/insight/capacity.h"
#include "server/insight/request_facts.h"
#include "server/insight/table_usage.h"

namespace malachite::server {

// Azure: the Billable column of Storage Analytics' "logged operations and status messages" and
// the design guide's cost considerations — whether the service bills `facts` as one transaction.
// Every REST request is one (a $batch is one, each query page is one); requests it refuses for its
// own reasons are not: 503 (throttling, ServerBusy) and every other 5xx (server timeouts and
// errors), and requests that never authenticated (no or bad credentials: anonymous failures).
// Client errors of an authenticated request (400, 403 authorization, 404, 409, 412) are billed.
bool IsBillable(const RequestFacts& facts);

// Prices in one currency. The defaults are written down with their source and date; prices
// change, so the user sets their own (region, redundancy, negotiated rates).
struct PriceTable {
  std::string currency;
  double per_gib_month = 0;         // capacity, per GiB (2^30 bytes) per month
  double per_10k_transactions = 0;  // per 10,000 billable transactions
  std::string source;
  std::string as_of;
};

PriceTable DefaultPrices();
// `base` with the members of the JSON object `json` replaced ("currency", "per_gib_month",
// "per_10k_transactions", "source", "as_of"). Errors: kInvalidInput naming the problem (not an
// object, unknown member, wrong type, negative price).
Result<PriceTable> ParsePrices(std::string_view json, const PriceTable& base);
std::string PricesJson(const PriceTable& prices);

// Everything one rendering of the bill needs.
struct BillInput {
  std::vector<std::string> accounts;     // the configured accounts, in order
  std::vector<TableUsage> usage;         // UsageTable::Snapshot()
  std::vector<CapacityReport> capacity;  // one per account, when measured
  PriceTable prices;
  double window_seconds = 0;  // since startup or the last reset
};

// The bill as JSON: per account its transactions (by table and operation), capacity, and the
// monthly estimate: transactions at the window's rate over 730 hours, capacity as measured.
std::string BillJson(const BillInput& bill);

// The same as Prometheus series (appended to /-/metrics): malachite_billable_transactions_total
// {account,table,operation}, malachite_capacity_bytes{account,table}, malachite_capacity_entities
// {account,table}, malachite_estimated_monthly_cost{account,currency}.
void AppendBillMetrics(const BillInput& bill, std::string& out);

}  // namespace malachite::server
