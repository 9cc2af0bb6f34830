// An entity with a value of every EDM type, the edge cases included (2^53 + 1, -0, NaN, an
// infinity, binary with NUL and 0xFF, quotes and newlines in a string), for the file formats'
// round-trip tests (entity_line_test.cc, entity_csv_test.cc).
#pragma once

#include <cmath>
#include <string>

#include "common/datetime.h"
#include "common/encoding.h"
#include "common/entity.h"

namespace malachite::cli::testing {

inline Entity EveryType() {
  Entity e;
  e.partition_key = "p'1";
  e.row_key = "";
  e.properties = {
      {"S", EdmValue::String("a,b\"c\nd")},
      {"I32", EdmValue::Int32(-7)},
      {"I64", EdmValue::Int64(9007199254740993)},  // 2^53 + 1: not a double
      {"D", EdmValue::Double(0.1)},
      {"DI", EdmValue::Double(3)},
      {"Neg0", EdmValue::Double(-0.0)},
      {"NaN", EdmValue::Double(std::nan(""))},
      {"Inf", EdmValue::Double(-HUGE_VAL)},
      {"B", EdmValue::Boolean(true)},
      {"T", EdmValue::Time(*ParseIso8601("2024-01-02T03:04:05.1234567Z"))},
      {"G", EdmValue::Guid(*ParseGuid("01234567-89ab-cdef-0123-456789abcdef"))},
      {"Bin", EdmValue::Binary(std::string("\x00\x01\xff", 3))},
  };
  return e;
}

}  // namespace malachite::cli::testing
