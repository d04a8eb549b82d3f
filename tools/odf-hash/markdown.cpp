// verify_markdown and compare_markdown (markdown.h): the --json documents as Markdown.
#include "markdown.h"

#include <cstdint>
#include <string_view>

#include "odf_hash/odf/verify.h"

namespace odf_hash::cli {

namespace {

using nlohmann::json;
using odf::problem_unit_name;
using odf::ProblemUnit;
using odf::ProblemValue;

std::string str(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || j[key].is_null()) return "";
  const json& v = j[key];
  return v.is_string() ? v.get<std::string>() : v.dump();
}

uint64_t num(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_number_unsigned() ? j[key].get<uint64_t>()
                                                                         : 0;
}

std::string plural(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// A hash shown short in a table ("f1620…7b7480"), whole in its code span's title text.
std::string short_hash(const std::string& h) {
  return h.size() > 24 ? markdown_code(h.substr(0, 9) + "…" + h.substr(h.size() - 8))
                       : markdown_code(h);
}

void row(std::string& out, std::initializer_list<std::string> cells) {
  out += "|";
  for (const auto& c : cells) out += " " + c + " |";
  out += "\n";
}

// A problem's expected or actual value for people, as the text report writes it
// (ProblemValue::to_string): a number with its unit ("2044 bytes", "3 link values"), a text as
// it is.
std::string value_text(const json& p, const char* key) {
  auto it = p.find(key);
  if (it == p.end() || !it->is_number_unsigned()) return str(p, key);
  ProblemUnit unit = ProblemUnit::kNone;
  for (auto u : {ProblemUnit::kBytes, ProblemUnit::kRows, ProblemUnit::kLinkValues}) {
    if (str(p, "unit") == problem_unit_name(u)) unit = u;
  }
  return ProblemValue::number(it->get<uint64_t>()).to_string(unit);
}

// ---- verify ------------------------------------------------------------------------------

void verify_problems(std::string& out, const json& d) {
  const json& problems = d["problems"];
  if (!problems.is_array() || problems.empty()) return;
  out +=
      "\n#### " + markdown_code(str(d, "path")) + ": " + markdown_text(str(d, "verdict")) + "\n\n";
  size_t n = 0;
  for (const json& p : problems) {
    out += std::to_string(++n) + ". **" + markdown_text(str(p, "kind")) +
           "**: " + markdown_text(str(p, "message"));
    if (!str(p, "file").empty()) out += " " + markdown_code(str(p, "file"));
    if (p.contains("sequence_number") && p["sequence_number"].is_number()) {
      out += " (block " + str(p, "sequence_number") + ")";
    }
    if (!str(p, "expected").empty() || !str(p, "actual").empty()) {
      out += ": expected " + markdown_code(value_text(p, "expected")) + ", actual " +
             markdown_code(value_text(p, "actual"));
    }
    out += "\n";
  }
}

// ---- compare -----------------------------------------------------------------------------

void sides_table(std::string& out, const json& doc, std::initializer_list<const char*> keys) {
  out += "\n";
  row(out, {"", "original", "reproduced"});
  row(out, {"---", "---", "---"});
  for (const char* key : keys) {
    const std::string a = str(doc["original"], key), b = str(doc["reproduced"], key);
    if (a.empty() && b.empty()) continue;
    const bool hash = std::string_view(key) == "physical" || std::string_view(key) == "logical" ||
                      std::string_view(key) == "unordered";
    row(out,
        {key, hash ? short_hash(a) : markdown_code(a), hash ? short_hash(b) : markdown_code(b)});
  }
}

void differences_table(std::string& out, const json& differences) {
  if (!differences.is_array() || differences.empty()) return;
  out += "\n**Where** (the first rows of each column):\n\n";
  row(out, {"column", "rows differing", "row", "offset", "original", "reproduced"});
  row(out, {"---", "---:", "---:", "---:", "---", "---"});
  for (const json& c : differences) {
    bool first = true;
    for (const json& r : c["rows"]) {
      row(out,
          {first ? markdown_code(str(c, "column")) : "",
           first ? std::to_string(num(c, "differing_rows")) : "", str(r, "row"), str(r, "offset"),
           markdown_code(str(r, "original")), markdown_code(str(r, "reproduced"))});
      first = false;
    }
    if (first) {
      row(out, {markdown_code(str(c, "column")), std::to_string(num(c, "differing_rows")), "", "",
                "", ""});
    }
  }
}

void schema_and_causes(std::string& out, const json& doc) {
  if (doc.contains("schema_differences") && !doc["schema_differences"].empty()) {
    out += "\n**Schema differences**:\n\n";
    for (const json& d : doc["schema_differences"]) {
      std::string line = "- " + markdown_code(str(d, "field")) + ": " +
                         markdown_text(str(d, "kind")) + " " + markdown_code(str(d, "original")) +
                         " → " + markdown_code(str(d, "reproduced"));
      if (d.contains("changes_hash") && d["changes_hash"].is_boolean()) {
        line +=
            d["changes_hash"].get<bool>() ? " (changes the hash)" : " (does not change the hash)";
      }
      out += line + "\n";
    }
  }
  if (doc.contains("causes") && !doc["causes"].empty()) {
    out += "\n**Why**:\n\n";
    for (const json& c : doc["causes"]) {
      out += "- " + markdown_text(str(c, "text")) + "\n";
    }
  }
}

std::string files_markdown(const json& doc) {
  const bool verified = doc.value("verified", false);
  std::string out = std::string("### odf-hash compare: ") + (verified ? "✅" : "❌") + " " +
                    (verified ? "verified" : "NOT verified") + ": " +
                    markdown_text(str(doc, "verdict")) + " (arrow0), records " +
                    markdown_text(str(doc, "records")) + "\n";
  if (doc.contains("tolerance")) {
    const json& t = doc["tolerance"];
    out += std::string("\nWithin tolerance (rtol ") + str(t, "rtol") + ", atol " + str(t, "atol") +
           "): " + (t.value("within", false) ? "**yes**" : "**no**") + "\n";
  }
  if (doc.contains("ignored_columns")) {
    out += "\nColumns ignored: ";
    bool first = true;
    for (const json& c : doc["ignored_columns"]) {
      out += (first ? "" : ", ") + markdown_code(c.get<std::string>());
      first = false;
    }
    out += "\n";
  }
  sides_table(out, doc, {"path", "rows", "physical", "logical"});
  differences_table(out, doc.contains("differences") ? doc["differences"] : json());
  schema_and_causes(out, doc);
  return out;
}

void record_list(std::string& out, const char* title, const json& side, const char* examples,
                 uint64_t count) {
  if (count == 0) return;
  out += "\n**" + std::string(title) + "**: " + plural(count, "row", "rows") + "\n\n";
  for (const json& e : side[examples]) {
    out += "- row " + str(e, "row") + ": " + markdown_code(str(e, "values")) + "\n";
  }
}

std::string keyed_markdown(const json& doc) {
  const bool same = doc.value("same_records", false);
  std::string key;
  for (const json& k : doc["key"]) key += (key.empty() ? "" : ", ") + k.get<std::string>();
  std::string out = std::string("### odf-hash compare --key ") + markdown_text(key) + ": " +
                    (same ? "✅ same records" : "❌ different records") + "\n\n" +
                    plural(num(doc, "matched_keys"), "key", "keys") + " on both sides, " +
                    plural(num(doc, "changed_keys"), "key changed", "keys changed") + ", " +
                    std::to_string(num(doc["original"], "only_here")) +
                    " row(s) only in the original, " +
                    std::to_string(num(doc["reproduced"], "only_here")) +
                    " only in the reproduction (rows matched by key; not the ODF hash)\n";
  sides_table(out, doc, {"path", "rows"});
  record_list(out, "Only in the original", doc["original"], "only_examples",
              num(doc["original"], "only_here"));
  record_list(out, "Only in the reproduction", doc["reproduced"], "only_examples",
              num(doc["reproduced"], "only_here"));
  if (!doc["changes"].empty()) {
    out += "\n**Changed** (the first keys):\n\n";
    row(out, {"key", "column", "original", "reproduced"});
    row(out, {"---", "---", "---", "---"});
    for (const json& c : doc["changes"]) {
      bool first = true;
      for (const json& v : c["values"]) {
        row(out, {first ? markdown_code(str(c, "key")) : "", markdown_code(str(v, "column")),
                  markdown_code(str(v, "original")), markdown_code(str(v, "reproduced"))});
        first = false;
      }
    }
  }
  schema_and_causes(out, doc);
  return out;
}

std::string unordered_markdown(const json& doc) {
  const bool same = doc.value("same_records", false);
  std::string out = std::string("### odf-hash compare --ignore-order: ") +
                    (same ? "✅ same records" : "❌ different records") +
                    " (row order ignored; not the ODF hash)\n";
  sides_table(out, doc, {"path", "rows", "unordered"});
  record_list(out, "Only in the original", doc["original"], "examples",
              num(doc["original"], "only_here"));
  record_list(out, "Only in the reproduction", doc["reproduced"], "examples",
              num(doc["reproduced"], "only_here"));
  schema_and_causes(out, doc);
  return out;
}

std::string datasets_markdown(const json& doc) {
  const std::string verdict = str(doc, "verdict");
  const char* mark = verdict == "same-records" ? "✅" : "❌";
  std::string out =
      "### odf-hash compare (datasets): " + std::string(mark) + " " + markdown_text(verdict) + "\n";
  const json& s = doc["summary"];
  out += "\n" + plural(num(s, "runs"), "run", "runs") +
         " of slices: " + std::to_string(num(s, "same")) + " same, " +
         std::to_string(num(s, "different")) + " different, " +
         std::to_string(num(s, "not_compared")) + " not compared; offsets only in the original: " +
         std::to_string(num(s, "offsets_only_in_original")) +
         ", only in the reproduction: " + std::to_string(num(s, "offsets_only_in_reproduced")) +
         "\n\n";
  row(out, {"offsets", "verdict"});
  row(out, {"---", "---"});
  for (const json& r : doc["slices"]) {
    row(out,
        {"[" + str(r, "start") + ", " + str(r, "end") + "]", markdown_text(str(r, "verdict"))});
  }
  return out;
}

}  // namespace

std::string markdown_text(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n' || c == '\r') {
      out += ' ';
    } else if (std::string_view("|`*_<>[]\\").find(c) != std::string_view::npos) {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  }
  return out;
}

std::string markdown_code(const std::string& text) {
  if (text.empty()) return "";
  std::string body;
  for (char c : text) body += (c == '\n' || c == '\r') ? ' ' : c;
  // A code span can hold backticks when fenced by a longer run of them; '|' still ends a
  // table cell in GitHub's tables, so it is escaped (rendered as '|' inside the span).
  std::string fence = "`";
  for (size_t run = 0, i = 0; i < body.size(); ++i) {
    run = body[i] == '`' ? run + 1 : 0;
    if (run >= fence.size()) fence = std::string(run + 1, '`');
  }
  std::string escaped;
  for (char c : body) {
    if (c == '|') escaped += '\\';
    escaped += c;
  }
  const bool pad = escaped.front() == '`' || escaped.back() == '`';
  return fence + (pad ? " " : "") + escaped + (pad ? " " : "") + fence;
}

std::string verify_markdown(const json& doc) {
  const json& s = doc["summary"];
  const uint64_t total = num(s, "datasets"), valid = num(s, "valid");
  std::string out = "### odf-hash verify: ";
  if (total > 0 && valid == total) {
    out += "✅ " + plural(total, "dataset", "datasets") + ", all VALID\n";
  } else {
    out += "❌ " + std::to_string(total - valid) + " of " + plural(total, "dataset", "datasets") +
           " not VALID (" + std::to_string(num(s, "invalid")) + " INVALID, " +
           std::to_string(num(s, "errors")) + " could not be verified)\n";
  }
  out += "\n";
  row(out, {"dataset", "verdict", "blocks", "problems"});
  row(out, {"---", "---", "---:", "---:"});
  for (const json& d : doc["datasets"]) {
    std::string name = str(d, "alias").empty() ? str(d, "path") : str(d, "alias");
    if (d.contains("error")) {
      row(out, {markdown_code(name), "**ERROR**: " + markdown_text(str(d, "error")), "", ""});
      continue;
    }
    const std::string verdict = str(d, "verdict");
    const bool ok = d.value("valid", false);
    row(out,
        {markdown_code(name), ok ? markdown_text(verdict) : "**" + markdown_text(verdict) + "**",
         str(d, "blocks"), std::to_string(d["problems"].size())});
  }
  for (const json& d : doc["datasets"]) {
    if (!d.contains("error")) verify_problems(out, d);
  }
  return out;
}

std::string compare_markdown(const json& doc) {
  const std::string mode = str(doc, "mode");
  if (mode == "key") return keyed_markdown(doc);
  if (mode == "ignore-order") return unordered_markdown(doc);
  if (doc.contains("slices")) return datasets_markdown(doc);
  return files_markdown(doc);
}

}  // namespace odf_hash::cli
