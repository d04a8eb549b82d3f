/* A kamu node's signed query answer checked through the odf-hash C ABI
 * (include/odf_hash/odf_hash.h, odf_hash_verify_query): its hashes, its signature, whose key
 * signed it, and the blocks of its input datasets on verified copies.
 *
 *   odf_hash_verify_query ANSWER_FILE [--trust DID]... [--dataset NAME=LOCATION]...
 *
 * Prints "verdict: N", "summary: ..." and "json: {...}" (the check as
 * `odf-hash verify-query --json` prints it) and exits with the verdict (0 valid, 1 mismatch,
 * 2 unsupported, 3 untrusted key), or prints "error: STATUS: message" and exits 4 when the
 * answer could not be checked (malformed, unreadable). Build:
 * cc odf_hash_verify_query.c $(pkg-config --cflags --libs odf_hash) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "odf_hash/odf_hash.h"

#define MAX_ARGS 16

/* The whole file in a malloc'd buffer (*len its size), or NULL. */
static char* read_all(const char* path, size_t* len) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) return NULL;
  size_t cap = 1 << 16, n = 0;
  char* buf = malloc(cap);
  while (buf != NULL) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    char* bigger = realloc(buf, cap *= 2);
    if (bigger == NULL) free(buf);
    buf = bigger;
  }
  if (buf != NULL && ferror(f)) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = n;
  return buf;
}

int main(int argc, char** argv) {
  const char* trust[MAX_ARGS];
  const char* datasets[MAX_ARGS];
  size_t trust_count = 0, dataset_count = 0;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--trust") == 0 && trust_count < MAX_ARGS) {
      trust[trust_count++] = argv[i + 1];
    } else if (strcmp(argv[i], "--dataset") == 0 && dataset_count < MAX_ARGS) {
      datasets[dataset_count++] = argv[i + 1];
    } else {
      argc = 0; /* usage */
    }
  }
  if (argc < 2 || argc % 2 != 0) {
    fprintf(stderr, "usage: %s ANSWER_FILE [--trust DID]... [--dataset NAME=LOCATION]...\n",
            argc > 0 ? argv[0] : "odf_hash_verify_query");
    return 4;
  }
  size_t len = 0;
  char* answer = read_all(argv[1], &len);
  if (answer == NULL) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 4;
  }

  odf_hash_query_options options;
  memset(&options, 0, sizeof options);
  options.struct_size = sizeof options;
  options.trust = trust;
  options.trust_count = trust_count;
  options.datasets = datasets;
  options.dataset_count = dataset_count;
  options.jobs = 2;

  odf_hash_query_check* check = NULL;
  odf_hash_error err;
  /* A struct_size this library does not know is refused, whatever else the options say. */
  options.struct_size = sizeof options + 8;
  const int wrong = odf_hash_verify_query(answer, len, &options, &check, &err);
  printf("wrong struct_size: %s\n", odf_hash_status_name(wrong));
  options.struct_size = sizeof options;

  const int code = odf_hash_verify_query(answer, len, &options, &check, &err);
  free(answer);
  if (code != ODF_HASH_OK) {
    printf("error: %s: %s\n", odf_hash_status_name(code), err.message);
    return 4;
  }
  const int verdict = odf_hash_query_check_verdict(check);
  printf("verdict: %d\n", verdict);
  printf("summary: %s\n", odf_hash_query_check_summary(check));
  printf("json: %s\n", odf_hash_query_check_json(check));
  odf_hash_query_check_free(check);
  return verdict;
}
