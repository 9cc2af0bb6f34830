#include "server/http/metadata.h"

namespace malachite::server {

std::string_view JsonContentType(MetadataLevel level) {
  switch (level) {
    case MetadataLevel::kNone:
      return "application/json;odata=nometadata;streaming=true;charset=utf-8";
    case MetadataLevel::kFull:
      return "application/json;odata=fullmetadata;streaming=true;charset=utf-8";
    case MetadataLevel::kMinimal:
      break;
  }
  return "application/json;odata=minimalmetadata;streaming=true;charset=utf-8";
}

}  // namespace malachite::server
