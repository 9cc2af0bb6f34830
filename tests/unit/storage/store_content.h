// What the compaction tests write and compare: a churn of entities, and a store's whole content.
#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "storage/store.h"

namespace malachite::storage {

// `count` entities of about 300 bytes each, 1,000 per write.
inline void Fill(Store& store, const TableInfo& table, int count, int seed) {
  for (int base = 0; base < count; base += 1000) {
    REQUIRE(store.Write([&](WriteContext& ctx) -> Result<void> {
      for (int i = base; i < base + 1000 && i < count; ++i) {
        Entity e{
            "p" + std::to_string(i / 100),
            std::to_string(i),
            ctx.NextTimestamp(),
            {{"V", EdmValue::Int32(seed + i)}, {"Note", EdmValue::String(std::string(256, 'x'))}}};
        if (auto ok = ctx.PutEntity(table, e); !ok) return ok;
      }
      return {};
    }));
  }
}

// Every table of `accounts` with its id, and every entity's keys and stored record (Timestamp
// included), in key order: what a store serves.
inline std::string Content(Store& store) {
  auto view = store.Read();
  REQUIRE(view);
  std::string out;
  for (const char* account : {"acct", "other"}) {
    std::vector<TableInfo> tables;
    REQUIRE((*view)->ScanTables(account, "", [&](const TableInfo& t) {
      tables.push_back(t);
      return true;
    }));
    for (const TableInfo& t : tables) {
      out += std::string(account) + "/" + t.name + "#" + std::to_string(t.id) + "\n";
      REQUIRE((*view)->ScanEntities(t, KeyRange{}, [&](const EntityView& e) {
        out += std::string(e.partition_key()) + "/" + std::string(e.row_key()) + "=";
        out += e.EncodedRecord();
        out += "\n";
        return true;
      }));
    }
  }
  return out;
}

}  // namespace malachite::storage
