// A table of objects (include/odf_hash/io/table.h).
#include "odf_hash/io/table.h"

#include <utility>

namespace odf_hash {

Table Table::of(std::shared_ptr<ObjectReader> object) {
  Table t;
  t.objects.push_back(std::move(object));
  return t;
}

std::string Table::name() const {
  std::string out;
  for (const auto& o : objects) {
    if (!out.empty()) out += " + ";
    if (o != nullptr) out += o->name();
  }
  return out;
}

uint64_t Table::size() const noexcept {
  uint64_t total = 0;
  for (const auto& o : objects) {
    if (o != nullptr) total += o->size();
  }
  return total;
}

Status check_table(const Table& table, const char* verb) {
  if (table.objects.empty()) return Status::invalid_argument(std::string(verb) + ": no object");
  for (const auto& o : table.objects) {
    if (o == nullptr) return Status::invalid_argument(std::string(verb) + ": null object");
  }
  return Status::ok();
}

}  // namespace odf_hash
