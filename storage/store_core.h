// What the read views, the write contexts and the reclaimer share: the environment and the
// typed accessors of its databases. Immutable after Open but for the catalog generation (an
// atomic); safe to share across threads.
#pragma once

#include <memory>

#include "storage/catalog_generation.h"
#include "storage/entity_db.h"
#include "storage/lmdb_env.h"
#include "storage/settings_db.h"
#include "storage/table_catalog.h"

namespace malachite::storage {

struct StoreCore {
  explicit StoreCore(std::unique_ptr<LmdbEnv> e)
      : env(std::move(e)),
        catalog(env->dbs()),
        entities(env->dbs().entities),
        settings(env->dbs().settings) {}

  std::unique_ptr<LmdbEnv> env;
  TableCatalog catalog;
  EntityDb entities;
  SettingsDb settings;
  // Moved by every write transaction that changes the catalog or the settings database.
  CatalogGeneration generation;
};

}  // namespace malachite::storage
