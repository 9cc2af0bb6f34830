// The service's naming rules and size limits (spec §9), one function per rule.
#pragma once

#include <string_view>

#include "common/entity.h"
#include "common/error.h"

namespace malachite {

// Azure: spec §9.1. Fails with kOutOfRangeInput ("The specified resource name length is not within
// the permissible limits.") for a length outside 3..63, kInvalidResourceName for bad characters,
// a leading digit or a reserved name ("tables", any case).
Result<void> ValidateTableName(std::string_view name);

// Azure: spec §9.2. `which` is "PartitionKey" or "RowKey" (it appears in the message). Fails with
// kKeyValueTooLarge (> 1024 UTF-16 units, message naming `which`), kOutOfRangeInput for a
// forbidden character (/ \ # ? U+0000-U+001F U+007F-U+009F), kInvalidInput for invalid UTF-8.
Result<void> ValidateKey(std::string_view which, std::string_view value);

// Azure: spec §9.3. kPropertyNameTooLong (> 255) or kPropertyNameInvalid (not a C# identifier).
Result<void> ValidatePropertyName(std::string_view name);

// Azure: spec §9.2–9.3 — everything about a whole entity: both keys, every property name, value
// sizes (kPropertyValueTooLarge), property count (kTooManyProperties) and total size
// (kEntityTooLarge, counted as 4 bytes + 2 per name char + value bytes, strings as UTF-16).
// Properties named PartitionKey/RowKey/Timestamp must not be in `entity.properties`.
Result<void> ValidateEntity(const Entity& entity);

}  // namespace malachite
