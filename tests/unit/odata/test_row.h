// A row of typed properties for odata tests: the simplest PropertySource.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/edm.h"
#include "odata/filter.h"

namespace malachite::odata::testing {

class TestRow : public PropertySource {
 public:
  TestRow() = default;
  TestRow(std::initializer_list<std::pair<std::string, EdmValue>> properties)
      : properties_(properties) {}

  TestRow& Set(std::string name, EdmValue value) {
    properties_.emplace_back(std::move(name), std::move(value));
    return *this;
  }

  std::optional<PropertyView> Get(std::string_view name) const override {
    for (const auto& [key, value] : properties_) {
      if (key == name) return PropertyView{value.type, value.integer, value.number, value.bytes};
    }
    return std::nullopt;
  }

 private:
  std::vector<std::pair<std::string, EdmValue>> properties_;
};

}  // namespace malachite::odata::testing
