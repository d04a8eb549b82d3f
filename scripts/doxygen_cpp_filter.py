#!/usr/bin/env python3
"""Doxygen INPUT_FILTER for the public C++ headers (docs/Doxyfile.cpp): their comments are //,
Doxygen reads /// and ///<; a comment's '<', '\\' and '@' are text, not markup. Prints the
header given, so filtered, on standard output (Doxygen reads it from there)."""
import re
import sys

out = []
for line in open(sys.argv[1], encoding="utf-8"):
    m = re.match(r"^(\s*)//( |$)(.*)", line)
    if m:
        text = m.group(3).replace("\\", "\\\\").replace("<", "\\<").replace("@", "\\@")
        out.append(f"{m.group(1)}/// {text}\n")
        continue
    m = re.match(r"^(.*[;,{])(\s*)// (.*)$", line)
    if m:
        text = m.group(3).replace("\\", "\\\\").replace("<", "\\<").replace("@", "\\@")
        out.append(f"{m.group(1)}{m.group(2)}///< {text}\n")
        continue
    out.append(line)
sys.stdout.write("".join(out))
