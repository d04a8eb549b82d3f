// `--format markdown` of verify and compare: a summary to paste into a pull request or a
// ticket, or to append to a CI job summary ($GITHUB_STEP_SUMMARY), the verdict first. Written
// from the same JSON documents `--json` prints, so the two say the same in the same words.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace odf_hash::cli {

// verify --json's document ({"datasets": [...], "summary": {...}}) as Markdown.
std::string verify_markdown(const nlohmann::json& doc);

// compare --json's document as Markdown: two files (or tables), two datasets, --key or
// --ignore-order (told apart by their fields).
std::string compare_markdown(const nlohmann::json& doc);

// Text for a Markdown table cell or list item: '|', '`', '*', '_', '<', '>', '[', ']' and
// '\' escaped, line breaks as spaces.
std::string markdown_text(const std::string& text);

// `text` as a code span (backticks that the text holds doubled around).
std::string markdown_code(const std::string& text);

}  // namespace odf_hash::cli
