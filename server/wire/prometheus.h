// The Prometheus text exposition format (0.0.4), as far as /-/metrics needs it.
#pragma once

#include <string>
#include <string_view>

namespace malachite::server {

// `value` escaped for a label value between double quotes: \ " and newline (format 0.0.4).
std::string PrometheusLabel(std::string_view value);

}  // namespace malachite::server
