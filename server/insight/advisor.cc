#include "server/insight/advisor.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "server/wire/json_writer.h"

namespace malachite::server {
namespace {

std::string_view SeverityName(Severity severity) {
  return severity == Severity::kWarning ? "warning" : "info";
}

void AppendFindingJson(std::string& out, const Finding& f) {
  out += "{";
  JsonMembers m(out);
  m.String("id", f.id);
  m.String("severity", SeverityName(f.severity));
  m.String("category", CategoryName(f.category));
  m.String("pattern", f.pattern);
  m.String("account", f.account);
  m.String("table", f.table);
  m.String("title", f.title);
  m.String("evidence", f.evidence);
  m.Key("facts");
  out += "{";
  JsonMembers facts(out);
  for (const Fact& fact : f.facts) {
    facts.Key(fact.name);
    out += fact.json;
  }
  out += "}";
  m.String("recommendation", f.recommendation);
  m.String("guide", f.guide);
  out += "}";
}

void AppendSummaryJson(std::string& out, const AdvisorInput& input) {
  std::array<std::uint64_t, kServiceClassCount> queries{};
  for (const TableUsage& usage : input.tables) {
    for (std::size_t i = 0; i < kServiceClassCount; ++i) queries[i] += usage.queries[i];
  }
  out += fmt::format("{{\"tables\":{},\"queries\":{{", input.tables.size());
  JsonMembers m(out);
  for (std::size_t i = 0; i < kServiceClassCount; ++i) {
    m.Key(odata::ServiceClassName(static_cast<odata::ServiceClass>(i)));
    AppendJsonInt(out, static_cast<std::int64_t>(queries[i]));
  }
  out += "}}";
}

}  // namespace

std::string_view CategoryName(Category category) {
  return category == Category::kDiffersFromAzurite ? "differs-from-azurite" : "design";
}

std::string guide::Pattern(std::string_view anchor) {
  return std::string(kPatterns) + "#" + std::string(anchor);
}

Fact IntFact(std::string name, std::uint64_t value) {
  return Fact{std::move(name), std::to_string(value)};
}

Fact RatioFact(std::string name, double value) {
  return Fact{std::move(name), fmt::format("{:.3f}", value)};
}

Fact TextFact(std::string name, std::string_view value) {
  std::string json;
  AppendJsonString(json, value);
  return Fact{std::move(name), std::move(json)};
}

std::vector<Finding> Advise(const AdvisorInput& input) {
  std::vector<Finding> findings;
  DetectPartitionPatterns(input, findings);
  DetectQueryPatterns(input, findings);
  DetectWritePatterns(input, findings);
  DetectFilterTypes(input, findings);
  DetectRefusals(input, findings);
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    return std::tie(a.severity, a.account, a.table, a.id) <
           std::tie(b.severity, b.account, b.table, b.id);
  });
  return findings;
}

std::string FindingsJson(const std::vector<Finding>& findings, const AdvisorInput& input) {
  std::string out = "{\"findings\":[";
  for (std::size_t i = 0; i < findings.size(); ++i) {
    if (i > 0) out += ",\n";
    AppendFindingJson(out, findings[i]);
  }
  out += "],\"summary\":";
  AppendSummaryJson(out, input);
  return out + "}\n";
}

}  // namespace malachite::server
