// C side of package cdata: release callbacks and the stream interface's
// callbacks (which call back into Go), and calls through function pointers
// that Go cannot make itself.
#include "abi.h"
#include "_cgo_export.h"

void alk_release_schema(struct ArrowSchema* s) {
  if (s == NULL || s->release == NULL) return;
  free((void*)s->format);
  free((void*)s->name);
  free((void*)s->metadata);
  for (int64_t i = 0; i < s->n_children; i++) {
    struct ArrowSchema* c = s->children[i];
    if (c != NULL && c->release != NULL) c->release(c);
  }
  free(s->children);  // the pointers and the child structs: one block
  if (s->dictionary != NULL) {
    if (s->dictionary->release != NULL) s->dictionary->release(s->dictionary);
    free(s->dictionary);
  }
  s->release = NULL;
}

void alk_set_schema_release(struct ArrowSchema* s) { s->release = alk_release_schema; }

void alk_release_array(struct ArrowArray* a) {
  if (a == NULL || a->release == NULL) return;
  for (int64_t i = 0; i < a->n_children; i++) {
    struct ArrowArray* c = a->children[i];
    if (c != NULL && c->release != NULL) c->release(c);
  }
  free(a->children);  // the pointers and the child structs: one block
  if (a->dictionary != NULL) {
    if (a->dictionary->release != NULL) a->dictionary->release(a->dictionary);
    free(a->dictionary);
  }
  free((void*)a->buffers);  // the pointers and any variadic lengths: one block
  uintptr_t h = (uintptr_t)a->private_data;
  a->release = NULL;
  a->private_data = NULL;
  alkReleaseArrayHandle(h);
}

void alk_set_array_release(struct ArrowArray* a, uintptr_t handle) {
  a->private_data = (void*)handle;
  a->release = alk_release_array;
}

int alk_stream_get_schema(struct ArrowArrayStream* s, struct ArrowSchema* out) {
  return alkStreamGetSchema((uintptr_t)s->private_data, out);
}

int alk_stream_get_next(struct ArrowArrayStream* s, struct ArrowArray* out) {
  return alkStreamGetNext((uintptr_t)s->private_data, out);
}

const char* alk_stream_get_last_error(struct ArrowArrayStream* s) {
  return alkStreamLastError((uintptr_t)s->private_data);
}

void alk_release_stream(struct ArrowArrayStream* s) {
  if (s == NULL || s->release == NULL) return;
  uintptr_t h = (uintptr_t)s->private_data;
  s->release = NULL;
  s->private_data = NULL;
  alkStreamRelease(h);
}

void alk_set_stream_callbacks(struct ArrowArrayStream* s, uintptr_t handle) {
  s->get_schema = alk_stream_get_schema;
  s->get_next = alk_stream_get_next;
  s->get_last_error = alk_stream_get_last_error;
  s->release = alk_release_stream;
  s->private_data = (void*)handle;
}

void alk_call_schema_release(struct ArrowSchema* s) {
  if (s->release != NULL) s->release(s);
}

void alk_call_array_release(struct ArrowArray* a) {
  if (a->release != NULL) a->release(a);
}

void alk_call_stream_release(struct ArrowArrayStream* s) {
  if (s->release != NULL) s->release(s);
}

int alk_call_get_schema(struct ArrowArrayStream* s, struct ArrowSchema* out) {
  return s->get_schema(s, out);
}

int alk_call_get_next(struct ArrowArrayStream* s, struct ArrowArray* out) {
  return s->get_next(s, out);
}

const char* alk_call_get_last_error(struct ArrowArrayStream* s) {
  if (s->get_last_error == NULL) return NULL;
  return s->get_last_error(s);
}

int alk_has_stream_callbacks(struct ArrowArrayStream* s) {
  return s->get_schema != NULL && s->get_next != NULL && s->release != NULL;
}
