#ifndef ALKAID_CTEST_PRODUCER_H
#define ALKAID_CTEST_PRODUCER_H
#include "../../abi.h"  // package cdata's structs (its helper prototypes are unused here)

// What the producer breaks on purpose (0: nothing).
enum {
  BREAK_NONE = 0,
  BREAK_N_BUFFERS,        // int32 child with 3 buffers
  BREAK_NULL_VALUES,      // int32 child's values buffer NULL
  BREAK_NEGATIVE_LENGTH,  // int32 child length -1
  BREAK_NULL_COUNT,       // int32 child null_count > length
  BREAK_N_CHILDREN,       // the struct with 3 children
  BREAK_NEGATIVE_OFFSET,  // int32 child offset -1
  BREAK_NO_VALIDITY,      // nulls but a NULL validity bitmap
  BREAK_FORMAT,           // int32 child's format "q"
  BREAK_NULL_FORMAT,      // int32 child's format NULL
  BREAK_SHORT_CHILD,      // utf8 child shorter than the struct
  BREAK_OFFSETS,          // utf8 offsets decreasing
  BREAK_BAD_UTF8,         // utf8 value with invalid UTF-8 bytes
  BREAK_LIST_NO_CHILD,    // the int32 child's format "+l" without children
  BREAK_COUNT
};

// produce_struct fills a struct<x: int32, y: utf8> of n rows (after
// offset rows the struct skips) with x = 3i (null when i % 5 == 4) and
// y = "s<i>". Every release increments the counter released_arrays.
void produce_struct(struct ArrowArray* out, struct ArrowSchema* schema, int64_t n, int64_t offset, int brk);
int64_t released_arrays(void);
int64_t released_schemas(void);

// produce_stream fills a stream of batches batches of produce_struct,
// whose get_next fails with EIO and a message at batch fail_at (-1:
// never).
void produce_stream(struct ArrowArrayStream* out, int64_t batches, int64_t fail_at);
int64_t released_streams(void);

// set_noop_release_* give a struct a release callback that only marks it
// released (for tests that corrupt structs: their memory leaks).
void set_noop_release_schema(struct ArrowSchema* s);
void set_noop_release_array(struct ArrowArray* a);
#endif
