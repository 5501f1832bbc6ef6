package objstore

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"
)

// FuzzFileReadAt reads an object through Prefetch and ReadAt calls
// decoded from the input and checks every read against the object.
func FuzzFileReadAt(f *testing.F) {
	f.Add(uint32(100_000), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add(uint32(10), []byte{1, 0, 0, 0, 0, 0, 0, 0, 9, 255, 255, 255, 255, 255, 255, 255, 255})
	f.Add(uint32(wholeSize+1), []byte{})
	f.Fuzz(func(t *testing.T, size uint32, ops []byte) {
		size %= 1 << 20
		data := randomBytes(int(size), uint64(size))
		fsys, _ := memFS(t, map[string][]byte{"x": data})
		file, err := fsys.Open("x")
		if err != nil {
			t.Fatal(err)
		}
		defer file.Close()
		ra := file.(*File)
		for len(ops) >= 17 {
			kind := ops[0]
			off := int64(binary.LittleEndian.Uint32(ops[1:])) % (int64(size) + 10)
			n := int64(binary.LittleEndian.Uint32(ops[5:])) % (256 << 10)
			off2 := int64(binary.LittleEndian.Uint32(ops[9:]))
			n2 := int64(int32(binary.LittleEndian.Uint32(ops[13:])))
			ops = ops[17:]
			if kind%2 == 1 {
				ra.Prefetch([][2]int64{{off, n}, {off2, n2}})
			}
			p := make([]byte, n)
			k, err := ra.ReadAt(p, off)
			start := min(off, int64(size))
			want := data[start:max(start, min(off+n, int64(size)))]
			if !bytes.Equal(p[:k], want) {
				t.Fatalf("ReadAt(%d bytes at %d) of %d: %d bytes unlike the object's", n, off, size, k)
			}
			if k < len(p) && err != io.EOF {
				t.Fatalf("short ReadAt(%d at %d) of %d = %d, %v; want io.EOF", n, off, size, k, err)
			}
		}
	})
}

// FuzzParseURL: any string parses to a bucket and prefix, or an error,
// never a panic; a parsed URL formats back to itself.
func FuzzParseURL(f *testing.F) {
	for _, s := range []string{"s3://b/p", "s3://b", "s3:///x", "s3://b/%zz", "http://b/p", "s3://b/p?x=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		bucket, prefix, err := ParseURL(s)
		if err != nil {
			return
		}
		if bucket == "" {
			t.Fatalf("ParseURL(%q): empty bucket without an error", s)
		}
		b2, p2, err := ParseURL("s3://" + bucket + "/" + prefix)
		if err != nil || b2 != bucket || p2 != prefix {
			t.Fatalf("ParseURL(%q) = %q, %q; formatted back: %q, %q, %v", s, bucket, prefix, b2, p2, err)
		}
	})
}
