#include "server/traffic/fault_injector.h"

#include <simdjson.h>

#include <algorithm>
#include <random>

#include "common/datetime.h"
#include "server/wire/json_writer.h"

namespace malachite::server {
namespace {

namespace dom = simdjson::dom;

Error Invalid(std::string message) {
  return Error{ErrorCode::kInvalidInput, "fault rule: " + std::move(message), {}};
}

std::optional<FaultKind> ParseKind(std::string_view name) {
  for (FaultKind kind : {FaultKind::kServerBusy, FaultKind::kOperationTimedOut, FaultKind::kDelay,
                         FaultKind::kDropConnection}) {
    if (name == FaultKindName(kind)) return kind;
  }
  return std::nullopt;
}

Result<std::uint64_t> Unsigned(std::string_view key, dom::element value, std::uint64_t max) {
  std::uint64_t number = 0;
  if (value.get_uint64().get(number) != simdjson::SUCCESS || number > max) {
    return tl::unexpected(
        Invalid("\"" + std::string(key) + "\" must be an integer in 0.." + std::to_string(max)));
  }
  return number;
}

Result<void> ApplyMember(FaultRule& rule, std::string_view key, dom::element value) {
  auto text = [&](std::string& field) -> Result<void> {
    std::string_view s;
    if (value.get_string().get(s) != simdjson::SUCCESS) {
      return tl::unexpected(Invalid("\"" + std::string(key) + "\" must be a string"));
    }
    field = std::string(s);
    return {};
  };
  auto number = [&](auto& field, std::uint64_t max) -> Result<void> {
    auto parsed = Unsigned(key, value, max);
    if (!parsed) return tl::unexpected(parsed.error());
    field = static_cast<std::remove_reference_t<decltype(field)>>(*parsed);
    return {};
  };
  if (key == "fault") {
    std::string name;
    if (auto ok = text(name); !ok) return ok;
    auto kind = ParseKind(name);
    if (!kind) {
      return tl::unexpected(Invalid("unknown fault '" + name +
                                    "' (ServerBusy, OperationTimedOut, Delay, DropConnection)"));
    }
    rule.fault = *kind;
    return {};
  }
  if (key == "probability") {
    double p = 0;
    if (value.get_double().get(p) != simdjson::SUCCESS || !(p >= 0.0 && p <= 1.0)) {
      return tl::unexpected(Invalid("\"probability\" must be a number in 0..1"));
    }
    rule.probability = p;
    return {};
  }
  if (key == "delay_ms") return number(rule.delay_ms, 600'000);
  if (key == "every") return number(rule.every, 1'000'000'000);
  if (key == "after_ms") return number(rule.after_ms, 86'400'000ull * 365);
  if (key == "for_ms") return number(rule.for_ms, 86'400'000ull * 365);
  if (key == "count") return number(rule.count, 1'000'000'000'000ull);
  if (key == "account") return text(rule.account);
  if (key == "table") return text(rule.table);
  if (key == "partition") return text(rule.partition);
  if (key == "operation") return text(rule.operation);
  // Listings carry these; accepting them lets a listed rule be posted back as it is.
  if (key == "id" || key == "matched" || key == "fired") return {};
  return tl::unexpected(Invalid("unknown member \"" + std::string(key) + "\""));
}

Result<FaultRule> ParseRule(dom::element element) {
  dom::object object;
  if (element.get_object().get(object) != simdjson::SUCCESS) {
    return tl::unexpected(Invalid("a rule must be a JSON object"));
  }
  FaultRule rule;
  bool has_fault = false, has_probability = false;
  for (auto [key, value] : object) {
    if (auto ok = ApplyMember(rule, key, value); !ok) return tl::unexpected(ok.error());
    has_fault = has_fault || key == "fault";
    has_probability = has_probability || key == "probability";
  }
  if (!has_fault) return tl::unexpected(Invalid("\"fault\" is required"));
  if (has_probability && rule.every > 0) {
    return tl::unexpected(Invalid("give \"every\" or \"probability\", not both"));
  }
  if ((rule.fault == FaultKind::kDelay) != (rule.delay_ms > 0)) {
    return tl::unexpected(Invalid("\"delay_ms\" (> 0) goes with the Delay fault, and only there"));
  }
  return rule;
}

bool TableMatches(std::string_view rule, std::string_view table) {
  return rule.size() == table.size() &&
         std::equal(rule.begin(), rule.end(), table.begin(), [](char a, char b) {
           auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
           return lower(a) == lower(b);
         });
}

bool InScope(const FaultRule& rule, const FaultScope& scope) {
  if (!rule.account.empty() && rule.account != scope.account) return false;
  if (!rule.table.empty() && !TableMatches(rule.table, scope.table)) return false;
  if (!rule.partition.empty() && (!scope.partition_key || rule.partition != *scope.partition_key)) {
    return false;
  }
  return rule.operation.empty() || rule.operation == scope.operation;
}

bool InWindow(const FaultRule& rule, DateTime now) {
  const std::int64_t since_ms = (now.ticks - rule.added.ticks) / (kTicksPerSecond / 1000);
  if (since_ms < static_cast<std::int64_t>(rule.after_ms)) return false;
  return rule.for_ms == 0 || since_ms < static_cast<std::int64_t>(rule.after_ms + rule.for_ms);
}

bool Chance(double probability) {
  if (probability >= 1.0) return true;
  if (probability <= 0.0) return false;
  thread_local std::mt19937_64 generator{std::random_device{}()};
  return std::uniform_real_distribution<double>(0.0, 1.0)(generator) < probability;
}

}  // namespace

std::string_view FaultKindName(FaultKind kind) {
  switch (kind) {
    case FaultKind::kServerBusy:
      return "ServerBusy";
    case FaultKind::kOperationTimedOut:
      return "OperationTimedOut";
    case FaultKind::kDelay:
      return "Delay";
    case FaultKind::kDropConnection:
      return "DropConnection";
  }
  return "ServerBusy";
}

Result<std::vector<FaultRule>> FaultInjector::Parse(std::string_view json) {
  dom::parser parser;
  dom::element root;
  if (parser.parse(json.data(), json.size()).get(root) != simdjson::SUCCESS) {
    return tl::unexpected(Invalid("not valid JSON"));
  }
  std::vector<FaultRule> rules;
  dom::array array;
  if (root.get_array().get(array) == simdjson::SUCCESS) {
    for (dom::element element : array) {
      auto rule = ParseRule(element);
      if (!rule) return tl::unexpected(rule.error());
      rules.push_back(std::move(*rule));
    }
    return rules;
  }
  auto rule = ParseRule(root);
  if (!rule) return tl::unexpected(rule.error());
  rules.push_back(std::move(*rule));
  return rules;
}

FaultRule FaultInjector::Add(FaultRule rule) {
  std::lock_guard<std::mutex> lock(mutex_);
  rule.id = next_id_++;
  rule.added = clock_.Now();
  rule.matched = rule.fired = 0;
  rules_.push_back(rule);
  rule_count_.store(rules_.size(), std::memory_order_release);
  return rule;
}

bool FaultInjector::Remove(std::uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::size_t before = rules_.size();
  std::erase_if(rules_, [id](const FaultRule& rule) { return rule.id == id; });
  rule_count_.store(rules_.size(), std::memory_order_release);
  return rules_.size() != before;
}

void FaultInjector::Clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  rules_.clear();
  rule_count_.store(0, std::memory_order_release);
}

std::vector<FaultRule> FaultInjector::Rules() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return rules_;
}

std::string FaultInjector::ListJson() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string out = "[";
  for (std::size_t i = 0; i < rules_.size(); ++i) {
    if (i > 0) out += ",\n ";
    out += FaultRuleJson(rules_[i]);
  }
  out += "]";
  return out;
}

std::optional<FaultAction> FaultInjector::Match(const FaultScope& scope) {
  if (rule_count_.load(std::memory_order_acquire) == 0) return std::nullopt;
  const DateTime now = clock_.Now();
  std::lock_guard<std::mutex> lock(mutex_);
  for (FaultRule& rule : rules_) {
    if (!InScope(rule, scope) || !InWindow(rule, now)) continue;
    if (rule.count > 0 && rule.fired >= rule.count) continue;
    ++rule.matched;
    const bool fires = rule.every > 0 ? rule.matched % rule.every == 0 : Chance(rule.probability);
    if (!fires) continue;
    ++rule.fired;
    return FaultAction{rule.fault, std::chrono::milliseconds(rule.delay_ms), rule.id};
  }
  return std::nullopt;
}

std::string FaultRuleJson(const FaultRule& rule) {
  std::string out = "{";
  JsonMembers members(out);
  members.Key("id");
  AppendJsonInt(out, static_cast<std::int64_t>(rule.id));
  members.String("fault", FaultKindName(rule.fault));
  auto number = [&](std::string_view name, std::uint64_t value) {
    members.Key(name);
    AppendJsonInt(out, static_cast<std::int64_t>(value));
  };
  if (rule.fault == FaultKind::kDelay) number("delay_ms", rule.delay_ms);
  if (rule.every > 0) {
    number("every", rule.every);
  } else {
    members.Key("probability");
    AppendJsonDouble(out, rule.probability);
  }
  if (rule.after_ms > 0) number("after_ms", rule.after_ms);
  if (rule.for_ms > 0) number("for_ms", rule.for_ms);
  if (rule.count > 0) number("count", rule.count);
  for (auto [name, value] : {std::pair{"account", &rule.account},
                             {"table", &rule.table},
                             {"partition", &rule.partition},
                             {"operation", &rule.operation}}) {
    if (!value->empty()) members.String(name, *value);
  }
  number("matched", rule.matched);
  number("fired", rule.fired);
  out += "}";
  return out;
}

}  // namespace malachite::server
