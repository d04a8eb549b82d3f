// The recorded kamu answers (tests/data/query/, tests/kamu/make_query_vectors.py) and kamu's
// published answer (tests/data/query/kamu_published.json), for the query unit tests. Expected
// values come from them: the hashes and signatures the nodes computed.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace query_test {

namespace fs = std::filesystem;

inline const fs::path kData = fs::path(ODF_HASH_SOURCE_DIR) / "tests" / "data" / "query";

inline std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  EXPECT_TRUE(in.good()) << p;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline const nlohmann::json& manifest() {
  static const nlohmann::json m = nlohmann::json::parse(read_file(kData / "vectors.json"));
  return m;
}

inline const nlohmann::json& published() {
  static const nlohmann::json m = nlohmann::json::parse(read_file(kData / "kamu_published.json"));
  return m;
}

// The raw bytes of a recorded answer, by name ("aos", "join", ...).
inline std::string answer(const std::string& name) {
  return read_file(kData / "answers" / (name + ".json"));
}

inline std::vector<std::string> answer_names() {
  std::vector<std::string> out;
  for (const auto& a : manifest()["answers"]) out.push_back(a["name"].get<std::string>());
  return out;
}

// `text` with its first occurrence of `from` replaced (the test fails when there is none).
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

}  // namespace query_test
