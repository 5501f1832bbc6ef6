// A C consumer of an exported stream of records with columns
// a: int64, b: utf8, c: utf8_view. It checks the interface's invariants
// on every struct and adds the values up, for the Go side to compare.
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "consumer.h"

static int failf(struct consume_result* r, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->msg, sizeof r->msg, fmt, ap);
  va_end(ap);
  r->code = -1;
  return -1;
}

static int valid(const struct ArrowArray* a, int64_t i) {
  const uint8_t* bits = (const uint8_t*)a->buffers[0];
  if (bits == NULL) return 1;
  int64_t j = a->offset + i;
  return (bits[j / 8] >> (j % 8)) & 1;
}

static int check_common(struct consume_result* r, const char* what, const struct ArrowArray* a,
                        int64_t min_buffers, int64_t n_children) {
  if (a->release == NULL) return failf(r, "%s: release is NULL", what);
  if (a->length < 0 || a->offset < 0) return failf(r, "%s: length %lld offset %lld", what, (long long)a->length, (long long)a->offset);
  if (a->null_count < -1 || a->null_count > a->length) return failf(r, "%s: null_count %lld", what, (long long)a->null_count);
  if (a->n_buffers < min_buffers) return failf(r, "%s: %lld buffers, want %lld", what, (long long)a->n_buffers, (long long)min_buffers);
  if (a->n_buffers > 0 && a->buffers == NULL) return failf(r, "%s: buffers is NULL", what);
  if (a->n_children != n_children) return failf(r, "%s: %lld children", what, (long long)a->n_children);
  if (a->dictionary != NULL) return failf(r, "%s: unexpected dictionary", what);
  if (a->null_count != 0 && a->buffers[0] == NULL) return failf(r, "%s: nulls without a validity bitmap", what);
  for (int64_t i = 1; i < a->n_buffers; i++)
    if (a->buffers[i] == NULL) return failf(r, "%s: buffer %lld is NULL", what, (long long)i);
  return 0;
}

static int check_schema(struct consume_result* r, const struct ArrowSchema* s) {
  static const char* names[3] = {"a", "b", "c"};
  static const char* formats[3] = {"l", "u", "vu"};
  if (s->release == NULL) return failf(r, "schema: release is NULL");
  if (strcmp(s->format, "+s") != 0) return failf(r, "schema: format %s", s->format);
  if (s->n_children != 3) return failf(r, "schema: %lld children", (long long)s->n_children);
  for (int i = 0; i < 3; i++) {
    const struct ArrowSchema* c = s->children[i];
    if (c->release == NULL) return failf(r, "schema child %d: release is NULL", i);
    if (strcmp(c->name, names[i]) != 0 || strcmp(c->format, formats[i]) != 0)
      return failf(r, "schema child %d: %s: %s", i, c->name, c->format);
    if (!(c->flags & ARROW_FLAG_NULLABLE)) return failf(r, "schema child %d: not nullable", i);
  }
  return 0;
}

static int consume_batch(struct consume_result* r, const struct ArrowArray* batch) {
  if (check_common(r, "batch", batch, 1, 3)) return -1;
  const struct ArrowArray* a = batch->children[0];
  const struct ArrowArray* b = batch->children[1];
  const struct ArrowArray* c = batch->children[2];
  if (check_common(r, "a", a, 2, 0) || check_common(r, "b", b, 3, 0) || check_common(r, "c", c, 3, 0)) return -1;
  if (a->n_buffers != 2 || b->n_buffers != 3) return failf(r, "a or b: wrong buffer count");
  int64_t from = batch->offset, to = batch->offset + batch->length;
  if (a->length < to || b->length < to || c->length < to) return failf(r, "a child is shorter than the batch");

  const int64_t* av = (const int64_t*)a->buffers[1];
  const int32_t* bo = (const int32_t*)b->buffers[1];
  const uint8_t* cv = (const uint8_t*)c->buffers[1];
  int64_t nvar = c->n_buffers - 3;
  const int64_t* clens = (const int64_t*)c->buffers[c->n_buffers - 1];
  for (int64_t i = from; i < to; i++) {
    if (valid(a, i)) r->sum_a += av[a->offset + i]; else r->nulls_a++;
    int64_t j = b->offset + i;
    if (bo[j + 1] < bo[j]) return failf(r, "b: offsets decrease at %lld", (long long)i);
    if (valid(b, i)) r->bytes_b += bo[j + 1] - bo[j]; else r->nulls_b++;
    const uint8_t* view = cv + 16 * (c->offset + i);
    int32_t len;
    memcpy(&len, view, 4);
    if (len < 0) return failf(r, "c: negative view length at %lld", (long long)i);
    if (len > 12) {
      int32_t idx, off;
      memcpy(&idx, view + 8, 4);
      memcpy(&off, view + 12, 4);
      if (idx < 0 || idx >= nvar) return failf(r, "c: view %lld names buffer %d of %lld", (long long)i, idx, (long long)nvar);
      if (off < 0 || (int64_t)off + len > clens[idx]) return failf(r, "c: view %lld beyond its buffer", (long long)i);
      if (memcmp(view + 4, (const uint8_t*)c->buffers[2 + idx] + off, 4) != 0) return failf(r, "c: view %lld prefix differs", (long long)i);
    }
    if (valid(c, i)) r->bytes_c += len; else r->nulls_c++;
  }
  r->rows += batch->length;
  r->batches++;
  return 0;
}

void consume_stream(struct ArrowArrayStream* s, struct consume_result* r) {
  memset(r, 0, sizeof *r);
  struct ArrowSchema schema;
  int code = s->get_schema(s, &schema);
  if (code != 0) {
    r->code = code;
    snprintf(r->msg, sizeof r->msg, "%s", s->get_last_error(s));
    s->release(s);
    return;
  }
  if (check_schema(r, &schema) == 0) {
    for (;;) {
      struct ArrowArray batch;
      code = s->get_next(s, &batch);
      if (code != 0) {
        const char* msg = s->get_last_error(s);
        r->code = code;
        snprintf(r->msg, sizeof r->msg, "%s", msg ? msg : "(no message)");
        break;
      }
      if (batch.release == NULL) break;  // the end of the stream
      int bad = consume_batch(r, &batch);
      batch.release(&batch);
      if (batch.release != NULL) {
        failf(r, "the batch's release did not mark it released");
        break;
      }
      if (bad) break;
    }
  }
  schema.release(&schema);
  if (schema.release != NULL) failf(r, "the schema's release did not mark it released");
  s->release(s);
  if (s->release != NULL) failf(r, "the stream's release did not mark it released");
}
