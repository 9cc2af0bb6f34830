// Azurite's table database: the LokiJS JSON file (__azurite_db_table__.json in Azurite's
// --location) in which the official emulator keeps tables and entities. Read as Azurite 3.x
// writes it: a "$TABLES_COLLECTION$" collection of {account, table} and one collection
// "<account>$<table>" per table whose documents hold "properties" (the entity as the client
// sent it, with @odata.type annotations, PartitionKey, RowKey and Timestamp), "lastModifiedTime"
// and "eTag".
#pragma once

#include <string>
#include <vector>

#include "common/error.h"
#include "common/table_content.h"

namespace malachite::cli {

// Reads the database at `path` (the file, or the directory holding __azurite_db_table__.json).
// Entities keep their Timestamp (Azurite's lastModifiedTime, from which both compute the ETag).
// Values go through the service's entity parser and validation. Emulator: Azurite stores Guid
// values base64-encoded; both that and the plain text form are read. Errors: kInvalidInput
// naming the file (not LokiJS JSON, no table collection) or the table and entity number that
// fails, with the service's error.
Result<std::vector<TableContent>> ReadAzuriteDb(const std::string& path);

}  // namespace malachite::cli
