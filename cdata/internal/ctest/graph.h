#ifndef ALKAID_CTEST_GRAPH_H
#define ALKAID_CTEST_GRAPH_H
#include "../../abi.h"

// How many formats a graph node may take (see graph.c), and the bytes of
// zeros every buffer points to: enough for any node of at most 255 slots.
#define GRAPH_FORMATS 16
#define GRAPH_SCRATCH 8192

// produce_graph fills the schema s and the array a with a graph of n
// nodes, node 0 the root: node i has format format[i] (an index into
// graph.c's table), an array length of length[i] (at most 255),
// n_children[i] children whose node indexes follow in children (all
// nodes' in order), the dictionary node dictionary[i] (-1: none) and,
// when has_metadata[i], a shared metadata blob of one pair whose value
// has metadata_len bytes. Buffers are zeros, validity absent. Releasing
// both roots frees everything; inner nodes' release does nothing.
void produce_graph(struct ArrowSchema* s, struct ArrowArray* a, int64_t n, const int32_t* format, const int32_t* length,
                   const int32_t* n_children, const int32_t* children, const int32_t* dictionary,
                   const int32_t* has_metadata, int64_t metadata_len);
#endif
