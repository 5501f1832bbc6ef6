// A C producer of schema and array graphs of any shape, for package
// cdata's tests of what a hostile producer can make an import do: nodes
// may share children (a DAG whose size doubles with each level) or point
// back to an ancestor (a cycle).
#include <stdlib.h>
#include <string.h>

#include "graph.h"

// The formats a node may have; graph_buffers gives each one's buffer count
// as an array (the array import checks it against the type).
static const char* const graph_formats[GRAPH_FORMATS] = {
    "n", "i", "u", "+s", "+l", "+m", "+w:2", "+us:0,1", "+ud:0,1", "d:9,2", "tsu:UTC", "vu", "z", "+r", "c", "tdD"};
static const int graph_buffers[GRAPH_FORMATS] = {0, 2, 3, 1, 2, 2, 1, 1, 2, 2, 2, 3, 3, 0, 2, 2};

// One block holds the whole graph; both roots point to it and the second
// root released frees it.
struct graph {
  int64_t n, refs;
  struct ArrowSchema* schemas;
  struct ArrowArray* arrays;
  struct ArrowSchema** schema_children;
  struct ArrowArray** array_children;
  const void** buffers;  // 3 per node
  uint8_t* scratch;      // zeros every buffer points to
  char* metadata;
};

static void graph_unref(struct graph* g) {
  if (--g->refs > 0) return;
  free(g->schemas);
  free(g->arrays);
  free(g->schema_children);
  free(g->array_children);
  free(g->buffers);
  free(g->scratch);
  free(g->metadata);
  free(g);
}

// Inner nodes stay live whatever is done to them: they are shared.
static void inner_schema_release(struct ArrowSchema* s) { (void)s; }
static void inner_array_release(struct ArrowArray* a) { (void)a; }

static void root_schema_release(struct ArrowSchema* s) {
  struct graph* g = s->private_data;
  s->release = NULL;
  graph_unref(g);
}

static void root_array_release(struct ArrowArray* a) {
  struct graph* g = a->private_data;
  a->release = NULL;
  graph_unref(g);
}

void produce_graph(struct ArrowSchema* s, struct ArrowArray* a, int64_t n, const int32_t* format, const int32_t* length,
                   const int32_t* n_children, const int32_t* children, const int32_t* dictionary,
                   const int32_t* has_metadata, int64_t metadata_len) {
  struct graph* g = calloc(1, sizeof *g);
  int64_t total_children = 0;
  for (int64_t i = 0; i < n; i++) total_children += n_children[i];
  g->n = n;
  g->refs = 2;
  g->schemas = calloc(n, sizeof *g->schemas);
  g->arrays = calloc(n, sizeof *g->arrays);
  g->schema_children = calloc(total_children + 1, sizeof *g->schema_children);
  g->array_children = calloc(total_children + 1, sizeof *g->array_children);
  g->buffers = calloc(3 * n, sizeof *g->buffers);
  g->scratch = calloc(1, GRAPH_SCRATCH);
  if (metadata_len > 0) {
    // One pair, "k" and a value of metadata_len bytes 'v'.
    g->metadata = malloc(4 + 4 + 1 + 4 + metadata_len);
    int32_t one = 1, klen = 1, vlen = (int32_t)metadata_len;
    memcpy(g->metadata, &one, 4);
    memcpy(g->metadata + 4, &klen, 4);
    g->metadata[8] = 'k';
    memcpy(g->metadata + 9, &vlen, 4);
    memset(g->metadata + 13, 'v', metadata_len);
  }
  int64_t next = 0;
  for (int64_t i = 0; i < n; i++) {
    int f = format[i] % GRAPH_FORMATS;
    struct ArrowSchema* sn = &g->schemas[i];
    struct ArrowArray* an = &g->arrays[i];
    sn->format = graph_formats[f];
    sn->name = "c";
    sn->flags = 2;  // nullable
    sn->n_children = n_children[i];
    sn->children = &g->schema_children[next];
    sn->dictionary = dictionary[i] >= 0 ? &g->schemas[dictionary[i]] : NULL;
    sn->metadata = has_metadata[i] ? g->metadata : NULL;
    sn->release = inner_schema_release;
    an->length = length[i];
    an->n_buffers = graph_buffers[f];
    an->buffers = &g->buffers[3 * i];
    for (int b = 1; b < graph_buffers[f]; b++) g->buffers[3 * i + b] = g->scratch;  // buffer 0: no validity
    an->n_children = n_children[i];
    an->children = &g->array_children[next];
    an->dictionary = dictionary[i] >= 0 ? &g->arrays[dictionary[i]] : NULL;
    an->release = inner_array_release;
    for (int32_t c = 0; c < n_children[i]; c++, next++) {
      g->schema_children[next] = &g->schemas[children[next]];
      g->array_children[next] = &g->arrays[children[next]];
    }
  }
  // The roots are copies of node 0 (which stays, shareable) that own g.
  *s = g->schemas[0];
  s->private_data = g;
  s->release = root_schema_release;
  *a = g->arrays[0];
  a->private_data = g;
  a->release = root_array_release;
}
