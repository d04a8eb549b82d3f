#include "odf_hash/odf/odf_block.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

#include <nlohmann/json.hpp>

#include "event_contents.h"
#include "odf_hash/core/multibase.h"
#include "odf_hash_fb/odf_block_generated.h"

namespace odf_hash::odf {

namespace {

// Larger than any real block by orders of magnitude, and far below the 2 GiB FlatBuffers
// limit that the verifier asserts on.
constexpr size_t kMaxBlockBytes = 64u << 20;

// FlatBuffers are read in place; giving them a buffer aligned for their largest scalar
// (8 bytes) makes every correctly laid out field naturally aligned. The nested
// MetadataBlock sits at whatever offset the writer gave the content vector (4 modulo 8
// is common), so it is copied too before it is read.
class AlignedBytes {
 public:
  explicit AlignedBytes(std::span<const uint8_t> bytes)
      : words_((bytes.size() + 7) / 8), size_(bytes.size()) {
    if (size_ != 0) std::memcpy(words_.data(), bytes.data(), size_);
  }
  const uint8_t* data() const { return reinterpret_cast<const uint8_t*>(words_.data()); }
  size_t size() const { return size_; }

 private:
  std::vector<uint64_t> words_;
  size_t size_;
};

bool verify_buffer_as_manifest(const AlignedBytes& buf, bool check_alignment) {
  flatbuffers::Verifier::Options opts;
  opts.check_alignment = check_alignment;
  flatbuffers::Verifier verifier(buf.data(), buf.size(), opts);
  return fb::VerifyManifestBuffer(verifier);
}

bool verify_buffer_as_block(const AlignedBytes& buf, bool check_alignment) {
  flatbuffers::Verifier::Options opts;
  opts.check_alignment = check_alignment;
  flatbuffers::Verifier verifier(buf.data(), buf.size(), opts);
  return verifier.VerifyBuffer<fb::MetadataBlock>(nullptr);
}

// Bounds-checked little-endian reads of a buffer that has not been verified yet.
bool load_u32(const AlignedBytes& buf, size_t pos, uint32_t* out) {
  if (pos > buf.size() || buf.size() - pos < 4) return false;
  std::memcpy(out, buf.data() + pos, 4);
  return true;
}
bool load_u16(const AlignedBytes& buf, size_t pos, uint16_t* out) {
  if (pos > buf.size() || buf.size() - pos < 2) return false;
  std::memcpy(out, buf.data() + pos, 2);
  return true;
}

// Position of field `slot` of the table at `table`, or 0 when it is absent or unreadable.
size_t field_position(const AlignedBytes& buf, size_t table, size_t slot) {
  uint32_t soffset = 0;
  uint16_t vsize = 0, offset = 0;
  if (!load_u32(buf, table, &soffset)) return 0;
  const int64_t vtable = static_cast<int64_t>(table) - static_cast<int32_t>(soffset);
  if (vtable < 0 || !load_u16(buf, static_cast<size_t>(vtable), &vsize)) return 0;
  if (4 + 2 * slot + 2 > vsize) return 0;
  if (!load_u16(buf, static_cast<size_t>(vtable) + 4 + 2 * slot, &offset)) return 0;
  return offset == 0 ? 0 : table + offset;
}

// The block's event: its union type and the position of its table, located without trusting
// the buffer (for the checks below, which run before the verifier); nullopt when the root,
// the event or its type cannot be read (the verifier rejects such a block, or it has none).
struct EventAt {
  fb::MetadataEvent type;
  size_t table;
};
std::optional<EventAt> locate_event(const AlignedBytes& buf) {
  uint32_t root = 0, rel = 0;
  if (!load_u32(buf, 0, &root)) return std::nullopt;
  const size_t type_at = field_position(buf, root, 3);
  const size_t event_at = field_position(buf, root, 4);
  if (type_at == 0 || event_at == 0 || type_at >= buf.size()) return std::nullopt;
  if (!load_u32(buf, event_at, &rel)) return std::nullopt;
  return EventAt{static_cast<fb::MetadataEvent>(buf.data()[type_at]), event_at + rel};
}

// The FlatBuffers verifier calls members of a vector of tables (size(), Get()), which is
// undefined behaviour on a misaligned vector; with alignment checks off (version 2) nothing
// stops one from being misaligned. ExecuteTransform.queryInputs is one: it is located here
// without trusting the buffer, and a misaligned one is refused before the verifier runs.
// (flatc never writes one misaligned: only version 2's Timestamp struct is.)
bool query_inputs_aligned(const AlignedBytes& buf) {
  const std::optional<EventAt> e = locate_event(buf);
  if (!e || e->type != fb::MetadataEvent::ExecuteTransform) return true;
  uint32_t rel = 0;
  const size_t inputs_at = field_position(buf, e->table, 0);
  if (inputs_at == 0 || !load_u32(buf, inputs_at, &rel)) return true;
  return (inputs_at + rel) % alignof(flatbuffers::uoffset_t) == 0;
}

// Whether the block's event is a SetDataSchema carrying the ODF schema (slot 1).
bool has_odf_data_schema(const AlignedBytes& buf) {
  const std::optional<EventAt> e = locate_event(buf);
  return e && e->type == fb::MetadataEvent::SetDataSchema && field_position(buf, e->table, 1) != 0;
}

// Version 2 blocks: the events holding vectors of tables that compare reads (SetTransform and
// the sources) are verified with alignment checks before the block is verified without them
// (event_contents.h), for the reason query_inputs_aligned gives. True when the block has no
// such event (or is too broken for the verifier anyway).
bool compare_events_aligned(const AlignedBytes& buf) {
  const std::optional<EventAt> e = locate_event(buf);
  if (!e || e->table >= buf.size()) return true;
  return detail::verify_event_aligned(buf.data(), buf.size(), e->type, e->table);
}

// Version 2 blocks were written by a Rust flatc whose generated code gave the Timestamp
// struct an alignment of 1 (flatbuffers issue 8150, kamu-cli issue 1084): the struct may
// start at any byte. Its fields are therefore copied out byte-wise, never read through a
// pointer to the struct; the same code serves version 3, where it is aligned.
Timestamp read_timestamp(const fb::Timestamp* raw) {
  fb::Timestamp copy;
  static_assert(sizeof(copy) == 16, "ODF Timestamp is 16 bytes (with 2 bytes of padding)");
  std::memcpy(&copy, reinterpret_cast<const uint8_t*>(raw), sizeof(copy));
  Timestamp t;
  t.year = copy.year();
  t.ordinal = copy.ordinal();
  t.seconds_from_midnight = copy.seconds_from_midnight();
  t.nanoseconds = copy.nanoseconds();
  return t;
}

// The bytes of a verified [ubyte] vector. With alignment checks off (version 2) the vector's
// length prefix may be misaligned, so no member function of flatbuffers::Vector (an object
// requiring 4-byte alignment) is called: the length is read with ReadScalar, which is
// alignment-independent.
std::span<const uint8_t> vector_bytes(const flatbuffers::Vector<uint8_t>* v) {
  const auto* p = reinterpret_cast<const uint8_t*>(v);
  return {p + sizeof(flatbuffers::uoffset_t), flatbuffers::ReadScalar<flatbuffers::uoffset_t>(p)};
}

Result<Multihash> read_hash(const flatbuffers::Vector<uint8_t>* v, const char* field) {
  if (v == nullptr) return Status::parse_error(std::string(field) + " is missing");
  auto r = Multihash::from_bytes(vector_bytes(v));
  if (!r.is_ok()) return r.status().with_context(std::string(field) + " is not a valid multihash");
  return r;
}

Result<std::optional<Multihash>> read_optional_hash(const flatbuffers::Vector<uint8_t>* v,
                                                    const char* field) {
  if (v == nullptr) return std::optional<Multihash>();
  ODF_HASH_ASSIGN_OR_RETURN(Multihash h, read_hash(v, field));
  return std::optional<Multihash>(h);
}

Result<DataSlice> read_data_slice(const fb::DataSlice& s, const char* event) {
  std::string prefix = std::string(event) + ".newData.";
  ODF_HASH_ASSIGN_OR_RETURN(Multihash logical,
                            read_hash(s.logical_hash(), (prefix + "logicalHash").c_str()));
  ODF_HASH_ASSIGN_OR_RETURN(Multihash physical,
                            read_hash(s.physical_hash(), (prefix + "physicalHash").c_str()));
  if (s.offset_interval() == nullptr) {
    return Status::parse_error(prefix + "offsetInterval is missing");
  }
  return DataSlice{logical, physical,
                   OffsetInterval{s.offset_interval()->start(), s.offset_interval()->end()},
                   s.size()};
}

Result<CheckpointRef> read_checkpoint(const fb::Checkpoint& c, const char* event) {
  std::string field = std::string(event) + ".newCheckpoint.physicalHash";
  ODF_HASH_ASSIGN_OR_RETURN(Multihash physical, read_hash(c.physical_hash(), field.c_str()));
  return CheckpointRef{physical, c.size()};
}

// AddData and ExecuteTransform share the fields odf-hash reads, under the same names.
template <typename Event>
Status read_data_event(const Event& e, const char* name, MetadataBlock& out) {
  std::string field = std::string(name) + ".prevCheckpoint";
  ODF_HASH_ASSIGN_OR_RETURN(out.prev_checkpoint,
                            read_optional_hash(e.prev_checkpoint(), field.c_str()));
  if (e.prev_offset().has_value()) out.prev_offset = *e.prev_offset();
  if (e.new_data() != nullptr) {
    ODF_HASH_ASSIGN_OR_RETURN(out.new_data, read_data_slice(*e.new_data(), name));
  }
  if (e.new_checkpoint() != nullptr) {
    ODF_HASH_ASSIGN_OR_RETURN(out.new_checkpoint, read_checkpoint(*e.new_checkpoint(), name));
  }
  return Status::ok();
}

// The JSON object of an ExtraAttributes table (null when absent). Not an object: an error
// naming `field`.
Result<nlohmann::json> read_extra(const fb::ExtraAttributes* extra, const std::string& field) {
  if (extra == nullptr || extra->entries() == nullptr) return nlohmann::json();
  nlohmann::json j = nlohmann::json::parse(extra->entries()->string_view(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return Status::parse_error(field + " is not a JSON object");
  }
  return j;
}

constexpr const char* kTypeAttribute = "opendatafabric.org/type";
constexpr const char* kLinkedObjectsAttribute = "opendatafabric.org/linkedObjects";

// The kind of an extended type attribute ({"kind": ...}); kamu accepts these spellings of
// ObjectLink (serde aliases).
bool is_object_link_kind(const std::string& kind) {
  return kind == "ObjectLink" || kind == "objectLink" || kind == "objectlink";
}

// Collects the ObjectLink columns of `field` (under `path`), following Option and Struct.
Status collect_object_links(const fb::DataField& field, std::vector<std::string> path,
                            const std::string& where, std::vector<ObjectLinkColumn>& out) {
  if (field.name() == nullptr) return Status::parse_error(where + ".name is missing");
  path.push_back(field.name()->str());
  ODF_HASH_ASSIGN_OR_RETURN(nlohmann::json extra, read_extra(field.extra(), where + ".extra"));
  if (extra.is_object() && extra.contains(kTypeAttribute)) {
    const nlohmann::json& t = extra[kTypeAttribute];
    if (!t.is_object() || !t.contains("kind") || !t["kind"].is_string()) {
      return Status::parse_error(where + ".extra[\"" + kTypeAttribute +
                                 "\"] has no string \"kind\"");
    }
    if (is_object_link_kind(t["kind"].get<std::string>())) {
      ObjectLinkColumn c;
      c.path = path;
      if (t.contains("linkType") && t["linkType"].is_object() && t["linkType"].contains("kind") &&
          t["linkType"]["kind"].is_string()) {
        c.link_type = t["linkType"]["kind"].get<std::string>();
      }
      out.push_back(std::move(c));
      return Status::ok();
    }
  }
  // The type, seen through Option wrappers (bounded: the verifier limits the depth).
  fb::DataType type = field.type_type();
  const void* value = field.type();
  while (type == fb::DataType::DataTypeOption && value != nullptr) {
    const auto* option = static_cast<const fb::DataTypeOption*>(value);
    type = option->inner_type();
    value = option->inner();
  }
  if (type == fb::DataType::DataTypeStruct && value != nullptr) {
    const auto* fields = static_cast<const fb::DataTypeStruct*>(value)->fields();
    if (fields == nullptr) return Status::ok();
    for (flatbuffers::uoffset_t i = 0; i < fields->size(); ++i) {
      ODF_HASH_RETURN_IF_ERROR(collect_object_links(
          *fields->Get(i), path, where + ".fields[" + std::to_string(i) + "]", out));
    }
  }
  return Status::ok();
}

Result<DataSchemaInfo> read_set_data_schema(const fb::SetDataSchema& e) {
  DataSchemaInfo info;
  const fb::DataSchema* schema = e.schema();
  // Neither form is not something kamu writes; it marks no column either, and does not
  // affect a hash odf-hash checks: tolerated like the events odf-hash does not read.
  if (schema == nullptr) return info;
  info.odf_schema = true;
  if (schema->fields() == nullptr) {
    return Status::parse_error("SetDataSchema.schema.fields is missing");
  }
  ODF_HASH_RETURN_IF_ERROR(read_extra(schema->extra(), "SetDataSchema.schema.extra").status());
  for (flatbuffers::uoffset_t i = 0; i < schema->fields()->size(); ++i) {
    ODF_HASH_RETURN_IF_ERROR(collect_object_links(
        *schema->fields()->Get(i), {}, "SetDataSchema.schema.fields[" + std::to_string(i) + "]",
        info.object_links));
  }
  return info;
}

// A JSON unsigned integer that fits 64 bits.
bool json_u64(const nlohmann::json& j, const char* key, uint64_t* out) {
  if (!j.contains(key)) return false;
  const nlohmann::json& v = j[key];
  if (!v.is_number_unsigned()) return false;
  *out = v.get<uint64_t>();
  return true;
}

Status read_add_data_extra(const fb::AddData& e, MetadataBlock& out) {
  ODF_HASH_ASSIGN_OR_RETURN(nlohmann::json extra, read_extra(e.extra(), "AddData.extra"));
  if (!extra.is_object() || !extra.contains(kLinkedObjectsAttribute)) return Status::ok();
  const nlohmann::json& a = extra[kLinkedObjectsAttribute];
  LinkedObjectsSummary s;
  if (!a.is_object() || !json_u64(a, "numObjectsNaive", &s.num_objects_naive) ||
      !json_u64(a, "sizeNaive", &s.size_naive)) {
    return Status::parse_error(std::string("AddData.extra[\"") + kLinkedObjectsAttribute +
                               "\"] is not {numObjectsNaive, sizeNaive} of unsigned integers");
  }
  out.linked_objects = s;
  return Status::ok();
}

Status read_event(const fb::MetadataBlock& b, MetadataBlock& out) {
  // What the event contents copied out may cost (event_contents.h): an honest block's are
  // smaller than the block.
  detail::ContentBudget budget(kMaxBlockBytes);
  auto type = b.event_type();
  if (type == fb::MetadataEvent::NONE || b.event() == nullptr) {
    return Status::parse_error("the block has no event");
  }
  auto tag = static_cast<uint8_t>(type);
  if (tag > static_cast<uint8_t>(EventKind::kDisablePollingSource)) {
    out.event = EventKind::kUnknown;
    return Status::ok();
  }
  out.event = static_cast<EventKind>(tag);
  switch (type) {
    case fb::MetadataEvent::Seed: {
      if (b.event_as_Seed()->dataset_id() == nullptr) {
        return Status::parse_error("Seed.datasetId is missing");
      }
      auto kind = b.event_as_Seed()->dataset_kind();
      if (kind != fb::DatasetKind::Root && kind != fb::DatasetKind::Derivative) {
        return Status::parse_error("Seed.datasetKind has the unknown value " +
                                   std::to_string(static_cast<int32_t>(kind)));
      }
      out.dataset_kind =
          kind == fb::DatasetKind::Root ? DatasetKind::kRoot : DatasetKind::kDerivative;
      out.dataset_id =
          "did:odf:" + multibase::encode(multibase::Base::kBase16,
                                         vector_bytes(b.event_as_Seed()->dataset_id()));
      return Status::ok();
    }
    case fb::MetadataEvent::AddData: {
      ODF_HASH_RETURN_IF_ERROR(read_data_event(*b.event_as_AddData(), "AddData", out));
      return read_add_data_extra(*b.event_as_AddData(), out);
    }
    case fb::MetadataEvent::SetDataSchema: {
      ODF_HASH_ASSIGN_OR_RETURN(DataSchemaInfo info,
                                read_set_data_schema(*b.event_as_SetDataSchema()));
      const fb::SetDataSchema& e = *b.event_as_SetDataSchema();
      if (e.raw_arrow_schema() != nullptr) {
        auto raw = vector_bytes(e.raw_arrow_schema());
        info.raw_arrow_schema.assign(raw.begin(), raw.end());
      }
      if (e.schema() != nullptr) {
        ODF_HASH_RETURN_IF_ERROR(detail::read_schema_fields(*e.schema(), budget, info.fields));
      }
      out.data_schema = std::move(info);
      return Status::ok();
    }
    case fb::MetadataEvent::SetTransform: {
      ODF_HASH_ASSIGN_OR_RETURN(out.transform,
                                detail::read_set_transform(*b.event_as_SetTransform(), budget));
      return Status::ok();
    }
    case fb::MetadataEvent::SetPollingSource: {
      ODF_HASH_ASSIGN_OR_RETURN(
          out.source,
          detail::table_json(static_cast<const uint8_t*>(b.event()),
                             fb::SetPollingSourceTypeTable(), "SetPollingSource", budget));
      return Status::ok();
    }
    case fb::MetadataEvent::AddPushSource: {
      ODF_HASH_ASSIGN_OR_RETURN(
          out.source, detail::table_json(static_cast<const uint8_t*>(b.event()),
                                         fb::AddPushSourceTypeTable(), "AddPushSource", budget));
      return Status::ok();
    }
    case fb::MetadataEvent::SetVocab: {
      // Read as vector_bytes reads (a version 2 block may be misaligned): the verifier
      // checked the string's bounds.
      const auto text = [](const flatbuffers::String* name) -> std::optional<std::string> {
        if (name == nullptr) return std::nullopt;
        const auto* p = reinterpret_cast<const uint8_t*>(name);
        const auto n = flatbuffers::ReadScalar<flatbuffers::uoffset_t>(p);
        return std::string(reinterpret_cast<const char*>(p + sizeof(flatbuffers::uoffset_t)), n);
      };
      out.vocab_offset_column = text(b.event_as_SetVocab()->offset_column());
      out.vocab_system_time_column = text(b.event_as_SetVocab()->system_time_column());
      out.vocab_event_time_column = text(b.event_as_SetVocab()->event_time_column());
      return Status::ok();
    }
    case fb::MetadataEvent::ExecuteTransform: {
      const auto& e = *b.event_as_ExecuteTransform();
      if (e.query_inputs() == nullptr) {
        return Status::parse_error("ExecuteTransform.queryInputs is missing");
      }
      // Read as vector_bytes reads: no member function of the (maybe misaligned) vector.
      const auto* v = reinterpret_cast<const uint8_t*>(e.query_inputs());
      const auto n = flatbuffers::ReadScalar<flatbuffers::uoffset_t>(v);
      for (flatbuffers::uoffset_t i = 0; i < n; ++i) {
        const uint8_t* slot = v + sizeof(flatbuffers::uoffset_t) * (1 + size_t{i});
        const auto* input = reinterpret_cast<const fb::ExecuteTransformInput*>(
            slot + flatbuffers::ReadScalar<flatbuffers::uoffset_t>(slot));
        const std::string field = "ExecuteTransform.queryInputs[" + std::to_string(i) + "].";
        if (input->dataset_id() == nullptr) {
          return Status::parse_error(field + "datasetId is missing");
        }
        // A DID (an ed25519 public key under its multicodec), not a multihash: kept as text.
        QueryInput q;
        q.dataset_id = "did:odf:" + multibase::encode(multibase::Base::kBase16,
                                                      vector_bytes(input->dataset_id()));
        ODF_HASH_ASSIGN_OR_RETURN(
            q.prev_block_hash,
            read_optional_hash(input->prev_block_hash(), (field + "prevBlockHash").c_str()));
        ODF_HASH_ASSIGN_OR_RETURN(
            q.new_block_hash,
            read_optional_hash(input->new_block_hash(), (field + "newBlockHash").c_str()));
        if (input->prev_offset().has_value()) q.prev_offset = *input->prev_offset();
        if (input->new_offset().has_value()) q.new_offset = *input->new_offset();
        out.query_inputs.push_back(std::move(q));
      }
      return read_data_event(e, "ExecuteTransform", out);
    }
    default: return Status::ok();
  }
}

bool is_leap(int64_t y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

}  // namespace

std::string ObjectLinkColumn::display() const {
  std::string s;
  for (const auto& p : path) {
    if (!s.empty()) s += '.';
    s += p;
  }
  return s;
}

std::string Timestamp::to_string() const {
  char buf[96];
  int days_in_year = is_leap(year) ? 366 : 365;
  if (year < 0 || year > 9999 || ordinal < 1 || ordinal > days_in_year ||
      seconds_from_midnight >= 86400 || nanoseconds >= 1000000000u) {
    std::snprintf(buf, sizeof buf, "(year %" PRId32 ", day %u, second %" PRIu32 ", ns %" PRIu32 ")",
                  year, static_cast<unsigned>(ordinal), seconds_from_midnight, nanoseconds);
    return buf;
  }
  static constexpr int kMonthDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int month = 0;
  int day = ordinal;
  while (true) {
    int len = kMonthDays[month] + (month == 1 && is_leap(year) ? 1 : 0);
    if (day <= len) break;
    day -= len;
    ++month;
  }
  uint32_t s = seconds_from_midnight;
  int n = std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02u:%02u:%02u", static_cast<int>(year),
                        month + 1, day, s / 3600, (s / 60) % 60, s % 60);
  if (nanoseconds != 0 && n > 0) {
    n += std::snprintf(buf + n, sizeof buf - static_cast<size_t>(n), ".%09" PRIu32, nanoseconds);
    while (buf[n - 1] == '0') buf[--n] = '\0';
  }
  return std::string(buf) + "Z";
}

const char* event_kind_name(EventKind kind) {
  switch (kind) {
    case EventKind::kNone: return "None";
    case EventKind::kAddData: return "AddData";
    case EventKind::kExecuteTransform: return "ExecuteTransform";
    case EventKind::kSeed: return "Seed";
    case EventKind::kSetPollingSource: return "SetPollingSource";
    case EventKind::kSetTransform: return "SetTransform";
    case EventKind::kSetVocab: return "SetVocab";
    case EventKind::kSetAttachments: return "SetAttachments";
    case EventKind::kSetInfo: return "SetInfo";
    case EventKind::kSetLicense: return "SetLicense";
    case EventKind::kSetDataSchema: return "SetDataSchema";
    case EventKind::kAddPushSource: return "AddPushSource";
    case EventKind::kDisablePushSource: return "DisablePushSource";
    case EventKind::kDisablePollingSource: return "DisablePollingSource";
    case EventKind::kUnknown: return "Unknown";
  }
  return "Unknown";
}

const char* dataset_kind_name(DatasetKind kind) {
  return kind == DatasetKind::kRoot ? "root" : "derivative";
}

Result<MetadataBlock> parse_block(std::span<const uint8_t> bytes) {
  if (bytes.size() > kMaxBlockBytes) {
    return Status::parse_error("block of " + std::to_string(bytes.size()) +
                               " bytes is larger than the " + std::to_string(kMaxBlockBytes) +
                               "-byte limit");
  }
  AlignedBytes outer(bytes);
  // The version decides how strict the nested verification is, so the Manifest is first
  // verified without alignment checks (safe: every read below is alignment-independent),
  // then again with them once it says it is a version 3 block.
  if (!verify_buffer_as_manifest(outer, false)) {
    return Status::parse_error("not a valid FlatBuffers Manifest (verifier rejected it)");
  }
  const fb::Manifest* manifest = fb::GetManifest(outer.data());
  if (manifest->kind() != kMetadataBlockKind) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "0x%" PRIx64, static_cast<uint64_t>(manifest->kind()));
    return Status::parse_error(std::string("Manifest.kind is ") + buf +
                               ", not 0x400000 (odf-metadata-block)");
  }
  MetadataBlock out;
  out.version = manifest->version();
  if (out.version < kMinBlockVersion || out.version > kMaxBlockVersion) {
    return Status::parse_error("unsupported block version " + std::to_string(out.version) +
                               " (odf-hash reads versions 2 and 3)");
  }
  const bool strict = out.version >= 3;
  if (strict && !verify_buffer_as_manifest(outer, true)) {
    return Status::parse_error("version 3 Manifest is misaligned (verifier rejected it)");
  }
  if (manifest->content() == nullptr || vector_bytes(manifest->content()).empty()) {
    return Status::parse_error("Manifest.content is missing or empty");
  }
  AlignedBytes inner(vector_bytes(manifest->content()));
  if (!strict && !query_inputs_aligned(inner)) {
    return Status::parse_error(
        "Manifest.content is not a valid FlatBuffers MetadataBlock "
        "(ExecuteTransform.queryInputs is misaligned)");
  }
  if (!strict && !compare_events_aligned(inner)) {
    return Status::parse_error(
        "Manifest.content is not a valid FlatBuffers MetadataBlock (a version 2 SetTransform, "
        "SetPollingSource or AddPushSource must have an aligned layout)");
  }
  if (!strict && has_odf_data_schema(inner) && !verify_buffer_as_block(inner, true)) {
    return Status::parse_error(
        "Manifest.content is not a valid FlatBuffers MetadataBlock (a version 2 SetDataSchema "
        "with an ODF schema must have an aligned layout)");
  }
  if (!verify_buffer_as_block(inner, strict)) {
    return Status::parse_error(
        std::string("Manifest.content is not a valid FlatBuffers MetadataBlock") +
        (strict ? " (version 3: aligned layout required)" : ""));
  }
  const auto* block = flatbuffers::GetRoot<fb::MetadataBlock>(inner.data());
  if (block->system_time() == nullptr) {
    return Status::parse_error("MetadataBlock.systemTime is missing");
  }
  out.system_time = read_timestamp(block->system_time());
  ODF_HASH_ASSIGN_OR_RETURN(out.prev_block_hash, read_optional_hash(block->prev_block_hash(),
                                                                    "MetadataBlock.prevBlockHash"));
  out.sequence_number = block->sequence_number();
  ODF_HASH_RETURN_IF_ERROR(read_event(*block, out));
  return out;
}

}  // namespace odf_hash::odf
