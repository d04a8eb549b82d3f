// The parser of json_tree.h: nlohmann::json's SAX events into a tree kept open where asked,
// canonical text elsewhere.
#include "json_tree.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "odf_hash/core/text.h"
#include "odf_hash/io/store.h"
#include "odf_hash/query/canonical_json.h"

namespace odf_hash::query::detail {

const JsonNode* JsonNode::get(std::string_view key) const noexcept {
  if (kind != Kind::kObject) return nullptr;
  auto it = std::lower_bound(members.begin(), members.end(), key,
                             [](const JsonMember& m, std::string_view k) { return m.key < k; });
  return it != members.end() && it->key == key ? &it->value : nullptr;
}

const char* kind_description(const JsonNode& node) noexcept {
  switch (node.kind) {
    case JsonNode::Kind::kNull: return "null";
    case JsonNode::Kind::kTrue:
    case JsonNode::Kind::kFalse: return "a boolean";
    case JsonNode::Kind::kNumber: return "a number";
    case JsonNode::Kind::kString: return "a string";
    case JsonNode::Kind::kArray: return "an array";
    case JsonNode::Kind::kObject: return "an object";
    case JsonNode::Kind::kCanonical:
      return !node.text.empty() && node.text[0] == '{' ? "an object" : "an array";
  }
  return "a value";
}

namespace {

// The text of each number, from the document: the next number token after the previous one.
// The parser has read the document up to and including that token, so what lies between is
// valid JSON, where a '-' or a digit outside a string starts a number.
class NumberCursor {
 public:
  explicit NumberCursor(std::string_view text) : text_(text) {}

  std::string_view next() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '"') {
        for (++pos_; pos_ < text_.size() && text_[pos_] != '"'; ++pos_) {
          if (text_[pos_] == '\\') ++pos_;
        }
        ++pos_;
      } else if (c == '-' || (c >= '0' && c <= '9')) {
        const size_t start = pos_;
        while (pos_ < text_.size() && is_number_char(text_[pos_])) ++pos_;
        return text_.substr(start, pos_ - start);
      } else {
        ++pos_;
      }
    }
    return {};
  }

 private:
  static bool is_number_char(char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
  }
  std::string_view text_;
  size_t pos_ = 0;
};

// "input.datasets[0].id"; "the document" for the root. A key that is not a plain name is
// quoted (canonical escapes) and cut, so that a hostile key cannot forge a message.
std::string path_text(std::span<const PathStep> path) {
  // A deep path shows its first and last steps (a hostile document nests thousands).
  constexpr size_t kShownSteps = 8;
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) {
    if (path.size() > 2 * kShownSteps && i == kShownSteps) {
      out += "...(" + std::to_string(path.size() - 2 * kShownSteps) + " levels)...";
      i = path.size() - kShownSteps;
    }
    const PathStep& s = path[i];
    if (s.in_array) {
      out += "[" + std::to_string(s.index) + "]";
      continue;
    }
    const bool plain =
        !s.key.empty() && s.key.size() <= 64 && std::all_of(s.key.begin(), s.key.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
        });
    if (plain) {
      if (!out.empty()) out += '.';
      out += s.key;
    } else {
      out += '[';
      (void)append_canonical_string(out, s.key.substr(0, 64));
      out += ']';
    }
  }
  return out.empty() ? "the document" : out;
}

std::string scalar_text(const JsonNode& n) {
  switch (n.kind) {
    case JsonNode::Kind::kNull: return "null";
    case JsonNode::Kind::kTrue: return "true";
    case JsonNode::Kind::kFalse: return "false";
    case JsonNode::Kind::kString: {
      std::string out;
      (void)append_canonical_string(out, n.text);  // the parser checked the UTF-8
      return out;
    }
    default: return n.text;  // kNumber, kCanonical
  }
}

class TreeBuilder {
 public:
  using json = nlohmann::json;

  TreeBuilder(std::string_view text, const KeepOpen& keep_open)
      : numbers_(text), keep_open_(keep_open) {}

  bool null() { return add(JsonNode{JsonNode::Kind::kNull}); }
  bool boolean(bool v) { return add(JsonNode{v ? JsonNode::Kind::kTrue : JsonNode::Kind::kFalse}); }
  bool number_integer(json::number_integer_t) { return number(); }
  bool number_unsigned(json::number_unsigned_t) { return number(); }
  bool number_float(json::number_float_t, const std::string&) { return number(); }
  bool string(std::string& v) { return add(JsonNode{JsonNode::Kind::kString, std::move(v)}); }
  bool binary(json::binary_t&) { return fail("binary values are not JSON"); }
  bool key(std::string& k) {
    stack_.back().key = std::move(k);
    return true;
  }
  bool start_object(size_t) { return start(true); }
  bool start_array(size_t) { return start(false); }
  bool end_object() { return end(); }
  bool end_array() { return end(); }
  bool parse_error(size_t position, const std::string&, const nlohmann::detail::exception& e) {
    // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..."
    std::string what = e.what();
    if (const size_t at = what.find("] "); at != std::string::npos) what.erase(0, at + 2);
    // Its "last read: '...'" quotes the document (any bytes, up to a whole string): cut and
    // escaped like any untrusted text.
    error_ = Status::parse_error("malformed JSON (byte " + std::to_string(position) +
                                 "): " + escape_untrusted(what, 200));
    return false;
  }

  Result<JsonNode> take() {
    if (!error_.is_ok()) return error_;
    if (!root_) return Status::parse_error("malformed JSON: no value");
    return std::move(*root_);
  }

  const Status& error() const { return error_; }

 private:
  struct MemberRef {
    size_t at = 0;  // in Frame::text
    size_t key_size = 0;
    size_t value_size = 0;
  };

  struct Frame {
    bool object = false;
    bool open = false;
    PathStep step;  // where this container is in its parent
    JsonNode node;  // open: the container
    // Not open: an array's canonical text so far; an object's members, each its key (raw)
    // then its value (canonical), where `members` says (one buffer: a member costs its
    // text and 24 bytes, not two strings and a pair).
    std::string text;
    std::vector<MemberRef> members;
    std::string key;  // the key of the member being read
    size_t count = 0;
  };

  bool number() { return add(JsonNode{JsonNode::Kind::kNumber, std::string(numbers_.next())}); }

  bool fail(std::string why) {
    error_ = Status::parse_error(std::move(why));
    return false;
  }

  // The path to the child about to be read in the top frame.
  PathStep child_step() const {
    const Frame& f = stack_.back();
    return f.object ? PathStep{f.key, 0, false} : PathStep{"", f.count, true};
  }

  std::vector<PathStep> path_to_child() const {
    std::vector<PathStep> path;
    for (size_t i = 1; i < stack_.size(); ++i) path.push_back(stack_[i].step);
    if (!stack_.empty()) path.push_back(child_step());
    return path;
  }

  bool start(bool object) {
    if (stack_.size() >= kMaxJsonDepth) {
      return fail("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels at " +
                  path_text(path_to_child()));
    }
    Frame f;
    f.object = object;
    if (!stack_.empty()) f.step = child_step();
    f.open = stack_.empty() || stack_.back().open ? keep_open_(path_to_child()) : false;
    if (f.open) f.node.kind = object ? JsonNode::Kind::kObject : JsonNode::Kind::kArray;
    if (!f.open && !object) f.text = "[";
    stack_.push_back(std::move(f));
    return true;
  }

  bool end() {
    Frame f = std::move(stack_.back());
    std::optional<std::string> duplicate =
        f.open ? sort_members(f.node.members) : sort_buffered_members(f);
    if (duplicate) {
      std::string key;
      (void)append_canonical_string(key, duplicate->substr(0, 64));
      return fail("the key " + key + " appears twice in the object at " + path_text(path_of_top()));
    }
    stack_.pop_back();
    if (f.open) return add(std::move(f.node));
    std::string text;
    if (f.object) {
      text.reserve(f.text.size() + 4 * f.members.size() + 2);
      text = "{";
      for (size_t i = 0; i < f.members.size(); ++i) {
        const MemberRef& m = f.members[i];
        if (i != 0) text += ',';
        (void)append_canonical_string(text, std::string_view(f.text).substr(m.at, m.key_size));
        text += ':';
        text.append(f.text, m.at + m.key_size, m.value_size);
      }
      text += '}';
    } else {
      text = std::move(f.text);
      text += ']';
    }
    return add(JsonNode{JsonNode::Kind::kCanonical, std::move(text)});
  }

  // The path of the container on top of the stack (for messages).
  std::vector<PathStep> path_of_top() const {
    std::vector<PathStep> path;
    for (size_t i = 1; i < stack_.size(); ++i) path.push_back(stack_[i].step);
    return path;
  }

  // Sorts members by key; the key named twice, if any.
  static std::optional<std::string> sort_members(std::vector<JsonMember>& members) {
    std::sort(members.begin(), members.end(),
              [](const JsonMember& a, const JsonMember& b) { return a.key < b.key; });
    for (size_t i = 1; i < members.size(); ++i) {
      if (members[i].key == members[i - 1].key) return members[i].key;
    }
    return std::nullopt;
  }

  // Sorts a buffered object's members by key (bytes); the key named twice, if any.
  static std::optional<std::string> sort_buffered_members(Frame& f) {
    const std::string_view bytes = f.text;
    const auto key = [&](const MemberRef& m) { return bytes.substr(m.at, m.key_size); };
    std::sort(f.members.begin(), f.members.end(),
              [&](const MemberRef& a, const MemberRef& b) { return key(a) < key(b); });
    for (size_t i = 1; i < f.members.size(); ++i) {
      if (key(f.members[i]) == key(f.members[i - 1])) return std::string(key(f.members[i]));
    }
    return std::nullopt;
  }

  bool add(JsonNode value) {
    if (stack_.empty()) {
      root_ = std::move(value);
      return true;
    }
    Frame& f = stack_.back();
    if (f.open) {
      if (++tree_values_ > kMaxTreeValues) {
        return fail("more than " + std::to_string(kMaxTreeValues) + " values at " +
                    path_text(path_of_top()) + " (an answer's envelope holds a few)");
      }
      if (f.object) {
        f.node.members.push_back(JsonMember{std::move(f.key), std::move(value)});
      } else {
        f.node.items.push_back(std::move(value));
      }
    } else if (f.object) {
      MemberRef m{f.text.size(), f.key.size(), 0};
      f.text += f.key;
      if (value.kind == JsonNode::Kind::kCanonical) {
        f.text += value.text;
        std::string().swap(value.text);
      } else {
        f.text += scalar_text(value);
      }
      m.value_size = f.text.size() - m.at - m.key_size;
      f.members.push_back(m);
    } else {
      if (f.count != 0) f.text += ',';
      f.text += value.kind == JsonNode::Kind::kCanonical ? value.text : scalar_text(value);
    }
    ++f.count;
    return true;
  }

  size_t tree_values_ = 0;  // values in containers kept open
  NumberCursor numbers_;
  const KeepOpen& keep_open_;
  std::vector<Frame> stack_;
  std::optional<JsonNode> root_;
  Status error_;
};

}  // namespace

Result<JsonNode> parse_json(std::string_view text, const KeepOpen& keep_open) {
  // nlohmann's lexer skips a UTF-8 byte order mark; RFC 8259 and serde_json do not read one.
  if (text.starts_with("\xEF\xBB\xBF")) {
    return Status::parse_error("malformed JSON (byte 0): a byte order mark");
  }
  TreeBuilder builder(text, keep_open);
  const bool ok = nlohmann::json::sax_parse(text.begin(), text.end(), &builder,
                                            nlohmann::json::input_format_t::json,
                                            /*strict=*/true, /*ignore_comments=*/false);
  if (!ok && builder.error().is_ok()) return Status::parse_error("malformed JSON");
  return builder.take();
}

void write_canonical(const JsonNode& node, const std::function<void(std::string_view)>& sink) {
  switch (node.kind) {
    case JsonNode::Kind::kArray:
      sink("[");
      for (size_t i = 0; i < node.items.size(); ++i) {
        if (i != 0) sink(",");
        write_canonical(node.items[i], sink);
      }
      sink("]");
      return;
    case JsonNode::Kind::kObject: {
      sink("{");
      std::string key;
      for (size_t i = 0; i < node.members.size(); ++i) {
        key.clear();
        if (i != 0) key += ',';
        (void)append_canonical_string(key, node.members[i].key);
        key += ':';
        sink(key);
        write_canonical(node.members[i].value, sink);
      }
      sink("}");
      return;
    }
    case JsonNode::Kind::kNumber:
    case JsonNode::Kind::kCanonical: sink(node.text); return;
    default: sink(scalar_text(node)); return;
  }
}

std::string canonical_text(const JsonNode& node) {
  std::string out;
  write_canonical(node, [&](std::string_view piece) { out += piece; });
  return out;
}

}  // namespace odf_hash::query::detail
