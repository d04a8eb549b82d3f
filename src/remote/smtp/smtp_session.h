// Private to remote/: the pull side of kamu's Smart Transfer Protocol (the ODF protocol kamu
// nodes hand datasets to each other with), as kamu 0.265 speaks it on the wire (measured
// against its node; the spec's AsyncAPI differs):
//   1. a WebSocket to ws://HOST:PORT/<[account/]dataset>/pull (no trailing slash) with the
//      header `x-odf-smtp-version: 1`; an unknown or private dataset is a 404 before the
//      upgrade;
//   2. JSON text frames, snake_case: the pull request {begin_after, stop_at,
//      force_update_if_diverged} answered by the transfer plan ({"Ok":{"transfer_plan":…}})
//      or an error ({"Err":{"InvalidInterval":{head, tail}}} when begin_after is not on the
//      chain);
//   3. `{}` answered by {"blocks":{num_blocks, media_type "application/tar+gzip", encoding
//      "raw", payload: the gzip'd tar as a JSON array of byte values}}: the raw block files,
//      each named by its hash, oldest first (the last one is the head);
//   4. {"object_files":[{object_type "DataSlice"|"Checkpoint", physical_hash, size}]}
//      answered by {"object_transfer_strategies":[{object_file, pull_strategy
//      "HttpDownload", download_from {url, headers, expires_at}}]}, one per object asked, in
//      order (the node answers any hash, even a made-up one: ask only for what verified
//      blocks reference);
//   5. Close 1000. An error after the plan arrives as a Close 1011 whose reason is the JSON
//      error; a malformed request is answered by nothing (the node drops the connection 5 s
//      later).
// The client (Boost.Beast over Asio) bounds everything: the connect and every read by the
// store's timeouts (a silent node fails, never hangs), a message by kMaxMessageBytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "odf_hash/core/status.h"
#include "odf_hash/io/cancel.h"

namespace odf_hash::remote::smtp {

// The largest message read (the blocks of a whole chain come in one).
inline constexpr uint64_t kMaxMessageBytes = uint64_t{512} << 20;

struct SessionOptions {
  double connect_timeout_s = 10;
  double read_timeout_s = 30;
  const CancelFlag* cancel = nullptr;
  // Sent as "Authorization: Bearer <token>" in the WebSocket's handshake when not empty (a
  // node's private dataset).
  std::string bearer_token;
};

// An object the blocks reference, as the protocol names it.
struct ObjectRef {
  bool checkpoint = false;  // "Checkpoint", else "DataSlice"
  std::string hash;         // multibase text ("f1620…")
  uint64_t size = 0;
};

struct Download {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::optional<std::string> expires_at;  // RFC 3339, or none
};

// One pull flow on one WebSocket.
class PullSession {
 public:
  // Connects to the dataset at `http_url` ("http://host:port/[account/]dataset", no trailing
  // '/'): errors name `shown` (the URL without user information). kNotFound for a 404 (no such
  // dataset, or a private one), kIoError when the node cannot be reached or refuses.
  static Result<PullSession> connect(const std::string& http_url, const std::string& shown,
                                     const SessionOptions& options);
  PullSession(PullSession&&) noexcept;
  PullSession& operator=(PullSession&&) noexcept;
  ~PullSession();

  // Steps 2 and 3: the gzip'd tar of the blocks after `begin_after` (all of them when none).
  // A diverged `begin_after` is kInvalidArgument naming the node's head.
  Result<std::vector<uint8_t>> pull_blocks(const std::optional<std::string>& begin_after);

  // Step 4, for `objects` (in batches): one download per object, in order.
  Result<std::vector<Download>> downloads(const std::vector<ObjectRef>& objects);

  // Step 5 (best effort).
  void close();

 private:
  struct Impl;
  explicit PullSession(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace odf_hash::remote::smtp
