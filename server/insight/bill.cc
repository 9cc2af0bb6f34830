#include "server/insight/bill.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <map>

#include "server/wire/json_writer.h"
#include "server/wire/prometheus.h"

namespace malachite::server {
namespace {

namespace dom = simdjson::dom;

// Azure bills a month as 730 hours.
constexpr double kSecondsPerMonth = 730.0 * 3600.0;
constexpr double kBytesPerGib = 1024.0 * 1024.0 * 1024.0;

bool NeverAuthenticated(ErrorCode code) {
  return code == ErrorCode::kAuthenticationFailed ||
         code == ErrorCode::kNoAuthenticationInformation ||
         code == ErrorCode::kInvalidAuthenticationInfo;
}

Error Invalid(std::string message) {
  return Error{ErrorCode::kInvalidInput, std::move(message), ""};
}

Result<void> ApplyPrice(PriceTable& prices, std::string_view key, dom::element value) {
  if (key == "per_gib_month" || key == "per_10k_transactions") {
    double number = 0;
    if (value.get_double().get(number) != simdjson::SUCCESS || !(number >= 0)) {
      return tl::unexpected(Invalid("\"" + std::string(key) + "\" must be a number >= 0"));
    }
    (key == "per_gib_month" ? prices.per_gib_month : prices.per_10k_transactions) = number;
    return {};
  }
  std::string* text = key == "currency" ? &prices.currency
                      : key == "source" ? &prices.source
                      : key == "as_of"  ? &prices.as_of
                                        : nullptr;
  if (text == nullptr)
    return tl::unexpected(Invalid("unknown member \"" + std::string(key) + "\""));
  std::string_view s;
  if (value.get_string().get(s) != simdjson::SUCCESS || s.size() > 512) {
    return tl::unexpected(Invalid("\"" + std::string(key) + "\" must be a string (<= 512 bytes)"));
  }
  *text = s;
  return {};
}

double MonthlyTransactions(std::uint64_t transactions, double window_seconds) {
  return window_seconds > 0 ? transactions * kSecondsPerMonth / window_seconds : 0;
}

std::uint64_t Sum(const std::array<std::uint64_t, kOperationCount>& counts) {
  std::uint64_t total = 0;
  for (std::uint64_t n : counts) total += n;
  return total;
}

const CapacityReport* CapacityOf(const BillInput& bill, std::string_view account) {
  for (const CapacityReport& report : bill.capacity) {
    if (report.account == account) return &report;
  }
  return nullptr;
}

void AppendNumber(std::string& out, double value) { out += fmt::format("{:.6g}", value); }

void AppendTableJson(std::string& out, const TableUsage& usage) {
  out += "{";
  JsonMembers m(out);
  m.String("table", usage.table);
  m.Key("transactions");
  AppendJsonInt(out, static_cast<std::int64_t>(Sum(usage.transactions)));
  m.Key("operations");
  out += "{";
  JsonMembers ops(out);
  for (std::size_t i = 0; i < kOperationCount; ++i) {
    if (usage.transactions[i] == 0) continue;
    ops.Key(OperationName(static_cast<Operation>(i)));
    AppendJsonInt(out, static_cast<std::int64_t>(usage.transactions[i]));
  }
  out += "}}";
}

struct MonthlyEstimate {
  double transactions = 0, transaction_cost = 0, capacity_gib = 0, capacity_cost = 0;
  double total() const { return transaction_cost + capacity_cost; }
};

MonthlyEstimate Estimate(const BillInput& bill, std::uint64_t transactions,
                         const CapacityReport* capacity) {
  MonthlyEstimate e;
  e.transactions = MonthlyTransactions(transactions, bill.window_seconds);
  e.transaction_cost = e.transactions / 10000.0 * bill.prices.per_10k_transactions;
  e.capacity_gib = capacity != nullptr ? capacity->bytes() / kBytesPerGib : 0;
  e.capacity_cost = e.capacity_gib * bill.prices.per_gib_month;
  return e;
}

std::uint64_t AccountTransactions(const BillInput& bill, std::string_view account) {
  std::uint64_t transactions = 0;
  for (const TableUsage& usage : bill.usage) {
    if (usage.account == account) transactions += Sum(usage.transactions);
  }
  return transactions;
}

void AppendEstimateJson(std::string& out, const MonthlyEstimate& e) {
  out += fmt::format(
      "{{\"transactions_per_month\":{:.0f},\"transactions_cost\":{:.6g},\"capacity_gib\":{:.6g},"
      "\"capacity_cost\":{:.6g},\"total\":{:.6g}}}",
      e.transactions, e.transaction_cost, e.capacity_gib, e.capacity_cost, e.total());
}

}  // namespace

bool IsBillable(const RequestFacts& facts) {
  if (!facts.op || facts.status >= 500) return false;
  return !(facts.error && NeverAuthenticated(*facts.error));
}

PriceTable DefaultPrices() {
  // The public list price of Azure Table storage, Standard general-purpose v2, locally redundant
  // (LRS), East US, pay-as-you-go: capacity per GB/month (first TB) and operations per 10,000.
  return PriceTable{"USD", 0.045, 0.00036,
                    "https://azure.microsoft.com/pricing/details/storage/tables/ (Standard, LRS, "
                    "East US, pay-as-you-go, first TB)",
                    "2026-07"};
}

Result<PriceTable> ParsePrices(std::string_view json, const PriceTable& base) {
  dom::parser parser;
  dom::element root;
  dom::object object;
  if (parser.parse(json.data(), json.size()).get(root) != simdjson::SUCCESS ||
      root.get_object().get(object) != simdjson::SUCCESS) {
    return tl::unexpected(Invalid("the prices must be one JSON object"));
  }
  PriceTable prices = base;
  for (auto [key, value] : object) {
    if (auto ok = ApplyPrice(prices, key, value); !ok) return tl::unexpected(ok.error());
  }
  return prices;
}

std::string PricesJson(const PriceTable& prices) {
  std::string out = "{";
  JsonMembers m(out);
  m.String("currency", prices.currency);
  m.Key("per_gib_month");
  AppendNumber(out, prices.per_gib_month);
  m.Key("per_10k_transactions");
  AppendNumber(out, prices.per_10k_transactions);
  m.String("source", prices.source);
  m.String("as_of", prices.as_of);
  return out + "}";
}

std::string BillJson(const BillInput& bill) {
  std::string out = "{\"prices\":" + PricesJson(bill.prices);
  out += fmt::format(",\"window_seconds\":{:.3f},\"accounts\":[", bill.window_seconds);
  for (std::size_t a = 0; a < bill.accounts.size(); ++a) {
    const std::string& account = bill.accounts[a];
    const CapacityReport* capacity = CapacityOf(bill, account);
    if (a > 0) out += ",";
    out += "{";
    JsonMembers m(out);
    m.String("account", account);
    std::uint64_t transactions = 0;
    m.Key("tables");
    out += "[";
    bool first = true;
    for (const TableUsage& usage : bill.usage) {
      if (usage.account != account || Sum(usage.transactions) == 0) continue;
      if (!first) out += ",";
      first = false;
      transactions += Sum(usage.transactions);
      AppendTableJson(out, usage);
    }
    out += "]";
    m.Key("transactions");
    AppendJsonInt(out, static_cast<std::int64_t>(transactions));
    if (capacity != nullptr) {
      m.Key("capacity");
      out += CapacityJson(*capacity);
    }
    m.Key("estimate");
    AppendEstimateJson(out, Estimate(bill, transactions, capacity));
    out += "}";
  }
  return out + "]}\n";
}

void AppendBillMetrics(const BillInput& bill, std::string& out) {
  out +=
      "# HELP malachite_billable_transactions_total Transactions the service would bill: every "
      "request but 5xx and unauthenticated failures ($batch and each query page count one).\n"
      "# TYPE malachite_billable_transactions_total counter\n";
  for (const TableUsage& usage : bill.usage) {
    for (std::size_t i = 0; i < kOperationCount; ++i) {
      if (usage.transactions[i] == 0) continue;
      out += fmt::format(
          "malachite_billable_transactions_total{{account=\"{}\",table=\"{}\",operation=\"{}\"}} "
          "{}\n",
          PrometheusLabel(usage.account), PrometheusLabel(usage.table),
          OperationName(static_cast<Operation>(i)), usage.transactions[i]);
    }
  }
  std::string entities =
      "# HELP malachite_capacity_entities Entities stored (last capacity measurement).\n"
      "# TYPE malachite_capacity_entities gauge\n";
  out +=
      "# HELP malachite_capacity_bytes Stored size by the service's entity-size formula (last "
      "capacity measurement).\n"
      "# TYPE malachite_capacity_bytes gauge\n";
  for (const CapacityReport& report : bill.capacity) {
    for (const TableCapacity& t : report.tables) {
      const std::string labels = fmt::format(
          "account=\"{}\",table=\"{}\"", PrometheusLabel(report.account), PrometheusLabel(t.table));
      out += fmt::format("malachite_capacity_bytes{{{}}} {}\n", labels, t.bytes);
      entities += fmt::format("malachite_capacity_entities{{{}}} {}\n", labels, t.entities);
    }
  }
  out += entities;
  out +=
      "# HELP malachite_estimated_monthly_cost Transactions at the observed rate over 730 hours "
      "plus capacity, at the price table of /-/bill/prices.\n"
      "# TYPE malachite_estimated_monthly_cost gauge\n";
  for (const std::string& account : bill.accounts) {
    const double cost =
        Estimate(bill, AccountTransactions(bill, account), CapacityOf(bill, account)).total();
    out +=
        fmt::format("malachite_estimated_monthly_cost{{account=\"{}\",currency=\"{}\"}} {:.6g}\n",
                    PrometheusLabel(account), PrometheusLabel(bill.prices.currency), cost);
  }
}

}  // namespace malachite::server
