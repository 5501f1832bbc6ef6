// The structs of the Arrow C Data Interface and C Stream Interface, as the
// interface's specification defines them (an ABI: field order and types
// are fixed), and the helpers of package cdata.
#ifndef ALKAID_CDATA_ABI_H
#define ALKAID_CDATA_ABI_H

#include <stdint.h>
#include <stdlib.h>

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

struct ArrowSchema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;
  void (*release)(struct ArrowSchema*);
  void* private_data;
};

struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
  void (*release)(struct ArrowArray*);
  void* private_data;
};

#endif  // ARROW_C_DATA_INTERFACE

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  const char* (*get_last_error)(struct ArrowArrayStream*);
  void (*release)(struct ArrowArrayStream*);
  void* private_data;
};

#endif  // ARROW_C_STREAM_INTERFACE

// Helpers defined in bridge.c.
void alk_set_schema_release(struct ArrowSchema* s);
void alk_set_array_release(struct ArrowArray* a, uintptr_t handle);
void alk_set_stream_callbacks(struct ArrowArrayStream* s, uintptr_t handle);
void alk_release_schema(struct ArrowSchema* s);
void alk_release_array(struct ArrowArray* a);
void alk_release_stream(struct ArrowArrayStream* s);
int alk_stream_get_schema(struct ArrowArrayStream* s, struct ArrowSchema* out);
int alk_stream_get_next(struct ArrowArrayStream* s, struct ArrowArray* out);
const char* alk_stream_get_last_error(struct ArrowArrayStream* s);
void alk_call_schema_release(struct ArrowSchema* s);
void alk_call_array_release(struct ArrowArray* a);
void alk_call_stream_release(struct ArrowArrayStream* s);
int alk_call_get_schema(struct ArrowArrayStream* s, struct ArrowSchema* out);
int alk_call_get_next(struct ArrowArrayStream* s, struct ArrowArray* out);
const char* alk_call_get_last_error(struct ArrowArrayStream* s);
int alk_has_stream_callbacks(struct ArrowArrayStream* s);

#endif  // ALKAID_CDATA_ABI_H
