#ifndef ALKAID_CTEST_CONSUMER_H
#define ALKAID_CTEST_CONSUMER_H
#include "../../abi.h"  // package cdata's structs (its helper prototypes are unused here)

struct consume_result {
  int64_t batches, rows, sum_a, nulls_a, bytes_b, nulls_b, bytes_c, nulls_c;
  int code;  // 0, the error code of a callback, or -1 for a broken invariant
  char msg[512];
};

void consume_stream(struct ArrowArrayStream* s, struct consume_result* r);
#endif
