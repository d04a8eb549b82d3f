/* A dataset fetched through the odf-hash C ABI (include/odf_hash/odf_hash.h, odf_hash_fetch):
 * copied from a folder or URL into a local folder, keeping only what verifies.
 *
 *   odf_hash_fetch SOURCE DEST [--expect-head HASH] [--force]
 *
 * Prints "verdict: N", "summary: ..." and "json: {...}" (the result as `odf-hash fetch --json`
 * prints it) and exits with the verdict (0 fetched, 1 rejected, 2 incomplete), or prints
 * "error: STATUS: message" and exits 4 when the fetch could not run. Build:
 * cc odf_hash_fetch.c $(pkg-config --cflags --libs odf_hash) */
#include <stdio.h>
#include <string.h>

#include "odf_hash/odf_hash.h"

int main(int argc, char** argv) {
  odf_hash_fetch_options options;
  memset(&options, 0, sizeof options);
  options.struct_size = sizeof options;
  options.jobs = 2;
  for (int i = 3; i < argc; ++i) {
    if (strcmp(argv[i], "--expect-head") == 0 && i + 1 < argc) {
      options.expect_head = argv[++i];
    } else if (strcmp(argv[i], "--force") == 0) {
      options.force = 1;
    } else {
      argc = 0; /* usage */
    }
  }
  if (argc < 3) {
    fprintf(stderr, "usage: %s SOURCE DEST [--expect-head HASH] [--force]\n",
            argc > 0 ? argv[0] : "odf_hash_fetch");
    return 4;
  }
  odf_hash_error err;
  odf_hash_fetch_result* result = NULL;
  if (odf_hash_fetch(argv[1], argv[2], &options, &result, &err) != ODF_HASH_OK) {
    printf("error: %d: %s\n", err.code, err.message);
    return 4;
  }
  const int verdict = odf_hash_fetch_result_verdict(result);
  printf("verdict: %d\nsummary: %s\njson: %s\n", verdict, odf_hash_fetch_result_summary(result),
         odf_hash_fetch_result_json(result));
  odf_hash_fetch_result_free(result);
  return verdict;
}
