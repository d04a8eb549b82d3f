// diff_blocks (chain_diff.h).
#include "odf_hash/odf/chain_diff.h"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "odf_hash/core/sha3.h"

namespace odf_hash::odf {

namespace {

constexpr const char* kAbsent = "(absent)";

class Differ {
 public:
  Differ(const MetadataBlock& a, const MetadataBlock& b, std::vector<ChainDifference>& out)
      : seq_(a.sequence_number),
        seq_b_(b.sequence_number),
        event_(event_kind_name(a.event)),
        out_(out) {}

  void add(const std::string& field, const std::string& a, const std::string& b,
           bool identity_only = false) {
    out_.push_back(
        ChainDifference{seq_, seq_b_, event_, event_ + "." + field, a, b, identity_only});
  }
  void check(const std::string& field, const std::string& a, const std::string& b,
             bool identity_only = false) {
    if (a != b) add(field, a, b, identity_only);
  }
  void check(const std::string& field, const std::optional<std::string>& a,
             const std::optional<std::string>& b) {
    if (a != b) add(field, a.value_or(kAbsent), b.value_or(kAbsent));
  }
  void check(const std::string& field, const std::optional<uint64_t>& a,
             const std::optional<uint64_t>& b) {
    if (a != b) add(field, a ? std::to_string(*a) : kAbsent, b ? std::to_string(*b) : kAbsent);
  }

 private:
  uint64_t seq_;
  uint64_t seq_b_;
  std::string event_;
  std::vector<ChainDifference>& out_;
};

std::string join(const std::vector<std::string>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s + "]";
}

// "[i]", or the alias where there is one: inputs are matched by it.
std::string input_key(const TransformInputRef& in, size_t i) {
  return in.alias.empty() ? "#" + std::to_string(i) : in.alias;
}

void diff_transform(const TransformDef& a, const TransformDef& b, Differ& d) {
  std::map<std::string, const TransformInputRef*> rb;
  for (size_t i = 0; i < b.inputs.size(); ++i) rb[input_key(b.inputs[i], i)] = &b.inputs[i];
  std::map<std::string, bool> seen;
  for (size_t i = 0; i < a.inputs.size(); ++i) {
    const std::string key = input_key(a.inputs[i], i);
    const std::string field = "inputs[" + key + "]";
    seen[key] = true;
    auto it = rb.find(key);
    if (it == rb.end()) {
      d.add(field, a.inputs[i].dataset_ref, kAbsent);
      continue;
    }
    d.check(field + ".datasetRef", a.inputs[i].dataset_ref, it->second->dataset_ref, true);
  }
  for (size_t i = 0; i < b.inputs.size(); ++i) {
    const std::string key = input_key(b.inputs[i], i);
    if (!seen.count(key)) d.add("inputs[" + key + "]", kAbsent, b.inputs[i].dataset_ref);
  }
  d.check("transform.kind", a.kind.empty() ? kAbsent : a.kind, b.kind.empty() ? kAbsent : b.kind);
  d.check("transform.engine", a.engine, b.engine);
  d.check("transform.version", a.version, b.version);
  d.check("transform.query", a.query, b.query);
  for (size_t i = 0; i < std::max(a.queries.size(), b.queries.size()); ++i) {
    const std::string field = "transform.queries[" + std::to_string(i) + "]";
    if (i >= a.queries.size() || i >= b.queries.size()) {
      d.add(field + ".query", i < a.queries.size() ? a.queries[i].query : kAbsent,
            i < b.queries.size() ? b.queries[i].query : kAbsent);
      continue;
    }
    d.check(field + ".alias", a.queries[i].alias, b.queries[i].alias);
    d.check(field + ".query", a.queries[i].query, b.queries[i].query);
  }
  for (size_t i = 0; i < std::max(a.temporal_tables.size(), b.temporal_tables.size()); ++i) {
    const std::string field = "transform.temporalTables[" + std::to_string(i) + "]";
    auto text = [](const std::vector<TemporalTable>& v, size_t k) {
      return k < v.size() ? v[k].name + " " + join(v[k].primary_key) : std::string(kAbsent);
    };
    d.check(field, text(a.temporal_tables, i), text(b.temporal_tables, i));
  }
}

std::string bytes_text(const std::vector<uint8_t>& v) {
  if (v.empty()) return kAbsent;
  return std::to_string(v.size()) + " bytes, " +
         Multihash(HashCode::kSha3_256, Sha3_256::digest(v)).to_string();
}

void diff_schema(const DataSchemaInfo& a, const DataSchemaInfo& b, Differ& d) {
  if (a.odf_schema != b.odf_schema) {
    d.add("schema", a.odf_schema ? "present" : kAbsent, b.odf_schema ? "present" : kAbsent);
  }
  d.check("rawArrowSchema", bytes_text(a.raw_arrow_schema), bytes_text(b.raw_arrow_schema));
  if (!a.odf_schema || !b.odf_schema) return;
  std::map<std::string, const SchemaField*> fb;
  for (const auto& f : b.fields) fb.emplace(f.path, &f);
  std::map<std::string, bool> fa;
  for (const auto& f : a.fields) fa.emplace(f.path, true);
  // Positions among the fields both sides have, so that one added field does not make every
  // later one "moved".
  std::vector<std::string> common_a, common_b;
  for (const auto& f : a.fields) {
    auto it = fb.find(f.path);
    if (it == fb.end()) {
      d.add("schema." + f.path, f.type, kAbsent);
      continue;
    }
    common_a.push_back(f.path);
    d.check("schema." + f.path + ".type", f.type, it->second->type);
    d.check("schema." + f.path + ".extra", f.extra.empty() ? kAbsent : f.extra,
            it->second->extra.empty() ? kAbsent : it->second->extra);
  }
  for (const auto& f : b.fields) {
    if (!fa.count(f.path)) {
      d.add("schema." + f.path, kAbsent, f.type);
    } else {
      common_b.push_back(f.path);
    }
  }
  if (common_a != common_b) {
    std::map<std::string, size_t> pos_b;
    for (size_t i = 0; i < common_b.size(); ++i) pos_b.emplace(common_b[i], i);
    for (size_t i = 0; i < common_a.size(); ++i) {
      auto it = pos_b.find(common_a[i]);
      if (it != pos_b.end() && it->second != i) {
        d.add("schema." + common_a[i] + ".position", std::to_string(i), std::to_string(it->second));
      }
    }
  }
}

std::string hex_or_absent(const std::optional<uint64_t>& v) {
  return v ? std::to_string(*v) : kAbsent;
}

std::string hash_text(const std::optional<Multihash>& h) {
  return h ? h->to_string() : kAbsent;
}

std::string interval_text(const std::optional<DataSlice>& s) {
  if (!s) return kAbsent;
  return "[" + std::to_string(s->offset_interval.start) + ", " +
         std::to_string(s->offset_interval.end) + "]";
}

void diff_execute(const MetadataBlock& a, const MetadataBlock& b, Differ& d) {
  if (a.query_inputs.size() != b.query_inputs.size()) {
    d.add("queryInputs.length", std::to_string(a.query_inputs.size()),
          std::to_string(b.query_inputs.size()));
  }
  for (size_t i = 0; i < std::min(a.query_inputs.size(), b.query_inputs.size()); ++i) {
    const QueryInput& x = a.query_inputs[i];
    const QueryInput& y = b.query_inputs[i];
    const std::string field = "queryInputs[" + std::to_string(i) + "]";
    d.check(field + ".datasetId", x.dataset_id, y.dataset_id, true);
    // The input's blocks consumed: comparable only when both read the same input (pulled from
    // one origin); another input's blocks always have other hashes (system times).
    if (x.dataset_id == y.dataset_id) {
      d.check(field + ".prevBlockHash", hash_text(x.prev_block_hash), hash_text(y.prev_block_hash));
      d.check(field + ".newBlockHash", hash_text(x.new_block_hash), hash_text(y.new_block_hash));
    }
    d.check(field + ".prevOffset", x.prev_offset, y.prev_offset);
    d.check(field + ".newOffset", x.new_offset, y.new_offset);
  }
  d.check("prevOffset", hex_or_absent(a.prev_offset), hex_or_absent(b.prev_offset));
  d.check("newData.offsetInterval", interval_text(a.new_data), interval_text(b.new_data));
}

// Leaf by leaf; objects by key (in the original's order, then keys only in the reproduced),
// arrays by position. Keys are the specification's snake_case names, shown in camelCase.
std::string camel(const std::string& s) {
  std::string out;
  bool up = false;
  for (char c : s) {
    if (c == '_') {
      up = true;
      continue;
    }
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return out;
}

void diff_json(const nlohmann::ordered_json& a, const nlohmann::ordered_json& b,
               const std::string& path, Differ& d) {
  auto text = [](const nlohmann::ordered_json& j) {
    if (j.is_null()) return std::string(kAbsent);
    if (j.is_string()) return j.get<std::string>();
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  auto sub = [&](const std::string& key) { return path.empty() ? key : path + "." + key; };
  if (a.is_object() && b.is_object()) {
    // A union's member differs: its fields are not comparable, the kind says it.
    if (a.contains("kind") && b.contains("kind") && a["kind"] != b["kind"]) {
      d.add(sub("kind"), text(a["kind"]), text(b["kind"]));
      return;
    }
    for (const auto& [k, v] : a.items()) {
      diff_json(v, b.contains(k) ? b[k] : nlohmann::ordered_json(), sub(camel(k)), d);
    }
    for (const auto& [k, v] : b.items()) {
      if (!a.contains(k)) diff_json(nlohmann::ordered_json(), v, sub(camel(k)), d);
    }
    return;
  }
  if (a.is_array() && b.is_array()) {
    for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
      diff_json(i < a.size() ? a[i] : nlohmann::ordered_json(),
                i < b.size() ? b[i] : nlohmann::ordered_json(),
                path + "[" + std::to_string(i) + "]", d);
    }
    return;
  }
  if (a != b) d.add(path, text(a), text(b));
}

void diff_source(const std::optional<std::string>& a, const std::optional<std::string>& b,
                 Differ& d) {
  // Written by parse_block, so valid JSON; parsed without exceptions all the same.
  auto ja = nlohmann::ordered_json::parse(a.value_or("null"), nullptr, false);
  auto jb = nlohmann::ordered_json::parse(b.value_or("null"), nullptr, false);
  diff_json(ja, jb, "", d);
}

}  // namespace

std::vector<ChainDifference> diff_blocks(const MetadataBlock& original,
                                         const MetadataBlock& reproduced) {
  std::vector<ChainDifference> out;
  if (original.event != reproduced.event) return out;
  Differ d(original, reproduced, out);
  switch (original.event) {
    case EventKind::kSeed:
      if (original.dataset_kind != reproduced.dataset_kind) {
        auto name = [](const std::optional<DatasetKind>& k) {
          return k ? std::string(dataset_kind_name(*k)) : std::string(kAbsent);
        };
        d.add("datasetKind", name(original.dataset_kind), name(reproduced.dataset_kind));
      }
      break;
    case EventKind::kSetTransform:
      diff_transform(original.transform.value_or(TransformDef{}),
                     reproduced.transform.value_or(TransformDef{}), d);
      break;
    case EventKind::kSetDataSchema:
      diff_schema(original.data_schema.value_or(DataSchemaInfo{}),
                  reproduced.data_schema.value_or(DataSchemaInfo{}), d);
      break;
    case EventKind::kExecuteTransform: diff_execute(original, reproduced, d); break;
    case EventKind::kSetPollingSource:
    case EventKind::kAddPushSource: diff_source(original.source, reproduced.source, d); break;
    case EventKind::kSetVocab:
      d.check("offsetColumn", original.vocab_offset_column, reproduced.vocab_offset_column);
      d.check("systemTimeColumn", original.vocab_system_time_column,
              reproduced.vocab_system_time_column);
      d.check("eventTimeColumn", original.vocab_event_time_column,
              reproduced.vocab_event_time_column);
      break;
    default: break;
  }
  return out;
}

std::vector<ChainDifference> diff_chains(const std::vector<const MetadataBlock*>& original,
                                         const std::vector<const MetadataBlock*>& reproduced) {
  std::vector<ChainDifference> out;
  auto append = [&out](const MetadataBlock& a, const MetadataBlock& b) {
    std::vector<ChainDifference> d = diff_blocks(a, b);
    out.insert(out.end(), std::make_move_iterator(d.begin()), std::make_move_iterator(d.end()));
  };
  // Block by block up to the first kinds that differ: the Seeds and ExecuteTransforms.
  for (size_t i = 0; i < std::min(original.size(), reproduced.size()); ++i) {
    // (Equal sequence numbers too: a chain whose walk ended early, at a block it could not
    // read, lacks its lower blocks, and positions no longer say which block is which.)
    if (original[i]->event != reproduced[i]->event ||
        original[i]->sequence_number != reproduced[i]->sequence_number) {
      break;
    }
    if (original[i]->event == EventKind::kSeed ||
        original[i]->event == EventKind::kExecuteTransform) {
      append(*original[i], *reproduced[i]);
    }
  }
  // By occurrence: the k-th of a kind with the k-th.
  for (EventKind kind :
       {EventKind::kSetPollingSource, EventKind::kSetTransform, EventKind::kSetVocab,
        EventKind::kSetDataSchema, EventKind::kAddPushSource}) {
    std::vector<const MetadataBlock*> a, b;
    for (const MetadataBlock* m : original) {
      if (m->event == kind) a.push_back(m);
    }
    for (const MetadataBlock* m : reproduced) {
      if (m->event == kind) b.push_back(m);
    }
    for (size_t k = 0; k < std::min(a.size(), b.size()); ++k) append(*a[k], *b[k]);
  }
  std::stable_sort(out.begin(), out.end(), [](const ChainDifference& x, const ChainDifference& y) {
    return x.sequence_number < y.sequence_number;
  });
  return out;
}

}  // namespace odf_hash::odf
