// libFuzzer target for entity bodies (spec §5): untrusted bytes through ParseEntityJson, then the
// parsed entity rendered at every metadata level, whole and with a partial $select, alone and in
// a Query Entities feed. Invariants beyond "no crash": a refused body carries one of the codes
// entity_json_parse.h names; every rendering is valid JSON that ParseEntityJson accepts again;
// and at minimal and full metadata rendering is a fixed point — parse(render(e)) renders to the
// same bytes, so no type, value or name changes on the way back (Int64 vs Int32, Double ".0",
// DateTime precision, NaN/Infinity, escapes).
//
// With clang: scripts/fuzz entity_json. In the GCC build, entity_json_fuzz_driver_test.cc runs
// this entry point on mutations of the seeds.
#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "server/wire/entity_json_parse.h"
#include "server/wire/entity_json_render.h"
#include "server/wire/select.h"

namespace {

using namespace malachite;
using namespace malachite::server;

constexpr EntityLocation kWhere{"http://127.0.0.1:10002/devstoreaccount1", "devstoreaccount1",
                                "mytable"};

bool AllowedParseError(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidInput:
    case ErrorCode::kDuplicatePropertiesSpecified:
    case ErrorCode::kOutOfRangeInput:
    case ErrorCode::kPropertyNameTooLong:
    case ErrorCode::kPropertyNameInvalid:
      return true;
    default:
      return false;
  }
}

std::string Render(const Entity& entity, MetadataLevel level, const Selection& select) {
  std::string out;
  AppendEntityJson(out, entity, level, kWhere, select, true);
  return out;
}

bool ValidJson(const std::string& text) {
  static simdjson::dom::parser parser;
  return parser.parse(text).error() == simdjson::SUCCESS;
}

// A selection of the first custom property, one the entity lacks, and RowKey — each once, as
// ParseSelect would build it (a repeated name would be rendered twice).
Selection PartialSelection(const Entity& entity) {
  Selection select;
  select.all = false;
  if (!entity.properties.empty()) select.names.push_back(entity.properties.front().name);
  for (const char* name : {"NotThere", "RowKey"}) {
    if (entity.Find(name) == nullptr) select.names.emplace_back(name);
  }
  return select;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  Result<ParsedEntity> parsed = ParseEntityJson(body);
  if (!parsed) {
    if (!AllowedParseError(parsed.error().code)) std::abort();
    return 0;
  }
  const Entity& entity = parsed->entity;
  const Selection all;
  const Selection partial = PartialSelection(entity);
  for (MetadataLevel level :
       {MetadataLevel::kNone, MetadataLevel::kMinimal, MetadataLevel::kFull}) {
    for (const Selection* select : {&all, &partial}) {
      const std::string rendered = Render(entity, level, *select);
      Result<ParsedEntity> again = ParseEntityJson(rendered);
      if (!again) std::abort();  // our own output must be a body we accept
      if (level == MetadataLevel::kNone || select != &all) continue;
      if (Render(again->entity, level, all) != rendered) std::abort();
    }
    if (!ValidJson(RenderEntityFeed({entity, entity}, level, kWhere, partial))) std::abort();
  }
  return 0;
}
