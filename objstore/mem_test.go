package objstore

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
)

// memStore is a Store in memory that counts its requests, for the tests
// of the FS's logic; the tests against a real server are in s3_test.go.
type memStore struct {
	mu      sync.Mutex
	objs    map[string][]byte
	lists   int
	heads   int
	gets    []span
	uploads int
}

func newMemStore() *memStore { return &memStore{objs: map[string][]byte{}} }

func (m *memStore) String() string { return "mem://" }

func (m *memStore) List(_ context.Context, prefix string) ([]Entry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lists++
	seen := map[string]bool{}
	var out []Entry
	for k, v := range m.objs {
		rest, ok := strings.CutPrefix(k, prefix)
		if !ok {
			continue
		}
		if i := strings.Index(rest, "/"); i >= 0 {
			d := prefix + rest[:i+1]
			if !seen[d] {
				seen[d] = true
				out = append(out, Entry{Key: d, Dir: true})
			}
			continue
		}
		out = append(out, Entry{Key: k, Size: int64(len(v))})
	}
	sortEntries(out)
	return out, nil
}

func (m *memStore) Stat(_ context.Context, key string) (Entry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.heads++
	v, ok := m.objs[key]
	if !ok {
		return Entry{}, fmt.Errorf("HEAD %s: %w", key, fs.ErrNotExist)
	}
	return Entry{Key: key, Size: int64(len(v))}, nil
}

func (m *memStore) ReadRange(_ context.Context, key string, off int64, p []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gets = append(m.gets, span{off, off + int64(len(p))})
	v, ok := m.objs[key]
	if !ok {
		return fmt.Errorf("GET %s: %w", key, fs.ErrNotExist)
	}
	if off+int64(len(p)) > int64(len(v)) {
		return fmt.Errorf("GET %s: %w: range past the end", key, ErrRequest)
	}
	copy(p, v[off:])
	return nil
}

func (m *memStore) Create(_ context.Context, key string) (Upload, error) {
	return &memUpload{m: m, key: key}, nil
}

func (m *memStore) Copy(_ context.Context, src, dst string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.objs[src]
	if !ok {
		return fmt.Errorf("COPY %s: %w", src, fs.ErrNotExist)
	}
	m.objs[dst] = slices.Clone(v)
	return nil
}

func (m *memStore) Delete(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.objs, key)
	return nil
}

func (m *memStore) put(key string, data []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.objs[key] = data
}

func (m *memStore) counts() (lists, heads int, gets []span) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.lists, m.heads, slices.Clone(m.gets)
}

func (m *memStore) reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lists, m.heads, m.gets = 0, 0, nil
}

type memUpload struct {
	m    *memStore
	key  string
	buf  bytes.Buffer
	done bool
}

func (u *memUpload) Write(p []byte) (int, error) { return u.buf.Write(p) }

func (u *memUpload) Commit() error {
	if !u.done {
		u.done = true
		u.m.put(u.key, bytes.Clone(u.buf.Bytes()))
	}
	return nil
}

func (u *memUpload) Abort() error { u.done = true; return nil }
