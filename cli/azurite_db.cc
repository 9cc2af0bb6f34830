#include "cli/azurite_db.h"

#include <simdjson.h>

#include <filesystem>

#include "cli/entity_line.h"
#include "common/datetime.h"
#include "common/encoding.h"
#include "server/wire/json_writer.h"

namespace malachite::cli {
namespace {

namespace dom = simdjson::dom;

constexpr std::string_view kDbFile = "__azurite_db_table__.json";
constexpr std::string_view kTablesCollection = "$TABLES_COLLECTION$";

std::string_view Str(dom::element e, const char* key) {
  std::string_view out;
  if (e[key].get(out) != simdjson::SUCCESS) return {};
  return out;
}

// The entity's properties object as a request body, with Guids Azurite stored as base64 turned
// back into their text.
std::string PropertiesJson(dom::object properties) {
  std::string out = "{";
  server::JsonMembers m(out);
  for (dom::key_value_pair field : properties) {
    m.Key(field.key);
    std::string_view text;
    const std::string annotation = std::string(field.key) + "@odata.type";
    std::string_view type;
    if (field.value.get(text) == simdjson::SUCCESS &&
        properties[annotation].get(type) == simdjson::SUCCESS && type == "Edm.Guid" &&
        !ParseGuid(text)) {
      if (auto decoded = Base64Decode(text); decoded && ParseGuid(*decoded)) {
        server::AppendJsonString(out, *decoded);
        continue;
      }
    }
    out += simdjson::minify(field.value);
  }
  out.push_back('}');
  return out;
}

Result<std::vector<Entity>> ReadEntities(dom::array documents, const std::string& where) {
  std::vector<Entity> entities;
  std::size_t number = 0;
  for (dom::element doc : documents) {
    ++number;
    dom::object properties;
    if (doc["properties"].get(properties) != simdjson::SUCCESS) {
      return Fail(ErrorCode::kInvalidInput,
                  where + " entity " + std::to_string(number) + ": no properties");
    }
    auto entity = ParseEntityLine(PropertiesJson(properties), false);
    if (!entity) {
      return Fail(entity.error().code, where + " entity " + std::to_string(number) + ": " +
                                           std::string(entity.error().UserMessage()));
    }
    std::string_view stamp = Str(doc, "lastModifiedTime");
    if (stamp.empty()) stamp = Str(doc["properties"].value_unsafe(), "Timestamp");
    if (auto t = ParseIso8601(stamp)) entity->timestamp = *t;
    entities.push_back(std::move(*entity));
  }
  return entities;
}

}  // namespace

Result<std::vector<TableContent>> ReadAzuriteDb(const std::string& path) {
  std::error_code ec;
  std::string file = path;
  if (std::filesystem::is_directory(path, ec)) file = path + "/" + std::string(kDbFile);
  dom::parser parser;
  dom::element root;
  if (parser.load(file).get(root) != simdjson::SUCCESS) {
    return Fail(ErrorCode::kInvalidInput, file + " is not a JSON file Azurite wrote");
  }
  dom::array collections;
  if (root["collections"].get(collections) != simdjson::SUCCESS) {
    return Fail(ErrorCode::kInvalidInput, file + " has no LokiJS collections");
  }
  std::vector<TableContent> tables;
  bool found_catalog = false;
  for (dom::element c : collections) {
    if (Str(c, "name") != kTablesCollection) continue;
    found_catalog = true;
    dom::array data;
    if (c["data"].get(data) != simdjson::SUCCESS) continue;
    for (dom::element t : data) {
      tables.push_back(
          TableContent{std::string(Str(t, "account")), std::string(Str(t, "table")), {}});
    }
  }
  if (!found_catalog) {
    return Fail(ErrorCode::kInvalidInput, file + " has no " + std::string(kTablesCollection) +
                                              " (not Azurite's table database)");
  }
  for (TableContent& table : tables) {
    const std::string name = table.account + "$" + table.table;
    for (dom::element c : collections) {
      dom::array data;
      if (Str(c, "name") != name || c["data"].get(data) != simdjson::SUCCESS) continue;
      auto entities = ReadEntities(data, "table " + table.table);
      if (!entities) return tl::unexpected(entities.error());
      table.entities = std::move(*entities);
    }
  }
  return tables;
}

}  // namespace malachite::cli
