// Hostile shapes of the nested FlatBuffers block (tests/fuzz/make_block_corpus.py wrote them
// into the odf_block fuzz corpus, with what each must give in tests/data/odf/crafted_blocks.json):
// every union member with required fields absent, huge and negative lengths and offsets inside
// the inner block, deep nesting. Each is a block with the expected event or a clear error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "odf_hash/odf/odf_block.h"

namespace fs = std::filesystem;
using namespace odf_hash;
using namespace odf_hash::odf;

namespace {

const fs::path kSource = ODF_HASH_SOURCE_DIR;

std::vector<uint8_t> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

nlohmann::json optional_text(const std::optional<std::string>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json();
}

// The contents compare reads (odf_events.h), where the expectations give them.
void check_contents(const MetadataBlock& block, const nlohmann::json& expect) {
  if (expect.contains("transform")) {
    ASSERT_TRUE(block.transform.has_value());
    const TransformDef& t = *block.transform;
    nlohmann::json inputs = nlohmann::json::array();
    for (const auto& i : t.inputs) inputs.push_back({i.dataset_ref, i.alias});
    nlohmann::json queries = nlohmann::json::array();
    for (const auto& q : t.queries) queries.push_back({optional_text(q.alias), q.query});
    nlohmann::json tables = nlohmann::json::array();
    for (const auto& tt : t.temporal_tables) tables.push_back({tt.name, tt.primary_key});
    const nlohmann::json got{{"inputs", inputs},
                             {"kind", t.kind},
                             {"engine", optional_text(t.engine)},
                             {"version", optional_text(t.version)},
                             {"query", optional_text(t.query)},
                             {"queries", queries},
                             {"temporal_tables", tables}};
    EXPECT_EQ(got, expect["transform"]);
  } else if (block.event != EventKind::kSetTransform) {
    EXPECT_FALSE(block.transform.has_value());
  }
  if (expect.contains("source")) {
    ASSERT_TRUE(block.source.has_value());
    EXPECT_EQ(*block.source, expect["source"].get<std::string>());
  }
  if (expect.contains("dataset_id")) {
    ASSERT_TRUE(block.dataset_id.has_value());
    EXPECT_EQ(*block.dataset_id, expect["dataset_id"].get<std::string>());
  }
  if (expect.contains("schema_fields")) {
    ASSERT_TRUE(block.data_schema.has_value());
    nlohmann::json fields = nlohmann::json::array();
    for (const auto& f : block.data_schema->fields) fields.push_back({f.path, f.type});
    EXPECT_EQ(fields, expect["schema_fields"]);
  }
}

TEST(CraftedBlocks, EachGivesItsEventOrAClearError) {
  std::ifstream in(kSource / "tests/data/odf/crafted_blocks.json");
  ASSERT_TRUE(in.good());
  const auto expectations = nlohmann::json::parse(in);
  ASSERT_GE(expectations.size(), 30u);
  size_t errors = 0;
  for (const auto& [name, expect] : expectations.items()) {
    SCOPED_TRACE(name);
    const fs::path file = kSource / "tests/fuzz/corpus/odf_block" / name;
    ASSERT_TRUE(fs::exists(file));
    auto block = parse_block(read_bytes(file));
    if (expect.contains("event")) {
      ASSERT_TRUE(block.is_ok()) << block.status().to_string();
      EXPECT_EQ(event_kind_name(block->event), expect["event"].get<std::string>());
      if (expect.contains("object_links")) {
        ASSERT_TRUE(block->data_schema.has_value());
        std::vector<std::string> links;
        for (const auto& c : block->data_schema->object_links) links.push_back(c.display());
        EXPECT_EQ(links, expect["object_links"].get<std::vector<std::string>>());
      }
      if (expect.contains("linked_objects")) {
        ASSERT_TRUE(block->linked_objects.has_value());
        EXPECT_EQ(block->linked_objects->num_objects_naive, expect["linked_objects"][0]);
        EXPECT_EQ(block->linked_objects->size_naive, expect["linked_objects"][1]);
      } else {
        EXPECT_FALSE(block->linked_objects.has_value());
      }
      check_contents(*block, expect);
    } else {
      ASSERT_FALSE(block.is_ok()) << "parsed as " << event_kind_name(block->event);
      EXPECT_EQ(block.status().code(), StatusCode::kParseError);
      EXPECT_NE(block.status().message().find(expect["error"].get<std::string>()),
                std::string::npos)
          << block.status().message();
      ++errors;
    }
  }
  EXPECT_GE(errors, 20u);
}

}  // namespace
