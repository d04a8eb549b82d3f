/* A tour of the odf-hash C ABI (include/odf_hash/odf_hash.h), in plain C with no Arrow library:
 * physical hashes of bytes and files, multihash text, logical hashes of records built by hand
 * with the Arrow C Data Interface (as one array and as a stream of two batches) and of a data
 * file, and the verification of an ODF dataset.
 *
 *   odf_hash_tour DATA_FILE DATASET_DIR
 *
 * Prints one "name: value" line per result (the tests compare them with the reference) and
 * the dataset's problems; exits 0 when every call succeeded and the dataset is valid, 1 when
 * the dataset is invalid, 2 on an error. Build: cc tour.c $(pkg-config --cflags --libs odf_hash)
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "odf_hash/odf_hash.h"

/* ---- Records built by hand through the C Data Interface ---------------------------------
 * Two columns, a: int32 and b: utf8. Batch 1 holds (1, "x"), (2, "y"), (3, "z"); batch 2
 * holds (4, null), (null, "w"). These structs are static: their release callbacks only mark
 * them released, as the interface requires. */

static void release_schema(struct ArrowSchema* s) {
  s->release = NULL;
}
static void release_array(struct ArrowArray* a) {
  a->release = NULL;
}

static struct ArrowSchema field_a = {
    "i", "a", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, release_schema, NULL};
static struct ArrowSchema field_b = {
    "u", "b", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, release_schema, NULL};
static struct ArrowSchema* fields[] = {&field_a, &field_b};

static void make_schema(struct ArrowSchema* out) {
  struct ArrowSchema s = {"+s", "", NULL, 0, 2, fields, NULL, release_schema, NULL};
  *out = s;
}

/* Batch 1 */
static const int32_t a1_values[] = {1, 2, 3};
static const int32_t b1_offsets[] = {0, 1, 2, 3};
static const char b1_data[] = "xyz";
static const void* a1_buffers[] = {NULL, a1_values};
static const void* b1_buffers[] = {NULL, b1_offsets, b1_data};
/* Batch 2: validity bitmaps, least significant bit first. */
static const uint8_t a2_valid[] = {0x01}; /* row 0 valid, row 1 null */
static const int32_t a2_values[] = {4, 0};
static const uint8_t b2_valid[] = {0x02}; /* row 0 null, row 1 valid */
static const int32_t b2_offsets[] = {0, 0, 1};
static const char b2_data[] = "w";
static const void* a2_buffers[] = {a2_valid, a2_values};
static const void* b2_buffers[] = {b2_valid, b2_offsets, b2_data};
static const void* struct_buffers[] = {NULL};

struct Batch {
  struct ArrowArray a, b, root;
  struct ArrowArray* children[2];
};

static void make_batch(struct Batch* batch, int which) {
  struct ArrowArray a = {
      3, 0, 0, 2, 0, which == 1 ? a1_buffers : a2_buffers, NULL, NULL, release_array, NULL};
  struct ArrowArray b = {
      3, 0, 0, 3, 0, which == 1 ? b1_buffers : b2_buffers, NULL, NULL, release_array, NULL};
  if (which == 2) {
    a.length = b.length = 2;
    a.null_count = b.null_count = 1;
  }
  batch->a = a;
  batch->b = b;
  batch->children[0] = &batch->a;
  batch->children[1] = &batch->b;
  struct ArrowArray root = {a.length,      0,   0, 1, 2, struct_buffers, batch->children, NULL,
                            release_array, NULL};
  batch->root = root;
}

/* A stream handing out batch 1, then batch 2, then the end. */
struct StreamState {
  int next;
  struct Batch batches[2];
};

static int stream_get_schema(struct ArrowArrayStream* s, struct ArrowSchema* out) {
  (void)s;
  make_schema(out);
  return 0;
}

static int stream_get_next(struct ArrowArrayStream* s, struct ArrowArray* out) {
  struct StreamState* st = (struct StreamState*)s->private_data;
  if (st->next >= 2) {
    memset(out, 0, sizeof *out); /* release NULL: the end of the stream */
    return 0;
  }
  make_batch(&st->batches[st->next], st->next + 1);
  *out = st->batches[st->next].root;
  ++st->next;
  return 0;
}

static const char* stream_get_last_error(struct ArrowArrayStream* s) {
  (void)s;
  return NULL;
}

static void stream_release(struct ArrowArrayStream* s) {
  s->release = NULL;
}

/* ---- Printing ------------------------------------------------------------------------- */

static int failed(const char* what, const odf_hash_error* err) {
  fprintf(stderr, "%s failed: %s: %s\n", what, odf_hash_status_name(err->code), err->message);
  return 2;
}

static int print_hash(const char* name, const odf_hash_multihash* mh, char base) {
  char text[ODF_HASH_MULTIHASH_TEXT_SIZE];
  odf_hash_error err;
  if (odf_hash_multihash_format(mh, base, text, sizeof text, NULL, &err) != ODF_HASH_OK) {
    return failed("odf_hash_multihash_format", &err);
  }
  printf("%s: %s\n", name, text);
  return 0;
}

static int print_logical(const char* name, odf_hash_logical_result* result) {
  odf_hash_multihash mh;
  odf_hash_logical_result_digest(result, &mh);
  int rc = print_hash(name, &mh, 'f');
  printf("%s rows: %" PRIu64 "\n", name, odf_hash_logical_result_num_rows(result));
  for (size_t i = 0; i < odf_hash_logical_result_column_count(result); ++i) {
    const char* path;
    const char* type;
    uint8_t digest[ODF_HASH_DIGEST_SIZE];
    odf_hash_logical_result_column(result, i, &path, &type, digest);
    printf("%s column %s (%s): ", name, path, type);
    for (int k = 0; k < ODF_HASH_DIGEST_SIZE; ++k) printf("%02x", digest[k]);
    printf("\n");
  }
  odf_hash_logical_result_free(result);
  return rc;
}

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    fprintf(stderr, "usage: %s DATA_FILE DATASET_DIR [NOT_A_DATASET_DIR]\n", argv[0]);
    return 2;
  }
  odf_hash_error err;
  printf("version: %s (ABI %d)\n", odf_hash_version(), odf_hash_abi_version());
  if (odf_hash_abi_version() != ODF_HASH_ABI_VERSION) {
    fprintf(stderr, "the loaded libodf_hash has another ABI than this header\n");
    return 2;
  }

  /* Physical hash of bytes, streamed in two parts; then the same hash parsed from base58btc. */
  odf_hash_sha3* sha3 = odf_hash_sha3_new();
  odf_hash_multihash mh;
  odf_hash_sha3_update(sha3, "multi", 5);
  odf_hash_sha3_update(sha3, "hash", 4);
  odf_hash_sha3_finalize(sha3, &mh);
  odf_hash_sha3_free(sha3);
  if (print_hash("sha3 of 'multihash'", &mh, 'f') != 0) return 2;
  const char* z = "zW1a3CNT52HXiJNniLkWMeev3CPRy9QiNRMWGyTrVNg4hY8";
  odf_hash_multihash parsed;
  if (odf_hash_multihash_parse(z, strlen(z), &parsed, &err) != ODF_HASH_OK) {
    return failed("odf_hash_multihash_parse", &err);
  }
  printf("parsed base58btc equals: %s\n", odf_hash_multihash_equal(&mh, &parsed) ? "yes" : "no");
  if (print_hash("as base58btc", &parsed, 'z') != 0) return 2;
  /* A malformed string is an error with a message, not a crash. */
  if (odf_hash_multihash_parse("f16zz", 5, &parsed, &err) == ODF_HASH_OK) return 2;
  printf("bad hash: %s\n", odf_hash_status_name(err.code));

  /* Physical and logical hash of a data file. */
  uint64_t size = 0;
  if (odf_hash_physical_file(argv[1], &mh, &size, &err) != ODF_HASH_OK) {
    return failed("odf_hash_physical_file", &err);
  }
  if (print_hash("file physical", &mh, 'f') != 0) return 2;
  printf("file size: %" PRIu64 "\n", size);
  odf_hash_logical_result* result = NULL;
  if (odf_hash_logical_file(argv[1], 1, &result, &err) != ODF_HASH_OK) {
    return failed("odf_hash_logical_file", &err);
  }
  if (print_logical("file logical", result) != 0) return 2;

  /* A reproduction compared with the original: here the file with itself. */
  odf_hash_comparison* comparison = NULL;
  if (odf_hash_compare(argv[1], argv[1], 1, 5, &comparison, &err) != ODF_HASH_OK) {
    return failed("odf_hash_compare", &err);
  }
  printf("compare itself: %s\n", odf_hash_comparison_verdict(comparison) == ODF_HASH_IDENTICAL
                                     ? "identical"
                                     : "not identical");
  printf("compare itself records: %s\n",
         odf_hash_comparison_records(comparison) == ODF_HASH_RECORDS_EQUAL &&
                 odf_hash_comparison_verified(comparison) == 1
             ? "equal, verified"
             : "not equal");
  printf("compare json has the verdict: %s\n",
         strstr(odf_hash_comparison_json(comparison), "\"verdict\":\"identical\"") != NULL ? "yes"
                                                                                           : "no");
  odf_hash_comparison_free(comparison);

  /* One record batch, as an array. */
  struct ArrowSchema schema;
  struct Batch batch;
  make_schema(&schema);
  make_batch(&batch, 1);
  if (odf_hash_logical_array(&schema, &batch.root, 1, &result, &err) != ODF_HASH_OK) {
    return failed("odf_hash_logical_array", &err);
  }
  if (print_logical("one batch", result) != 0) return 2;

  /* One column, as an array: the digest of column a alone. */
  if (odf_hash_logical_array(&field_a, &batch.a, 1, &result, &err) != ODF_HASH_OK) {
    return failed("odf_hash_logical_array (column)", &err);
  }
  if (print_logical("column a", result) != 0) return 2;

  /* Two batches through the C Stream Interface, on two threads. */
  struct StreamState state;
  memset(&state, 0, sizeof state);
  struct ArrowArrayStream stream = {stream_get_schema, stream_get_next, stream_get_last_error,
                                    stream_release, &state};
  if (odf_hash_logical_stream(&stream, 2, &result, &err) != ODF_HASH_OK) {
    return failed("odf_hash_logical_stream", &err);
  }
  if (print_logical("two batches", result) != 0) return 2;
  printf("stream released: %s\n", stream.release == NULL ? "yes" : "no");

  /* A malformed batch (an offset past the end of its data is not checkable, but a child
   * count that disagrees with the schema is): an error, never a hash. */
  make_batch(&batch, 1);
  batch.root.n_children = 1;
  if (odf_hash_logical_array(&schema, &batch.root, 1, &result, &err) == ODF_HASH_OK) return 2;
  printf("malformed batch: %s\n", odf_hash_status_name(err.code));

  /* Dataset verification. */
  odf_hash_report* report = NULL;
  if (odf_hash_verify(argv[2], 2, 0, &report, &err) != ODF_HASH_OK) {
    return failed("odf_hash_verify", &err);
  }
  const int valid = odf_hash_report_valid(report);
  printf("dataset: %s\n", valid ? "VALID" : "INVALID");
  for (size_t i = 0; i < odf_hash_report_problem_count(report); ++i) {
    odf_hash_problem p;
    if (odf_hash_report_problem(report, i, &p, &err) != ODF_HASH_OK) {
      return failed("odf_hash_report_problem", &err);
    }
    printf("problem: %s %s", p.kind, p.file != NULL ? p.file : "-");
    /* Sizes, counts and offsets are numbers (ABI 2), with their unit. */
    if (p.has_expected_number && p.has_actual_number) {
      printf(" expected %llu actual %llu %s", (unsigned long long)p.expected_number,
             (unsigned long long)p.actual_number, p.unit != NULL ? p.unit : "");
    }
    printf("\n");
  }
  const char* json = odf_hash_report_json(report);
  printf("json names the dataset: %s\n", strstr(json, "\"path\":\"") != NULL ? "yes" : "no");
  /* Entries the chain does not reference are listed, not problems... */
  printf("unreferenced: %zu (%llu bytes)\n", odf_hash_report_unreferenced_count(report),
         (unsigned long long)odf_hash_report_unreferenced_bytes(report));
  for (size_t i = 0; i < odf_hash_report_unreferenced_count(report); ++i) {
    odf_hash_unreferenced u;
    if (odf_hash_report_unreferenced(report, i, &u, &err) != ODF_HASH_OK) {
      return failed("odf_hash_report_unreferenced", &err);
    }
    printf("unreferenced entry: %s %s %llu\n", u.file, u.kind, (unsigned long long)u.size);
  }
  const size_t problems = odf_hash_report_problem_count(report);
  odf_hash_report_free(report);
  /* ... unless strict, where each is an unexpected-file problem. */
  if (odf_hash_verify_ex(argv[2], 2, ODF_HASH_VERIFY_STRICT, &report, &err) != ODF_HASH_OK) {
    return failed("odf_hash_verify_ex", &err);
  }
  printf("strict adds problems: %zu\n", odf_hash_report_problem_count(report) - problems);
  odf_hash_report_free(report);
  /* Verify modes: a trusted head that is not on this chain (made up here), the records
   * checked deeply, and only one file read: the chain is still read whole. */
  odf_hash_verify_modes modes;
  memset(&modes, 0, sizeof modes);
  modes.struct_size = sizeof modes;
  modes.expect_head = "f1620abababababababababababababababababababababababababababababababab";
  modes.sample_count = 1;
  modes.sample_seed = 7;
  if (odf_hash_verify_modes_ex(argv[2], 2, ODF_HASH_VERIFY_DEEP, &modes, &report, &err) !=
      ODF_HASH_OK) {
    return failed("odf_hash_verify_modes_ex", &err);
  }
  printf("modes complete: %d\n", odf_hash_report_complete(report));
  printf("modes verdict says sampled: %s\n",
         strstr(odf_hash_report_verdict(report), "sampled: 1 of ") != NULL ? "yes" : "no");
  odf_hash_problem first;
  if (odf_hash_report_problem(report, 0, &first, &err) != ODF_HASH_OK) {
    return failed("odf_hash_report_problem", &err);
  }
  printf("untrusted head: %s\n", first.kind);
  odf_hash_report_free(report);
  /* A sample of all the bytes (fraction 1) reads every file. */
  memset(&modes, 0, sizeof modes);
  modes.struct_size = sizeof modes;
  modes.sample_fraction = 1.0;
  if (odf_hash_verify_modes_ex(argv[2], 2, 0, &modes, &report, &err) != ODF_HASH_OK) {
    return failed("odf_hash_verify_modes_ex", &err);
  }
  unsigned long sampled = 0, files = 0;
  const char* said = strstr(odf_hash_report_verdict(report), "sampled: ");
  printf("sample of all bytes reads every file: %s\n",
         said != NULL && sscanf(said, "sampled: %lu of %lu files", &sampled, &files) == 2 &&
                 sampled == files && files > 1
             ? "yes"
             : "no");
  odf_hash_report_free(report);
  /* A folder that is not a dataset (a kamu workspace, a dataset's blocks/...) is an error
   * saying what it looks like, not a dataset with problems. */
  if (argc == 4) {
    report = NULL;
    const int code = odf_hash_verify(argv[3], 1, 0, &report, &err);
    printf("not a dataset: %s\n", odf_hash_status_name(code));
    printf("not a dataset says so: %s\n",
           strstr(err.message, "not an ODF dataset") != NULL ? "yes" : "no");
    odf_hash_report_free(report);
  }
  return valid ? 0 : 1;
}
