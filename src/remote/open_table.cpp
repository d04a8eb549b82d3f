// Tables of paths and URLs (include/odf_hash/remote/open_table.h).
#include "odf_hash/remote/open_table.h"

#include <memory>
#include <utility>

#include "odf_hash/internal/io/deferred_object.h"
#include "odf_hash/remote/open_store.h"

namespace odf_hash {

Result<Table> open_table(const std::string& path_or_url, const StoreOptions& store) {
  ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> object, open_object(path_or_url, store));
  Table table = Table::of(std::move(object));
  table.cancel = store.cancel;
  return table;
}

Result<Table> open_table(const std::vector<std::string>& paths_or_urls, const StoreOptions& store,
                         RowWindow window) {
  if (paths_or_urls.empty()) return Status::invalid_argument("open_table: no file");
  if (paths_or_urls.size() == 1) {
    ODF_HASH_ASSIGN_OR_RETURN(Table table, open_table(paths_or_urls[0], store));
    table.window = window;
    return table;
  }
  Table table;
  table.window = window;
  table.cancel = store.cancel;
  for (const std::string& n : paths_or_urls) {
    ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> opened, open_object(n, store));
    table.objects.push_back(std::make_shared<DeferredObject>(
        opened->name(), opened->size(), [n, store]() -> Result<std::shared_ptr<ObjectReader>> {
          ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> fresh, open_object(n, store));
          return std::shared_ptr<ObjectReader>(std::move(fresh));
        }));
  }
  return table;
}

}  // namespace odf_hash
