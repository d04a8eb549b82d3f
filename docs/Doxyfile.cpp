#Doxygen reads the public C++ headers(include / odf_hash / <layer>/*.h, not internal/) for the
# C++ API page (docs/cpp-api.md, through Breathe). Their comments are `//`:
# scripts/doxygen_cpp_filter.py hands them to Doxygen as `///` doc comments (and `///<` after a
# member), their `<` and `\` as text. `make docs` runs it from the repository's root. XML only;
# every warning fails the build.
PROJECT_NAME           = odf-hash-cpp
OUTPUT_DIRECTORY       = build-docs/doxygen-cpp
INPUT                  = include/odf_hash/arrow_c_data.h include/odf_hash/core \
                         include/odf_hash/logical include/odf_hash/io include/odf_hash/remote \
                         include/odf_hash/odf include/odf_hash/compare include/odf_hash/query \
                         include/odf_hash/api
FILE_PATTERNS          = *.h
RECURSIVE              = NO
INPUT_FILTER           = scripts/doxygen_cpp_filter.py
# Adjacent string literals, which Sphinx's C++ parser cannot read.
EXCLUDE_SYMBOLS        = kEmptyValueRefused
EXTRACT_ALL            = YES
MARKDOWN_SUPPORT       = NO
GENERATE_HTML          = NO
GENERATE_LATEX         = NO
GENERATE_XML           = YES
XML_OUTPUT             = xml
QUIET                  = YES
WARNINGS               = YES
WARN_IF_UNDOCUMENTED   = NO
WARN_AS_ERROR          = FAIL_ON_WARNINGS
