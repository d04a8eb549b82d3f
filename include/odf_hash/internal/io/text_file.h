// Small text files a user names (pin files, verify_pins.h): read whole under a bound, and
// replaced atomically under a lock, so that concurrent writers lose nothing and nothing
// planted beside the file can redirect a write.
//
// Reading (read_text_file): a regular file, or a pipe / FIFO (`--pins <(cmd)`), followed
// through links as `cat` does. A directory, a device (/dev/zero), a socket is refused before
// anything is read; more than `max_bytes` is refused after reading max_bytes + 1 bytes, so
// memory stays bounded whatever the file holds.
//
// Replacing (update_text_file), in steps:
//  1. the place: the path, with a symbolic link followed to the file it names (the link
//     stays a link, and the file it leads to is replaced); that file must be a regular file,
//     or absent (it is created; its folder must exist). A link leading nowhere, a folder, a
//     device or a FIFO is refused (resolve_replaceable_file: the same check, to make before
//     long work);
//  2. an exclusive lock (flock) on the folder holding the file, waited for: every writer
//     through this function (other processes, other threads) takes its turn;
//  3. the file as it is now is read (as read_text_file, regular files only, never through a
//     link that appeared meanwhile) and `update` gives the new text from it;
//  4. the new text goes to a temporary file created in that folder under a random name with
//     O_CREAT|O_EXCL|O_NOFOLLOW: a name that exists (a link planted there, or anything else)
//     is never opened, another name is drawn. It is flushed to disk (fsync), given the old
//     file's permission bits (a new file: 0666 less the umask), and renamed over the file;
//     the folder is flushed too;
//  5. the lock is released.
// A failure at any step leaves the file as it was and removes the temporary file.
//
// Errors name the path and `what` (a noun: "pin file"): kNotFound (read: nothing there),
// kInvalidArgument (the kind of file, too large), kIoError (anything the system refused).
// Thread safety: reentrant; update_text_file serialises writers of one folder.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "odf_hash/core/status.h"

namespace odf_hash {

// The bytes of the file at `path`, at most `max_bytes` of them (see above).
Result<std::string> read_text_file(const std::string& path, std::string_view what,
                                   uint64_t max_bytes);

// The file update_text_file would replace for `path` (step 1 above): its real path.
Result<std::string> resolve_replaceable_file(const std::string& path, std::string_view what);

// The new text, from the current one (nullopt: the file does not exist yet). An error stops
// the update; the file is left as it was.
using TextFileUpdate =
    std::function<Result<std::string>(const std::optional<std::string>& current)>;

// Replaces the file at `path` with update(its current text), steps 1 to 5 above; the current
// text is read under the bound `max_bytes`.
Status update_text_file(const std::string& path, std::string_view what, uint64_t max_bytes,
                        const TextFileUpdate& update);

}  // namespace odf_hash
