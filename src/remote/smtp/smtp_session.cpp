#include "smtp/smtp_session.h"

#include <chrono>
#include <memory>
#include <utility>

#include <cstdlib>
#include <variant>

#include <openssl/ssl.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <nlohmann/json.hpp>

#include "odf_hash/core/text.h"

namespace odf_hash::remote::smtp {

namespace {

namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
namespace websocket = boost::beast::websocket;
namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
using tcp = net::ip::tcp;
using PlainWs = websocket::stream<beast::tcp_stream>;
using TlsWs = websocket::stream<beast::ssl_stream<beast::tcp_stream>>;

constexpr size_t kObjectBatch = 1000;

std::chrono::milliseconds ms(double seconds) {
  return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
}

struct UrlParts {
  std::string host, port, target;
  bool tls = false;  // https: the WebSocket runs over TLS (wss)
};

Result<UrlParts> split_url(const std::string& url, const std::string& shown) {
  const size_t scheme = url.find("://");
  const std::string name = scheme == std::string::npos ? "" : url.substr(0, scheme);
  if (name != "http" && name != "https") {
    return Status::invalid_argument(shown +
                                    ": the Smart Transfer Protocol is spoken over "
                                    "odf+http:// or odf+https://");
  }
  const size_t host_start = scheme + 3;
  const size_t slash = url.find('/', host_start);
  std::string authority = url.substr(host_start, slash - host_start);
  if (const size_t at = authority.rfind('@'); at != std::string::npos) authority.erase(0, at + 1);
  UrlParts p;
  p.tls = name == "https";
  p.target = slash == std::string::npos ? "/" : url.substr(slash);
  const size_t colon = authority.rfind(':');
  if (colon != std::string::npos && authority.find(']') == std::string::npos) {
    p.host = authority.substr(0, colon);
    p.port = authority.substr(colon + 1);
  } else {
    p.host = authority;
    p.port = p.tls ? "443" : "80";
  }
  if (p.host.empty() || p.port.empty()) return Status::invalid_argument(shown + ": no host");
  if (p.host.front() == '[' && p.host.back() == ']') p.host = p.host.substr(1, p.host.size() - 2);
  while (p.target.size() > 1 && p.target.back() == '/') p.target.pop_back();
  return p;
}

// {"payload":[31,139,…]} of the blocks message, read without building the array (a chain of
// many blocks is tens of MB of JSON).
class BlocksSax final : public nlohmann::json_sax<nlohmann::json> {
 public:
  std::vector<uint8_t> payload;
  std::string media_type, encoding, error;
  bool saw_blocks = false, bad_byte = false;

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t v) override {
    return v >= 0 ? number_unsigned(static_cast<number_unsigned_t>(v)) : byte_fault();
  }
  bool number_unsigned(number_unsigned_t v) override {
    if (in_payload_ && depth_ == 3) {
      if (v > 255) return byte_fault();
      payload.push_back(static_cast<uint8_t>(v));
    }
    return true;
  }
  bool number_float(number_float_t, const string_t&) override {
    return in_payload_ && depth_ == 3 ? byte_fault() : true;
  }
  bool string(string_t& v) override {
    if (depth_ == 2 && key_ == "media_type") media_type = v;
    if (depth_ == 2 && key_ == "encoding") encoding = v;
    return true;
  }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    ++depth_;
    if (depth_ == 2 && key_ == "blocks") saw_blocks = true;
    if (depth_ == 2 && key_ == "Err") error = "an error";
    return true;
  }
  bool end_object() override {
    --depth_;
    return true;
  }
  bool start_array(std::size_t) override {
    ++depth_;
    in_payload_ = depth_ == 3 && key_ == "payload";
    return true;
  }
  bool end_array() override {
    in_payload_ = false;
    --depth_;
    return true;
  }
  bool key(string_t& k) override {
    key_ = k;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  bool byte_fault() {
    bad_byte = true;
    return false;
  }
  int depth_ = 0;
  bool in_payload_ = false;
  std::string key_;
};

// "the node's error: <json>", for an {"Err":…} answer.
std::string error_text(const std::string& json) {
  return "the node answered an error: " + escape_text(json.substr(0, 300));
}

}  // namespace

struct PullSession::Impl {
  net::io_context ioc;
  // odf+https://: the node's certificate is checked against the system's certificates, or
  // those $CURL_CA_BUNDLE names (as for https:// URLs, curl_client.cpp), and its name against
  // the host's. Declared before the stream, which refers to it.
  ssl::context tls{ssl::context::tls_client};
  std::variant<std::monostate, PlainWs, TlsWs> ws;
  std::string shown;
  SessionOptions options;

  // f(the WebSocket stream), whichever it is.
  template <class F>
  decltype(auto) with_ws(F&& f) {
    if (auto* secure = std::get_if<TlsWs>(&ws)) return f(*secure);
    return f(std::get<PlainWs>(ws));
  }
  beast::tcp_stream& tcp_layer() {
    return with_ws([](auto& w) -> beast::tcp_stream& { return beast::get_lowest_layer(w); });
  }

  // Runs the io_context until `done` (set by the operation's handler), checking the
  // cancellation flag every 100 ms.
  Status run(const bool& done) {
    ioc.restart();
    while (!done) {
      // One handler at a time: a pending timer of the WebSocket (its idle timeout) must not
      // hold the loop for its slice once the operation is done.
      ioc.run_one_for(std::chrono::milliseconds(100));
      if (done) break;
      if (cancel_requested(options.cancel)) {
        tcp_layer().cancel();
        ioc.restart();
        ioc.run();
        return cancelled_status(shown);
      }
      if (ioc.stopped()) ioc.restart();
    }
    return Status::ok();
  }

  Status write(const std::string& text) {
    bool done = false;
    beast::error_code ec;
    with_ws([&](auto& w) {
      w.text(true);
      w.async_write(net::buffer(text), [&](beast::error_code e, std::size_t) {
        ec = e;
        done = true;
      });
    });
    ODF_HASH_RETURN_IF_ERROR(run(done));
    if (ec) return Status::io_error(shown + ": the WebSocket failed: " + ec.message());
    return Status::ok();
  }

  // The next message, as text (the protocol sends only text frames).
  Result<std::string> read() {
    beast::flat_buffer buffer;
    bool done = false;
    beast::error_code ec;
    with_ws([&](auto& w) {
      w.async_read(buffer, [&](beast::error_code e, std::size_t) {
        ec = e;
        done = true;
      });
    });
    ODF_HASH_RETURN_IF_ERROR(run(done));
    if (ec == websocket::error::closed) {
      const websocket::close_reason reason = with_ws([](auto& w) { return w.reason(); });
      std::string why(reason.reason.data(), reason.reason.size());
      return Status::io_error(shown + ": the node closed the connection (code " +
                              std::to_string(reason.code) + ")" +
                              (why.empty() ? "" : ": " + error_text(why)));
    }
    if (ec == websocket::error::message_too_big) {
      return Status::io_error(shown + ": the node's answer is larger than " +
                              format_bytes(kMaxMessageBytes) + " (not read)");
    }
    if (ec == beast::error::timeout) {
      return Status::io_error(shown + ": no answer from the node for " +
                              std::to_string(static_cast<int>(options.read_timeout_s)) + " s");
    }
    if (ec) {
      return Status::io_error(shown + ": the WebSocket failed: " + ec.message() +
                              " (a node drops the connection without a word after a request "
                              "it cannot read)");
    }
    if (!with_ws([](auto& w) { return w.got_text(); }))
      return Status::io_error(shown + ": the node sent a binary frame");
    return beast::buffers_to_string(buffer.data());
  }
};

PullSession::PullSession(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PullSession::PullSession(PullSession&&) noexcept = default;
PullSession& PullSession::operator=(PullSession&&) noexcept = default;
PullSession::~PullSession() = default;

Result<PullSession> PullSession::connect(const std::string& http_url, const std::string& shown,
                                         const SessionOptions& options) {
  ODF_HASH_ASSIGN_OR_RETURN(UrlParts url, split_url(http_url, shown));
  auto impl = std::make_unique<Impl>();
  impl->shown = shown;
  impl->options = options;
  Impl& s = *impl;
  if (url.tls) {
    beast::error_code tls_ec;
    s.tls.set_verify_mode(ssl::verify_peer, tls_ec);
    const char* ca = std::getenv("CURL_CA_BUNDLE");
    if (ca != nullptr && ca[0] != '\0') {
      s.tls.load_verify_file(ca, tls_ec);
      if (tls_ec) {
        return Status::io_error(shown + ": cannot read the certificates of $CURL_CA_BUNDLE (" +
                                escape_text(ca) + "): " + tls_ec.message());
      }
    } else {
      s.tls.set_default_verify_paths(tls_ec);
    }
    s.ws.emplace<TlsWs>(s.ioc, s.tls);
  } else {
    s.ws.emplace<PlainWs>(s.ioc);
  }
  beast::tcp_stream& tcp_layer = s.tcp_layer();

  tcp::resolver resolver(s.ioc);
  bool done = false;
  beast::error_code ec;
  tcp::resolver::results_type endpoints;
  resolver.async_resolve(url.host, url.port,
                         [&](beast::error_code e, tcp::resolver::results_type r) {
                           ec = e;
                           endpoints = std::move(r);
                           done = true;
                         });
  ODF_HASH_RETURN_IF_ERROR(s.run(done));
  if (ec) return Status::io_error(shown + ": cannot resolve " + url.host + ": " + ec.message());

  done = false;
  tcp_layer.expires_after(ms(options.connect_timeout_s));
  tcp_layer.async_connect(endpoints, [&](beast::error_code e, const tcp::endpoint&) {
    ec = e;
    done = true;
  });
  ODF_HASH_RETURN_IF_ERROR(s.run(done));
  if (ec) return Status::io_error(shown + ": cannot reach the node: " + ec.message());

  if (auto* secure = std::get_if<TlsWs>(&s.ws)) {
    // The host's name in the TLS hello (SNI) and checked against the certificate.
    auto& stream = secure->next_layer();
    if (SSL_set_tlsext_host_name(stream.native_handle(), url.host.c_str()) != 1) {
      return Status::io_error(shown + ": cannot name the host in the TLS handshake");
    }
    stream.set_verify_callback(ssl::host_name_verification(url.host));
    done = false;
    tcp_layer.expires_after(ms(options.connect_timeout_s + options.read_timeout_s));
    stream.async_handshake(ssl::stream_base::client, [&](beast::error_code e) {
      ec = e;
      done = true;
    });
    ODF_HASH_RETURN_IF_ERROR(s.run(done));
    if (ec) {
      return Status::io_error(shown + ": the TLS handshake with the node failed: " + ec.message() +
                              " (a certificate of a private CA: name its file in "
                              "$CURL_CA_BUNDLE)");
    }
  }

  const std::string authorization =
      options.bearer_token.empty() ? "" : "Bearer " + options.bearer_token;
  s.with_ws([&](auto& w) {
    w.set_option(websocket::stream_base::decorator([authorization](websocket::request_type& req) {
      req.set("x-odf-smtp-version", "1");
      req.set(bhttp::field::user_agent, "odf-hash");
      if (!authorization.empty()) req.set(bhttp::field::authorization, authorization);
    }));
  });
  websocket::response_type response;
  done = false;
  tcp_layer.expires_after(ms(options.connect_timeout_s + options.read_timeout_s));
  s.with_ws([&](auto& w) {
    w.async_handshake(response, url.host + ":" + url.port, url.target + "/pull",
                      [&](beast::error_code e) {
                        ec = e;
                        done = true;
                      });
  });
  ODF_HASH_RETURN_IF_ERROR(s.run(done));
  if (ec == websocket::error::upgrade_declined) {
    const unsigned status = response.result_int();
    if (status == 404) {
      return Status::not_found(shown +
                               ": the node has no such dataset (404; a private dataset "
                               "answers so too)");
    }
    if (status == 401 || status == 403) {
      return Status::io_error(
          shown + ": the node refused access (HTTP " + std::to_string(status) + ")" +
          (authorization.empty() ? ": a private dataset needs a token ($ODF_HASH_BEARER_TOKEN)"
                                 : ": the token in $ODF_HASH_BEARER_TOKEN was not accepted"));
    }
    return Status::io_error(shown + ": the node refused the Smart Transfer Protocol (HTTP " +
                            std::to_string(status) + ": " +
                            escape_text(response.body().substr(0, 200)) + ")");
  }
  if (ec) return Status::io_error(shown + ": the WebSocket handshake failed: " + ec.message());
  tcp_layer.expires_never();
  websocket::stream_base::timeout timeouts{};
  timeouts.handshake_timeout = ms(options.connect_timeout_s);
  timeouts.idle_timeout = ms(options.read_timeout_s);
  timeouts.keep_alive_pings = false;
  s.with_ws([&](auto& w) {
    w.set_option(timeouts);
    w.read_message_max(kMaxMessageBytes);
  });
  return PullSession(std::move(impl));
}

Result<std::vector<uint8_t>> PullSession::pull_blocks(
    const std::optional<std::string>& begin_after) {
  Impl& s = *impl_;
  nlohmann::json request = {{"begin_after", begin_after ? nlohmann::json(*begin_after) : nullptr},
                            {"stop_at", nullptr},
                            {"force_update_if_diverged", false}};
  ODF_HASH_RETURN_IF_ERROR(s.write(request.dump()));
  ODF_HASH_ASSIGN_OR_RETURN(std::string plan_text, s.read());
  const nlohmann::json plan = nlohmann::json::parse(plan_text, nullptr, false);
  if (plan.is_discarded() || !plan.is_object()) {
    return Status::io_error(s.shown + ": the node's transfer plan is not JSON");
  }
  if (plan.contains("Err")) {
    const nlohmann::json& err = plan["Err"];
    if (err.is_object() && err.contains("InvalidInterval")) {
      return Status::invalid_argument(s.shown +
                                      ": the node's history does not contain the "
                                      "block asked to begin after: " +
                                      escape_text(plan_text.substr(0, 300)));
    }
    return Status::io_error(s.shown + ": " + error_text(plan_text));
  }
  if (!plan.contains("Ok")) return Status::io_error(s.shown + ": no transfer plan in the answer");
  ODF_HASH_RETURN_IF_ERROR(s.write("{}"));
  ODF_HASH_ASSIGN_OR_RETURN(std::string blocks_text, s.read());
  BlocksSax sax;
  const bool parsed = nlohmann::json::sax_parse(blocks_text, &sax);
  if (sax.bad_byte) return Status::io_error(s.shown + ": the blocks' payload holds a non-byte");
  if (!parsed || !sax.saw_blocks) {
    return Status::io_error(s.shown + ": " +
                            (sax.error.empty() ? "the blocks message is not "
                                                 "what the protocol sends"
                                               : error_text(blocks_text)));
  }
  if (sax.media_type != "application/tar+gzip" || sax.encoding != "raw") {
    return Status::unsupported(s.shown + ": blocks sent as " + escape_text(sax.media_type) + " / " +
                               escape_text(sax.encoding) +
                               " (only application/tar+gzip, raw, is read)");
  }
  return std::move(sax.payload);
}

Result<std::vector<Download>> PullSession::downloads(const std::vector<ObjectRef>& objects) {
  Impl& s = *impl_;
  std::vector<Download> out;
  for (size_t first = 0; first < objects.size(); first += kObjectBatch) {
    const size_t end = std::min(objects.size(), first + kObjectBatch);
    nlohmann::json files = nlohmann::json::array();
    for (size_t i = first; i < end; ++i) {
      files.push_back({{"object_type", objects[i].checkpoint ? "Checkpoint" : "DataSlice"},
                       {"physical_hash", objects[i].hash},
                       {"size", objects[i].size}});
    }
    ODF_HASH_RETURN_IF_ERROR(s.write(nlohmann::json{{"object_files", files}}.dump()));
    ODF_HASH_ASSIGN_OR_RETURN(std::string text, s.read());
    const nlohmann::json answer = nlohmann::json::parse(text, nullptr, false);
    const nlohmann::json* list = nullptr;
    if (answer.is_object() && answer.contains("object_transfer_strategies")) {
      list = &answer["object_transfer_strategies"];
    }
    if (list == nullptr || !list->is_array() || list->size() != end - first) {
      return Status::io_error(s.shown +
                              ": the node's answer to the objects asked is not one "
                              "download per object: " +
                              escape_text(text.substr(0, 300)));
    }
    for (const auto& strategy : *list) {
      const nlohmann::json* from = strategy.is_object() && strategy.contains("download_from")
                                       ? &strategy["download_from"]
                                       : nullptr;
      if (from == nullptr || !from->is_object() || !from->contains("url") ||
          !(*from)["url"].is_string()) {
        return Status::io_error(s.shown + ": a download without a URL in the node's answer");
      }
      Download d;
      d.url = (*from)["url"].get<std::string>();
      if (from->contains("headers") && (*from)["headers"].is_array()) {
        for (const auto& h : (*from)["headers"]) {
          if (h.is_object() && h.contains("name") && h.contains("value") && h["name"].is_string() &&
              h["value"].is_string()) {
            d.headers.emplace_back(h["name"].get<std::string>(), h["value"].get<std::string>());
          }
        }
      }
      if (from->contains("expires_at") && (*from)["expires_at"].is_string()) {
        d.expires_at = (*from)["expires_at"].get<std::string>();
      }
      out.push_back(std::move(d));
    }
  }
  return out;
}

void PullSession::close() {
  Impl& s = *impl_;
  if (std::holds_alternative<std::monostate>(s.ws)) return;
  if (!s.with_ws([](auto& w) { return w.is_open(); })) return;
  bool done = false;
  s.with_ws([&](auto& w) {
    w.async_close(
        websocket::close_reason(websocket::close_code::normal, "Client pull flow succeeded"),
        [&](beast::error_code) { done = true; });
  });
  s.ioc.restart();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (!done && std::chrono::steady_clock::now() < deadline && !s.ioc.stopped()) {
    s.ioc.run_one_for(std::chrono::milliseconds(100));
  }
}

}  // namespace odf_hash::remote::smtp
