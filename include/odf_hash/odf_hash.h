/** \file
 * odf_hash.h: the C ABI of odf-hash (the shared library libodf_hash).
 *
 * A stable, exception-free C interface to the hashes of the Open Data Fabric:
 *   - physical hashes: SHA3-256 of a file or of a byte stream, as a sha3-256 multihash;
 *   - logical hashes (arrow0-sha3-256) of records given through the Arrow C Data / C Stream
 *     Interface (any Arrow producer: Arrow C++, arrow-rs, nanoarrow, pyarrow, polars, DuckDB),
 *     byte for byte those of the reference implementation (the Rust crate arrow-digest), and of
 *     Parquet / Arrow IPC files read the way the main ODF implementation reads them;
 *   - multihash parsing and formatting (every final multibase);
 *   - verification of ODF datasets, with a structured report and its JSON form;
 *   - checks of kamu nodes' signed query answers (hashes, signature, key, datasets).
 *
 * Conventions, for every function below:
 *   - Fallible functions return an odf_hash_status (ODF_HASH_OK is 0). When `err` is not
 *     NULL, it receives the code and a NUL-terminated human message naming what failed (the
 *     path, the column, the character); on success err->code is ODF_HASH_OK and its message
 *     empty. Messages longer than the buffer are truncated.
 *   - Nothing throws or aborts across this interface; bad input of any kind is an error code.
 *   - Output pointers are written only on success. Objects returned through `**out` are owned
 *     by the caller and freed with the matching odf_hash_*_free (which accepts NULL).
 *   - Strings are UTF-8, NUL-terminated. Paths are file system paths ("-" is standard input
 *     where said) or URLs: "s3://bucket/key" (credentials, region and endpoint from the AWS
 *     environment: AWS_ACCESS_KEY_ID..., AWS_REGION, AWS_ENDPOINT_URL), "http(s)://..." and
 *     "ipfs://CID/..." (through the IPFS HTTP gateway that ODF_HASH_IPFS_GATEWAY, else
 *     KAMU_CONFIG__protocol__ipfs__httpGateway names, else http://localhost:8080; every
 *     block checked against the CID, as open_store.h says: this interface has no way to
 *     trust a gateway instead, so "ipns://NAME/..." and gateways without verifiable
 *     responses are errors here);
 *     a URL's user information is never repeated in a message (it shows as "***").
 *   - Thread safety: every function is reentrant; distinct objects may be used from distinct
 *     threads; one object must not be used from two threads at once (read-only accessors of a
 *     finished result or report may be called concurrently).
 *   - Logical hashing of in-memory data needs no Arrow library: the C Data Interface structs
 *     are read directly. Only the file functions read Parquet / IPC with Arrow C++.
 */
#ifndef ODF_HASH_ODF_HASH_H
#define ODF_HASH_ODF_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "odf_hash/arrow_c_data.h"

#if defined(__GNUC__) || defined(__clang__)
#define ODF_HASH_API __attribute__((visibility("default")))
#else
#define ODF_HASH_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Incremented whenever a function or struct of this header changes incompatibly; it is the
 * shared library's SONAME version (`libodf_hash.so.<ODF_HASH_ABI_VERSION>`). */
#define ODF_HASH_ABI_VERSION 2

/* ---- Versions and errors ------------------------------------------------------------- */

/** The library's version, e.g. "0.1.0". Static storage. */
ODF_HASH_API const char* odf_hash_version(void);

/** ODF_HASH_ABI_VERSION of the library actually loaded (compare with the header's). */
ODF_HASH_API int odf_hash_abi_version(void);

typedef enum odf_hash_status {
  ODF_HASH_OK = 0,
  ODF_HASH_INVALID_ARGUMENT = 1, /**< malformed input: a bad hash string, a NULL pointer, a
                                      malformed Arrow array, a buffer too small */
  ODF_HASH_PARSE_ERROR = 2,      /**< malformed data: a corrupt Parquet file, a bad block */
  ODF_HASH_NOT_FOUND = 3,        /**< a file that should exist does not */
  ODF_HASH_IO_ERROR = 4,         /**< the system refused an open or a read; a stream failed */
  ODF_HASH_UNSUPPORTED = 5,      /**< valid input odf-hash cannot hash (e.g. a Map column) */
  ODF_HASH_INTERNAL = 6,         /**< a bug in odf-hash, or memory exhausted */
  ODF_HASH_CANCELLED = 7         /**< the work was asked to stop (not returned by this ABI yet) */
} odf_hash_status;

/** A short stable name of a status ("ok", "invalid argument", ...). Static storage. */
ODF_HASH_API const char* odf_hash_status_name(int code);

#define ODF_HASH_ERROR_MESSAGE_SIZE 1024
typedef struct odf_hash_error {
  int code; /**< an odf_hash_status */
  char message[ODF_HASH_ERROR_MESSAGE_SIZE];
} odf_hash_error;

/* ---- Multihashes ----------------------------------------------------------------------- */

#define ODF_HASH_DIGEST_SIZE 32
#define ODF_HASH_CODE_SHA3_256 0x16            /**< physical hashes and block hashes */
#define ODF_HASH_CODE_ARROW0_SHA3_256 0x300016 /**< logical hashes */
/** The longest text odf_hash_multihash_format writes, NUL included, in any base. */
#define ODF_HASH_MULTIHASH_TEXT_SIZE 513

typedef struct odf_hash_multihash {
  uint64_t code; /**< ODF_HASH_CODE_SHA3_256 or ODF_HASH_CODE_ARROW0_SHA3_256 */
  uint8_t digest[ODF_HASH_DIGEST_SIZE];
} odf_hash_multihash;

/** Parses a multihash in any final multibase encoding ("f1620...", "z...", "u..."); `len`
 * bytes of `text` are read (no NUL needed). Unknown codes, digest lengths other than 32 and
 * malformed text are ODF_HASH_INVALID_ARGUMENT. */
ODF_HASH_API int odf_hash_multihash_parse(const char* text, size_t len, odf_hash_multihash* out,
                                          odf_hash_error* err);

/** Writes `mh` as multibase text with the base whose prefix character is `base` ('f' base16,
 * the ODF canonical form; 'z' base58btc; 'u' base64url; any final multibase) into `buf` of
 * `capacity` bytes, NUL-terminated. *len_out (if not NULL) receives the text's length without
 * the NUL, also when `capacity` is too small (then ODF_HASH_INVALID_ARGUMENT and nothing is
 * written). ODF_HASH_MULTIHASH_TEXT_SIZE bytes are always enough. */
ODF_HASH_API int odf_hash_multihash_format(const odf_hash_multihash* mh, char base, char* buf,
                                           size_t capacity, size_t* len_out, odf_hash_error* err);

/** 1 when both have the same code and digest (however they were written), else 0. */
ODF_HASH_API int odf_hash_multihash_equal(const odf_hash_multihash* a, const odf_hash_multihash* b);

/* ---- Physical hashes ------------------------------------------------------------------- */

/** SHA3-256 of the whole file at `path` ("-": standard input; or the object at a URL, read as
 * it downloads), streamed in constant memory.
 * *out receives the sha3-256 multihash, *size_out (if not NULL) the number of bytes hashed.
 * A missing file is ODF_HASH_NOT_FOUND; a directory, permission denied or a read error
 * ODF_HASH_IO_ERROR; the message names the path. */
ODF_HASH_API int odf_hash_physical_file(const char* path, odf_hash_multihash* out,
                                        uint64_t* size_out, odf_hash_error* err);

/** A streaming physical hasher: new, update any number of times, finalize. */
typedef struct odf_hash_sha3 odf_hash_sha3;

/** NULL only when memory is exhausted. */
ODF_HASH_API odf_hash_sha3* odf_hash_sha3_new(void);
/** Absorbs `len` bytes (`data` may be NULL when len is 0). */
ODF_HASH_API void odf_hash_sha3_update(odf_hash_sha3* hasher, const void* data, size_t len);
/** The sha3-256 multihash of everything absorbed since new (or the previous finalize); the
 * hasher is then reset to the empty message and may be reused. */
ODF_HASH_API void odf_hash_sha3_finalize(odf_hash_sha3* hasher, odf_hash_multihash* out);
ODF_HASH_API void odf_hash_sha3_free(odf_hash_sha3* hasher);

/* ---- Logical hashes -------------------------------------------------------------------- */

/** The result of a logical hash: the arrow0-sha3-256 digest, the record count and the digest
 * of every leaf column (depth-first, as combined). */
typedef struct odf_hash_logical_result odf_hash_logical_result;

/** Hashes every batch of `stream`, then releases it (always: on success and on every error,
 * including a NULL `out`). A struct-typed stream ("+s", as exported for record batches) is
 * hashed as records: the ODF logical hash of a table, the reference's RecordDigestV0. Any
 * other type is hashed as one column: the reference's ArrayDigestV0, which is also that
 * column's digest inside a table; the result then has one column with an empty path.
 * `threads`: 1 hashes on the calling thread; 0 uses every core; n uses up to n threads for
 * the columns of a batch (the result never depends on it). Arrays are checked before they
 * are read (lengths, offsets, child counts); a malformed array or a failing get_next is an
 * error, never a hash. */
ODF_HASH_API int odf_hash_logical_stream(struct ArrowArrayStream* stream, uint32_t threads,
                                         odf_hash_logical_result** out, odf_hash_error* err);

/** Hashes one array described by `schema`: a struct array with no null rows is one record
 * batch (hashed as records), any other type one column (as in odf_hash_logical_stream).
 * Nothing is released: the caller keeps ownership of both structs. */
ODF_HASH_API int odf_hash_logical_array(const struct ArrowSchema* schema,
                                        const struct ArrowArray* array, uint32_t threads,
                                        odf_hash_logical_result** out, odf_hash_error* err);

/** Hashes the records of a Parquet or Arrow IPC file (format detected from its bytes) as the
 * main ODF implementation reads them (arrow-rs types, 10,000-row batches). `path` may be a
 * URL: a Parquet object is read by ranges (footer, then column chunks). */
ODF_HASH_API int odf_hash_logical_file(const char* path, uint32_t threads,
                                       odf_hash_logical_result** out, odf_hash_error* err);

/** The arrow0-sha3-256 multihash. */
ODF_HASH_API void odf_hash_logical_result_digest(const odf_hash_logical_result* result,
                                                 odf_hash_multihash* out);
/** Records hashed (for a single column: values hashed). */
ODF_HASH_API uint64_t odf_hash_logical_result_num_rows(const odf_hash_logical_result* result);
ODF_HASH_API size_t odf_hash_logical_result_column_count(const odf_hash_logical_result* result);
/** Leaf column `index` (< column_count): its path (field names joined with '.'), its Arrow
 * format string (e.g. "l", "u", "+l") and its 32-byte digest. The strings belong to the
 * result. ODF_HASH_INVALID_ARGUMENT when `index` is out of range. */
ODF_HASH_API int odf_hash_logical_result_column(const odf_hash_logical_result* result, size_t index,
                                                const char** path_out, const char** type_out,
                                                uint8_t digest_out[ODF_HASH_DIGEST_SIZE]);
/** Why the reference implementation (arrow-digest, which kamu uses) cannot hash leaf column
 * `index` ("dictionary-encoded, ...", "Null type, ...", "run-end encoded", "a list view"), or
 * "" when it can: a result with such a column is a hash kamu cannot check. The string
 * belongs to the result; NULL when `index` is out of range. */
ODF_HASH_API const char* odf_hash_logical_result_column_reference_gap(
    const odf_hash_logical_result* result, size_t index);
ODF_HASH_API void odf_hash_logical_result_free(odf_hash_logical_result* result);

/* ---- Dataset verification -------------------------------------------------------------- */

/** The outcome of verifying one ODF dataset: every problem found (verification never stops at
 * the first) and every data / checkpoint file checked. */
typedef struct odf_hash_report odf_hash_report;

/** Verifies the ODF dataset folder (or URL) at `path` (refs/head, blocks/, data/,
 * checkpoints/): metadata chain, then every data file (size, physical hash, and for
 * derivative datasets the logical fallback unless `integrity_only`), every checkpoint, each
 * under the canonical name of its hash ("f1620" + lower-case hex). Entries the chain does
 * not reference (where the store can list: not over HTTP) are listed in the report
 * (odf_hash_report_unreferenced), not problems. `jobs` files are hashed in parallel (0 means
 * 1). Findings about the dataset are problems in the report, not errors: the function fails
 * only when verification could not run (the path is not a readable folder, the server cannot
 * be reached), or with ODF_HASH_NOT_FOUND when `path` is a folder that is not a dataset (no
 * refs/ nor blocks/: a kamu workspace, a dataset's blocks/ folder...), the message saying
 * what it looks like. Nothing in the dataset is modified. */
ODF_HASH_API int odf_hash_verify(const char* path, uint32_t jobs, int integrity_only,
                                 odf_hash_report** out, odf_hash_error* err);

/** Flags of odf_hash_verify_ex, OR-ed together. */
#define ODF_HASH_VERIFY_INTEGRITY_ONLY 1u /**< no logical fallback (odf_hash_verify's flag) */
#define ODF_HASH_VERIFY_STRICT 2u         /**< unreferenced entries are unexpected-file problems */
#define ODF_HASH_VERIFY_DEEP 4u /**< records against their block: rows, offset column, logical */

/** odf_hash_verify with flags (ODF_HASH_VERIFY_*); ODF_HASH_INVALID_ARGUMENT for an unknown
 * flag bit. */
ODF_HASH_API int odf_hash_verify_ex(const char* path, uint32_t jobs, uint32_t flags,
                                    odf_hash_report** out, odf_hash_error* err);

/** The verify modes (docs/concepts/verify-scopes.md). Zero-initialise,
 * set `struct_size` to sizeof(odf_hash_verify_modes), then what you need. */
typedef struct odf_hash_verify_modes {
  size_t struct_size;      /**< sizeof(odf_hash_verify_modes): later versions may grow it */
  const char* expect_head; /**< trusted head (multihash text): it must be on the chain, else a
                                history-rewritten / head-not-found problem; or NULL */
  const char* since;       /**< incremental: only the blocks above this one and their files are
                                checked (nothing older is read); or NULL */
  double sample_fraction;  /**< > 0: check a random, size-weighted subset of the files holding
                                this fraction (<= 1) of the recorded bytes; the chain in full */
  uint64_t sample_count;   /**< > 0: ... or this many files (not both) */
  uint64_t sample_seed;    /**< the sample's seed: the same files for the same seed */
} odf_hash_verify_modes;

/** odf_hash_verify_ex with the modes (NULL: none). ODF_HASH_INVALID_ARGUMENT for an unknown
 * flag bit, a struct_size this library does not know, a hash that does not parse, or a
 * sample out of range. What the modes checked and skipped is in the report's JSON
 * ("scope"), its verdict in odf_hash_report_verdict. */
ODF_HASH_API int odf_hash_verify_modes_ex(const char* path, uint32_t jobs, uint32_t flags,
                                          const odf_hash_verify_modes* modes, odf_hash_report** out,
                                          odf_hash_error* err);

/** "VALID", "INVALID (2 problems)", "VALID (sampled: 3 of 40 files, 12.0 MiB of 900.0 MiB
 * read)", "VALID (since block 41: 1 new block, 2 files checked)": a partial pass (since,
 * sample) never reads as a plain "VALID". Belongs to the report. */
ODF_HASH_API const char* odf_hash_report_verdict(const odf_hash_report* report);
/** 1 when every block and file was checked (no since, no sample), else 0. */
ODF_HASH_API int odf_hash_report_complete(const odf_hash_report* report);

/** 1 when the dataset is valid (no problem), else 0. */
ODF_HASH_API int odf_hash_report_valid(const odf_hash_report* report);
ODF_HASH_API size_t odf_hash_report_problem_count(const odf_hash_report* report);

/** One problem. Strings belong to the report and live until it is freed; absent values are
 * NULL. */
typedef struct odf_hash_problem {
  const char* kind;         /**< stable kebab-case kind, e.g. "physical-hash-mismatch" */
  const char* block;        /**< the block concerned (multihash text), or NULL */
  int has_sequence_number;  /**< 1 when sequence_number is known */
  uint64_t sequence_number; /**< the block's sequence number */
  const char* file;         /**< relative path in the dataset ("data/f1620..."), or NULL */
  const char* expected;     /**< the expected value as text (a hash; a number's decimal
                                 digits), or NULL */
  const char* actual;       /**< the value found as text, or NULL */
  const char* message;      /**< one human sentence */
  /* ABI 2: the values that are numbers (a size, a count, an offset, a sequence number), as
   * --json writes them, and their unit. */
  int has_expected_number;  /**< 1 when expected is a number */
  uint64_t expected_number; /**< the expected number, when has_expected_number */
  int has_actual_number;    /**< 1 when actual is a number */
  uint64_t actual_number;   /**< the number found, when has_actual_number */
  const char* unit;         /**< "bytes", "rows", "link-values", or NULL (text values, or a
                                 number that is its own unit: an offset, a sequence number) */
} odf_hash_problem;

/** Problem `index` (< problem_count), in report order: metadata, files (newest block first),
 * linked objects, unexpected files. ODF_HASH_INVALID_ARGUMENT when `index` is out of range.
 * Where a linked object is linked from (data file, column, row) is in the report's JSON
 * ("link" of the problem), not in this struct. */
ODF_HASH_API int odf_hash_report_problem(const odf_hash_report* report, size_t index,
                                         odf_hash_problem* out, odf_hash_error* err);

/** Entries of blocks/, data/ and checkpoints/ that the chain does not reference (what kamu
 * leaves after `system compact --hard` or `reset`, a file under a non-canonical spelling of
 * its hash, any other name): how many, and the sizes of those that are regular files. */
ODF_HASH_API size_t odf_hash_report_unreferenced_count(const odf_hash_report* report);
ODF_HASH_API uint64_t odf_hash_report_unreferenced_bytes(const odf_hash_report* report);

/** One unreferenced entry. Strings belong to the report; absent values are NULL. */
typedef struct odf_hash_unreferenced {
  const char* file;           /**< relative path ("data/f1620..."); untrusted bytes */
  const char* kind;           /**< "file", "directory", "symlink", "fifo", "socket",
                                   "char-device", "block-device" or "other" */
  uint64_t size;              /**< bytes of a regular file, else 0 */
  const char* canonical_name; /**< a hash spelled another way: its canonical name, or NULL */
} odf_hash_unreferenced;

/** Unreferenced entry `index` (< unreferenced_count), in path order.
 * ODF_HASH_INVALID_ARGUMENT when `index` is out of range. */
ODF_HASH_API int odf_hash_report_unreferenced(const odf_hash_report* report, size_t index,
                                              odf_hash_unreferenced* out, odf_hash_error* err);

/** The whole report as JSON, the object `odf-hash verify --json` prints for one dataset
 * (path, kind, head, blocks, chain_complete, valid, verdict, logical_fallbacks,
 * linked_objects, files, problems, unreferenced, scope). Belongs to the report. */
ODF_HASH_API const char* odf_hash_report_json(const odf_hash_report* report);
ODF_HASH_API void odf_hash_report_free(odf_hash_report* report);

/* ---- Comparing a reproduced data file ----------------------------------------------------- */

/** A comparison of two data files (odf_hash compare): two verdicts, what ODF checks (the
 * arrow0 hash) and what the records are (compared value by value: arrow0 has blind spots),
 * and where (rows) and why (schema, causes), in JSON. */
typedef struct odf_hash_comparison odf_hash_comparison;

/** What ODF checks. */
enum {
  ODF_HASH_IDENTICAL = 0,  /**< same bytes */
  ODF_HASH_EQUIVALENT = 1, /**< different bytes, same logical hash (arrow0) */
  ODF_HASH_DIFFERENT = 2   /**< different logical hashes */
};

/** What the records are (include/odf_hash/compare/compare.h, FileComparison::Records). */
enum {
  ODF_HASH_RECORDS_UNKNOWN = 0,          /**< not compared (different hashes, rows = 0) */
  ODF_HASH_RECORDS_EQUAL = 1,            /**< the same records in the same order */
  ODF_HASH_RECORDS_SAME_OTHER_ORDER = 2, /**< the same records, in another order */
  ODF_HASH_RECORDS_DIFFERENT = 3         /**< different records (or schemas) */
};

/** Compares `reproduced` with `original` (paths or URLs; Parquet or Arrow IPC): physical
 * hashes, then logical ones; when they differ, the first `rows` differing rows of each
 * differing column are located (0: not looked for) and the records compared. `threads` as in
 * odf_hash_logical_file, per file. */
ODF_HASH_API int odf_hash_compare(const char* original, const char* reproduced, uint32_t threads,
                                  uint32_t rows, odf_hash_comparison** out, odf_hash_error* err);
/** ODF_HASH_IDENTICAL, ODF_HASH_EQUIVALENT or ODF_HASH_DIFFERENT. */
ODF_HASH_API int odf_hash_comparison_verdict(const odf_hash_comparison* comparison);
/** ODF_HASH_RECORDS_*: an equivalent pair's records are compared too (an equal arrow0 hash
 * does not make equal records). */
ODF_HASH_API int odf_hash_comparison_records(const odf_hash_comparison* comparison);
/** 1 when the reproduction is verified (identical, or equivalent with equal records: what
 * `odf-hash compare` exits 0 for), else 0. */
ODF_HASH_API int odf_hash_comparison_verified(const odf_hash_comparison* comparison);
/** The comparison as `odf-hash compare --json` prints it (include/odf_hash/compare/compare_json.h
 * lists the keys). Belongs to the comparison. */
ODF_HASH_API const char* odf_hash_comparison_json(const odf_hash_comparison* comparison);
ODF_HASH_API void odf_hash_comparison_free(odf_hash_comparison* comparison);

/* ---- Signed query answers of kamu nodes ---------------------------------------------------- */

/** A check of a kamu node's signed query answer (include/odf_hash/query/verify_query.h,
 * docs/commands/verify-query.md): its input, output and sub-queries hashes recomputed from kamu's
 * canonical JSON, its Ed25519 signature, whether the signing key is trusted, and the input
 * datasets tied to verified copies. */
typedef struct odf_hash_query_check odf_hash_query_check;

/** The verdicts, as `odf-hash verify-query` exits. */
enum {
  ODF_HASH_QUERY_VALID = 0,       /**< every hash, signature and tie valid; every key trusted */
  ODF_HASH_QUERY_MISMATCH = 1,    /**< a hash, a signature or a dataset tie failed */
  ODF_HASH_QUERY_UNSUPPORTED = 2, /**< nothing failed, but a signature type odf-hash does not
                                       check (EcdsaSecp256k1Signature2019): never valid */
  ODF_HASH_QUERY_UNTRUSTED = 3    /**< all valid, but a signing key is not trusted */
};

/** What odf_hash_verify_query takes beside the answer. Zero-initialise, set `struct_size` to
 * sizeof(odf_hash_query_options), then what you need; arrays may be NULL when their count is
 * 0. */
typedef struct odf_hash_query_options {
  size_t struct_size;       /**< sizeof(odf_hash_query_options): later versions may grow it */
  const char* const* trust; /**< did:key:z6Mk... of trusted Ed25519 keys */
  size_t trust_count;
  const char* const* trust_files; /**< trust files: one did:key per line, optionally a name */
  size_t trust_file_count;
  const char* const* datasets; /**< "NAME=LOCATION": the input dataset of that id or alias is
                                    tied to the copy at LOCATION (a folder or URL) */
  size_t dataset_count;
  uint32_t jobs;      /**< files hashed at once verifying a copy (0 means 1) */
  uint64_t max_bytes; /**< the largest answer accepted (0: 256 MiB) */
} odf_hash_query_options;

/** Checks the answer in `answer` (`len` bytes of JSON, as the node sent it: a parse to double
 * would change what the node hashed). `options` may be NULL (no key trusted, no dataset tied).
 * Findings are in the check, not errors: the function fails with ODF_HASH_PARSE_ERROR for a
 * malformed answer (the message names the part), ODF_HASH_INVALID_ARGUMENT for bad options (a
 * DID that is none, a dataset NAME the answer does not have, an answer over max_bytes),
 * ODF_HASH_UNSUPPORTED for a trusted DID of another key type, or the error of a trust file or
 * dataset copy that could not be read. */
ODF_HASH_API int odf_hash_verify_query(const char* answer, size_t len,
                                       const odf_hash_query_options* options,
                                       odf_hash_query_check** out, odf_hash_error* err);
/** ODF_HASH_QUERY_VALID, _MISMATCH, _UNSUPPORTED or _UNTRUSTED. */
ODF_HASH_API int odf_hash_query_check_verdict(const odf_hash_query_check* check);
/** One line: "VALID (...)", "INVALID: output hash, signature", "UNTRUSTED KEY: ...". Belongs to
 * the check. */
ODF_HASH_API const char* odf_hash_query_check_summary(const odf_hash_query_check* check);
/** The check as `odf-hash verify-query --json` prints it (include/odf_hash/query/query_json.h
 * lists the keys). Belongs to the check. */
ODF_HASH_API const char* odf_hash_query_check_json(const odf_hash_query_check* check);
ODF_HASH_API void odf_hash_query_check_free(odf_hash_query_check* check);

/* ---- Obtaining a dataset ---------------------------------------------------------------- */

/** What a fetch did (include/odf_hash/odf/fetch.h, docs/commands/fetch.md). */
typedef struct odf_hash_fetch_result odf_hash_fetch_result;

/** The verdicts, as `odf-hash fetch` exits. */
enum {
  ODF_HASH_FETCH_FETCHED = 0,   /**< DEST is at the source's head (fetched, or already there) */
  ODF_HASH_FETCH_REJECTED = 1,  /**< content that did not verify: DEST stays at its old head */
  ODF_HASH_FETCH_INCOMPLETE = 2 /**< files that could not be read (missing, a transfer that
                                     failed): DEST stays at its old head, the next fetch resumes */
};

/** What odf_hash_fetch takes beside the locations. Zero-initialise, set `struct_size` to
 * sizeof(odf_hash_fetch_options), then what you need. */
typedef struct odf_hash_fetch_options {
  size_t struct_size;      /**< sizeof(odf_hash_fetch_options): later versions may grow it */
  uint32_t jobs;           /**< files transferred at once (0 means 1) */
  const char* expect_head; /**< trusted head (multihash text) the source's head must be or
                                descend from; or NULL */
  int force;               /**< non-zero: accept a source whose history does not contain DEST's
                                head (a rewritten history) */
  const char* dataset;     /**< SOURCE a kamu workspace: the dataset's alias or id; or NULL */
  const char* alias;       /**< DEST a kamu workspace: the dataset's alias there (default: the
                                source's alias or last path component); or NULL */
} odf_hash_fetch_options;

/** Copies the dataset at `source` (a folder or URL, as odf_hash_verify reads it, or a kamu
 * workspace's dataset: options->dataset) into the local folder `dest` (a dataset folder, or a
 * kamu workspace: `.kamu/datasets/<id>` with its alias, as kamu lays datasets out), keeping only
 * what verifies: every block checked, every file hashed as it
 * streams and renamed into place only when it matches, refs/head written last. `options` may
 * be NULL. What the source holds is in the result, not an error: the function fails when the
 * fetch cannot run (the source unreachable, `dest` not a folder or holding files but no
 * dataset, another fetch writing it), or with ODF_HASH_INVALID_ARGUMENT for bad options. */
ODF_HASH_API int odf_hash_fetch(const char* source, const char* dest,
                                const odf_hash_fetch_options* options, odf_hash_fetch_result** out,
                                odf_hash_error* err);
/** ODF_HASH_FETCH_FETCHED, _REJECTED or _INCOMPLETE. */
ODF_HASH_API int odf_hash_fetch_result_verdict(const odf_hash_fetch_result* result);
/** "FETCHED (3 new blocks, 5 files, 12.3 MiB transferred)", "UP TO DATE", "REJECTED (2
 * problems)". Belongs to the result. */
ODF_HASH_API const char* odf_hash_fetch_result_summary(const odf_hash_fetch_result* result);
/** The result as `odf-hash fetch --json` prints it (include/odf_hash/odf/fetch_json.h lists
 * the keys; without the "schema" field). Belongs to the result. */
ODF_HASH_API const char* odf_hash_fetch_result_json(const odf_hash_fetch_result* result);
ODF_HASH_API void odf_hash_fetch_result_free(odf_hash_fetch_result* result);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ODF_HASH_ODF_HASH_H */
