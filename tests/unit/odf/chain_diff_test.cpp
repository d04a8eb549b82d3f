// diff_blocks / diff_chains (chain_diff.h) on blocks built here: which fields are reported, with
// which values, and what is never reported. Expected values are the ones each test puts in.
#include "odf_hash/odf/chain_diff.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

using namespace odf_hash;
using namespace odf_hash::odf;

namespace {

using Row = std::tuple<std::string, std::string, std::string, bool>;

std::vector<Row> rows(const std::vector<ChainDifference>& d) {
  std::vector<Row> out;
  for (const auto& c : d) out.emplace_back(c.field, c.original, c.reproduced, c.identity_only);
  return out;
}

MetadataBlock block(EventKind kind, uint64_t seq) {
  MetadataBlock b;
  b.version = 3;
  b.event = kind;
  b.sequence_number = seq;
  return b;
}

MetadataBlock schema(std::vector<SchemaField> fields, std::vector<uint8_t> raw = {}) {
  MetadataBlock b = block(EventKind::kSetDataSchema, 2);
  b.data_schema = DataSchemaInfo{};
  b.data_schema->odf_schema = !fields.empty();
  b.data_schema->fields = std::move(fields);
  b.data_schema->raw_arrow_schema = std::move(raw);
  return b;
}

TEST(ChainDiff, SchemaFieldsByPathTypeExtraAndPosition) {
  const MetadataBlock a = schema({{"offset", "Int64", ""},
                                  {"a", "String", ""},
                                  {"b", "Int32", R"({"x":1})"},
                                  {"c", "Option<Struct>", ""},
                                  {"c.d", "Int8", ""}});
  // b moved after c, c.d's type changed, b's extra dropped, a removed, e added.
  const MetadataBlock b = schema({{"offset", "Int64", ""},
                                  {"c", "Option<Struct>", ""},
                                  {"c.d", "Int16", ""},
                                  {"b", "Int32", ""},
                                  {"e", "Date", ""}});
  EXPECT_EQ(rows(diff_blocks(a, b)),
            (std::vector<Row>{{"SetDataSchema.schema.a", "String", "(absent)", false},
                              {"SetDataSchema.schema.b.extra", R"({"x":1})", "(absent)", false},
                              {"SetDataSchema.schema.c.d.type", "Int8", "Int16", false},
                              {"SetDataSchema.schema.e", "(absent)", "Date", false},
                              {"SetDataSchema.schema.b.position", "1", "3", false},
                              {"SetDataSchema.schema.c.position", "2", "1", false},
                              {"SetDataSchema.schema.c.d.position", "3", "2", false}}));
  EXPECT_TRUE(diff_blocks(a, a).empty());
}

TEST(ChainDiff, LegacyArrowBytesForEquality) {
  const MetadataBlock a = schema({}, {1, 2, 3});
  const MetadataBlock b = schema({}, {1, 2, 4});
  auto d = diff_blocks(a, b);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].field, "SetDataSchema.rawArrowSchema");
  // The size and the SHA3-256 multihash ("f1620" + 64 hex digits) of each side's bytes.
  EXPECT_EQ(d[0].original.rfind("3 bytes, f1620", 0), 0u) << d[0].original;
  EXPECT_EQ(d[0].original.size(), std::string("3 bytes, f1620").size() + 64);
  EXPECT_NE(d[0].original, d[0].reproduced);
  EXPECT_TRUE(diff_blocks(a, schema({}, {1, 2, 3})).empty());
  // The ODF form on one side only.
  auto e = diff_blocks(schema({{"a", "Int8", ""}}), a);
  EXPECT_EQ(e.front().field, "SetDataSchema.schema");
  EXPECT_EQ(e.front().original, "present");
}

TEST(ChainDiff, SourcesLeafByLeafWithUnionKinds) {
  MetadataBlock a = block(EventKind::kSetPollingSource, 1);
  MetadataBlock b = a;
  a.source = R"({"fetch":{"kind":"FilesGlob","path":"/a/*.csv"},"read":{"kind":"Csv",)"
             R"("header":true},"merge":{"kind":"Ledger","primary_key":["id"]}})";
  b.source = R"({"fetch":{"kind":"FilesGlob","path":"/b/*.csv"},"read":{"kind":"Json"},)"
             R"("merge":{"kind":"Ledger","primary_key":["id","day"]},"preprocess":{"kind":"Sql"}})";
  EXPECT_EQ(
      rows(diff_blocks(a, b)),
      (std::vector<Row>{{"SetPollingSource.fetch.path", "/a/*.csv", "/b/*.csv", false},
                        {"SetPollingSource.read.kind", "Csv", "Json", false},
                        {"SetPollingSource.merge.primaryKey[1]", "(absent)", "day", false},
                        {"SetPollingSource.preprocess", "(absent)", R"({"kind":"Sql"})", false}}));
}

TEST(ChainDiff, ExecuteTransformInputsAndOffsets) {
  MetadataBlock a = block(EventKind::kExecuteTransform, 3);
  a.query_inputs.push_back(
      QueryInput{"did:odf:fed01aa", Multihash::parse("f1620" + std::string(64, '1')).value(),
                 Multihash::parse("f1620" + std::string(64, '2')).value(), 0, 9});
  a.prev_offset = 99;
  MetadataBlock b = a;
  b.query_inputs[0].new_block_hash = Multihash::parse("f1620" + std::string(64, '3')).value();
  b.query_inputs[0].new_offset = 7;
  // The same input: which of its blocks was consumed is compared.
  EXPECT_EQ(
      rows(diff_blocks(a, b)),
      (std::vector<Row>{{"ExecuteTransform.queryInputs[0].newBlockHash",
                         "f1620" + std::string(64, '2'), "f1620" + std::string(64, '3'), false},
                        {"ExecuteTransform.queryInputs[0].newOffset", "9", "7", false}}));
  // Another input (another id): its block hashes are not comparable, the id is identity only.
  b.query_inputs[0].dataset_id = "did:odf:fed01bb";
  b.query_inputs[0].new_offset = 9;
  b.prev_offset.reset();
  EXPECT_EQ(rows(diff_blocks(a, b)),
            (std::vector<Row>{{"ExecuteTransform.queryInputs[0].datasetId", "did:odf:fed01aa",
                               "did:odf:fed01bb", true},
                              {"ExecuteTransform.prevOffset", "99", "(absent)", false}}));
}

TEST(ChainDiff, NeverSystemTimeOrBlockHashesAndNothingAcrossKinds) {
  MetadataBlock a = block(EventKind::kSeed, 0);
  a.dataset_kind = DatasetKind::kDerivative;
  MetadataBlock b = a;
  b.system_time.year = 2031;
  b.prev_block_hash = Multihash::parse("f1620" + std::string(64, '4')).value();
  EXPECT_TRUE(diff_blocks(a, b).empty());
  b.dataset_kind = DatasetKind::kRoot;
  EXPECT_EQ(rows(diff_blocks(a, b)),
            (std::vector<Row>{{"Seed.datasetKind", "derivative", "root", false}}));
  EXPECT_TRUE(diff_blocks(a, block(EventKind::kSetInfo, 0)).empty());
}

TEST(ChainDiff, ChainsPairTransformsByOccurrence) {
  MetadataBlock seed = block(EventKind::kSeed, 0);
  MetadataBlock ta = block(EventKind::kSetTransform, 1);
  ta.transform = TransformDef{{{"did:odf:fed01aa", "src"}}, "Sql", "datafusion", {}, {}, {}, {}};
  ta.transform->queries.push_back({std::nullopt, "SELECT 1"});
  MetadataBlock info = block(EventKind::kSetInfo, 1);
  MetadataBlock tb = ta;
  tb.sequence_number = 2;
  tb.transform->queries[0].query = "SELECT 2";
  auto d = diff_chains({&seed, &ta}, {&seed, &info, &tb});
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].field, "SetTransform.transform.queries[0].query");
  EXPECT_EQ(std::tie(d[0].sequence_number, d[0].reproduced_sequence_number),
            std::make_tuple(uint64_t{1}, uint64_t{2}));
  EXPECT_EQ(std::tie(d[0].original, d[0].reproduced),
            std::make_tuple(std::string("SELECT 1"), std::string("SELECT 2")));
}

}  // namespace
