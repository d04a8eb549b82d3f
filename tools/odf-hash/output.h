// Small helpers shared by the commands' output code.
#pragma once

#include <string>
#include <string_view>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "odf_hash/core/status.h"
#include "odf_hash/core/text.h"  // escape_text, redact_url

namespace odf_hash::cli {

// Every function here shows URLs without their user information (redact_url, text.h).

// Prints "odf-hash: <message>" on stderr.
void print_error(std::string_view message);

// The documents `--json` prints, each described by a published JSON Schema,
// docs/schemas/<name>.schema.json (the names below). print_json adds the field
// "schema": "odf-hash/<name>/<version>" so that a program can tell what it reads; the version
// changes when a field changes its type or meaning or goes away, not when one is added.
enum class JsonDoc {
  kPhysical,          // physical FILE...
  kLogical,           // logical FILE...
  kCheck,             // physical -c / logical -c LIST...
  kSlice,             // slice FILE
  kDecode,            // decode HASH
  kVerify,            // verify DATASET|WORKSPACE, verify --pins FILE
  kVerifyQuery,       // verify-query ANSWER
  kCompareFiles,      // compare FILE FILE
  kCompareUnordered,  // compare --ignore-order FILE FILE
  kCompareKeyed,      // compare --key COLS FILE FILE
  kCompareDatasets,   // compare DATASET DATASET
  kFetch,             // fetch SOURCE DEST
};
// "odf-hash/<name>/<version>" of a document kind.
std::string json_schema_id(JsonDoc kind);

// Writes one JSON document of `kind` (its "schema" field added) and a newline on stdout
// (every string redacted). Bytes that are not UTF-8 (file names can hold any bytes) are
// replaced by U+FFFD rather than failing.
void print_json(nlohmann::json doc, JsonDoc kind);

// How print_json prints the command's document from now on: through `render` (`--format
// markdown`: markdown.h) instead of as JSON; the document is redacted first either way.
using DocumentRenderer = std::string (*)(const nlohmann::json&);
void set_document_renderer(DocumentRenderer render);

// Adds `--format text|json|markdown` to `app` (json sets `json`; markdown sets it too and
// makes print_json render the document with `markdown`).
struct FormatChoice {
  std::string format = "text";
};
void add_format_option(CLI::App* app, FormatChoice& choice, const char* markdown_help);
// After parsing: sets `json` (and the renderer) from the choice.
void apply_format(const FormatChoice& choice, bool& json, DocumentRenderer markdown);

// A file name for a "name: OK" style line: as is, or with a leading backslash and "\\",
// "\n", "\r" escaped when it holds one of those, as coreutils does.
std::string escape_name(std::string_view name);

// The reason part of a Status about `path`: its message without the leading "<path>: ".
std::string reason_of(const Status& status, std::string_view path);

// Whether a command-line name is a stream rather than a file: "-" (standard input), or a
// local path that is a pipe, FIFO, terminal, socket or character device ("/dev/stdin",
// "<(cmd)"). Streams can be read once only, so they are read one at a time, in argument
// order (run_ordered's `serial`).
bool is_stream_argument(const std::string& name);

// Reads a whole file ("-" = standard input) into memory, for small inputs such as check
// lists. The error message names the path.
Result<std::string> read_small_file(const std::string& path);

}  // namespace odf_hash::cli
