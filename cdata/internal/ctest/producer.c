// A C producer of arrays and streams for package cdata's import tests,
// correct or broken in one chosen way, counting its release calls.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "producer.h"

static int64_t n_released_arrays, n_released_schemas, n_released_streams;

int64_t released_arrays(void) { return __atomic_load_n(&n_released_arrays, __ATOMIC_SEQ_CST); }
int64_t released_schemas(void) { return __atomic_load_n(&n_released_schemas, __ATOMIC_SEQ_CST); }
int64_t released_streams(void) { return __atomic_load_n(&n_released_streams, __ATOMIC_SEQ_CST); }

// Every array node owns one malloc'd block: its buffer pointers and data.
static void release_node(struct ArrowArray* a) {
  for (int64_t i = 0; i < a->n_children; i++)
    if (a->children[i]->release != NULL) a->children[i]->release(a->children[i]);
  free(a->private_data);
  a->release = NULL;
}

// The root's release also counts.
static void release_root(struct ArrowArray* a) {
  release_node(a);
  __atomic_add_fetch(&n_released_arrays, 1, __ATOMIC_SEQ_CST);
}

static void release_leaf(struct ArrowSchema* s) { s->release = NULL; }

static void release_schema(struct ArrowSchema* s) {
  for (int64_t i = 0; i < s->n_children; i++)
    if (s->children[i]->release != NULL) s->children[i]->release(s->children[i]);
  free(s->private_data);
  s->release = NULL;
  __atomic_add_fetch(&n_released_schemas, 1, __ATOMIC_SEQ_CST);
}

struct struct_block {
  const void* buffers[1];
  struct ArrowArray* children[3];
  struct ArrowArray x, y, extra;
};

struct int_block {
  const void* buffers[3];
  uint8_t validity[64];
  int32_t values[512];
};

struct str_block {
  const void* buffers[3];
  int32_t offsets[513];
  char data[512 * 8];
};

struct schema_block {
  struct ArrowSchema* children[2];
  struct ArrowSchema x, y;
};

static void produce_schema(struct ArrowSchema* schema, int brk);

void produce_struct(struct ArrowArray* out, struct ArrowSchema* schema, int64_t n, int64_t offset, int brk) {
  if (schema != NULL) produce_schema(schema, brk);
  if (n + offset > 500) n = 500 - offset;
  int64_t end = n + offset;

  struct int_block* xb = calloc(1, sizeof *xb);
  int64_t nulls = 0;
  for (int64_t i = 0; i < end; i++) {
    xb->values[i] = (int32_t)(3 * i);
    if (i % 5 != 4) xb->validity[i / 8] |= (uint8_t)(1 << (i % 8));
    else if (i >= offset) nulls++;
  }
  xb->buffers[0] = xb->validity;
  xb->buffers[1] = xb->values;
  struct str_block* yb = calloc(1, sizeof *yb);
  int32_t pos = 0;
  for (int64_t i = 0; i < end; i++) {
    yb->offsets[i] = pos;
    pos += snprintf(yb->data + pos, 8, "s%lld", (long long)i);
  }
  yb->offsets[end] = pos;
  yb->buffers[0] = NULL;
  yb->buffers[1] = yb->offsets;
  yb->buffers[2] = yb->data;
  if (brk == BREAK_OFFSETS && end > 2) yb->offsets[2] = pos + 100;
  if (brk == BREAK_BAD_UTF8 && end > 1) yb->data[yb->offsets[end - 1]] = (char)0xff;

  struct struct_block* sb = calloc(1, sizeof *sb);
  sb->children[0] = &sb->x;
  sb->children[1] = &sb->y;
  sb->children[2] = &sb->extra;
  sb->x = (struct ArrowArray){.length = n, .null_count = nulls, .offset = offset, .n_buffers = 2,
                              .buffers = xb->buffers, .release = release_node, .private_data = xb};
  sb->y = (struct ArrowArray){.length = n, .null_count = 0, .offset = offset, .n_buffers = 3,
                              .buffers = yb->buffers, .release = release_node, .private_data = yb};
  sb->extra = (struct ArrowArray){.release = release_node, .private_data = NULL};
  *out = (struct ArrowArray){.length = n, .null_count = 0, .offset = 0, .n_buffers = 1, .n_children = 2,
                             .buffers = sb->buffers, .children = sb->children, .release = release_root,
                             .private_data = sb};
  switch (brk) {
    case BREAK_N_BUFFERS: sb->x.n_buffers = 3; break;
    case BREAK_NULL_VALUES: xb->buffers[1] = NULL; break;
    case BREAK_NEGATIVE_LENGTH: sb->x.length = -1; break;
    case BREAK_NULL_COUNT: sb->x.null_count = n + 1; break;
    case BREAK_N_CHILDREN: out->n_children = 3; break;
    case BREAK_NEGATIVE_OFFSET: sb->x.offset = -1; break;
    case BREAK_NO_VALIDITY: xb->buffers[0] = NULL; sb->x.null_count = nulls > 0 ? nulls : 1; break;
    case BREAK_SHORT_CHILD: if (n > 0) sb->y.length = n - 1; break;
  }
}

static void produce_schema(struct ArrowSchema* schema, int brk) {
  struct schema_block* k = calloc(1, sizeof *k);
  k->children[0] = &k->x;
  k->children[1] = &k->y;
  k->x = (struct ArrowSchema){.format = "i", .name = "x", .flags = ARROW_FLAG_NULLABLE, .release = release_leaf};
  k->y = (struct ArrowSchema){.format = "u", .name = "y", .flags = ARROW_FLAG_NULLABLE, .release = release_leaf};
  *schema = (struct ArrowSchema){.format = "+s", .name = "", .n_children = 2, .children = k->children,
                                 .release = release_schema, .private_data = k};
  switch (brk) {
    case BREAK_FORMAT: k->x.format = "q"; break;
    case BREAK_NULL_FORMAT: k->x.format = NULL; break;
    case BREAK_LIST_NO_CHILD: k->x.format = "+l"; break;
  }
}

struct stream_state {
  int64_t batches, fail_at, next;
  char msg[128];
};

static int stream_get_schema(struct ArrowArrayStream* s, struct ArrowSchema* out) {
  produce_schema(out, BREAK_NONE);
  return 0;
}

static int stream_get_next(struct ArrowArrayStream* s, struct ArrowArray* out) {
  struct stream_state* st = s->private_data;
  if (st->next == st->fail_at) {
    snprintf(st->msg, sizeof st->msg, "producer failed at batch %lld", (long long)st->next);
    return EIO;
  }
  if (st->next >= st->batches) {
    out->release = NULL;
    return 0;
  }
  produce_struct(out, NULL, 10 + st->next, st->next, BREAK_NONE);
  st->next++;
  return 0;
}

static const char* stream_last_error(struct ArrowArrayStream* s) {
  struct stream_state* st = s->private_data;
  return st->msg[0] ? st->msg : NULL;
}

static void stream_release(struct ArrowArrayStream* s) {
  free(s->private_data);
  s->release = NULL;
  __atomic_add_fetch(&n_released_streams, 1, __ATOMIC_SEQ_CST);
}

void produce_stream(struct ArrowArrayStream* out, int64_t batches, int64_t fail_at) {
  struct stream_state* st = calloc(1, sizeof *st);
  st->batches = batches;
  st->fail_at = fail_at;
  *out = (struct ArrowArrayStream){.get_schema = stream_get_schema, .get_next = stream_get_next,
                                   .get_last_error = stream_last_error, .release = stream_release,
                                   .private_data = st};
}

static void noop_release_schema(struct ArrowSchema* s) { s->release = NULL; }
static void noop_release_array(struct ArrowArray* a) { a->release = NULL; }

void set_noop_release_schema(struct ArrowSchema* s) { s->release = noop_release_schema; }
void set_noop_release_array(struct ArrowArray* a) { a->release = noop_release_array; }
