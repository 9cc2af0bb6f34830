// The explorer's files (server/admin/explorer/), embedded in the executable at build time by
// embed_assets.cmake: the explorer fetches nothing from the network and needs no files beside
// the binary.
#pragma once

#include <string_view>

namespace malachite::server {

struct EmbeddedAsset {
  std::string_view name;          // the file name, e.g. "app.js"
  std::string_view content_type;  // from its extension
  std::string_view bytes;         // lives for the program
};

// The asset named `name`, or nullptr. The pointer lives for the program.
const EmbeddedAsset* FindExplorerAsset(std::string_view name);

}  // namespace malachite::server
