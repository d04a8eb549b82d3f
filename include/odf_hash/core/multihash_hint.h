// What a user most likely meant by text that Multihash::parse refused: the fix to suggest
// next to the parse error ("one character is missing", "a bare digest: as a multihash it
// is f1620...", "the multibase prefix 'f' is missing"). Advice only: it never changes what
// parses, and it never guesses a character (a multihash has no checksum to guess with).
//
// Pure text processing. Thread safety: reentrant.
#pragma once

#include <string>
#include <string_view>

namespace odf_hash {

// One sentence (no trailing period) saying what to change in `text`, or "" when nothing
// likely comes to mind. Meant for text that Multihash::parse refused.
std::string suggest_multihash_fix(std::string_view text);

}  // namespace odf_hash
