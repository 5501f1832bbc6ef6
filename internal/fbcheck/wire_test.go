package fbcheck

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/internal/flatbuf"
)

// goldenFolders are the folders of the Arrow integration golden files; all of
// them must be present when the shared data is.
var goldenFolders = []string{"1.0.0-bigendian", "2.0.0-compression", "4.0.0-shareddict", "cpp-21.0.0"}

// goldenDir locates the Arrow golden files: $ALKAID_ARROW_TESTING, else
// ../shared/conformance/arrow-testing next to the repository.
func goldenDir(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("ALKAID_ARROW_TESTING"); d != "" {
		return d
	}
	shared := filepath.Join("..", "..", "..", "shared")
	if _, err := os.Stat(shared); errors.Is(err, os.ErrNotExist) {
		t.Skipf("skipping: the shared conformance data %s is absent (set ALKAID_ARROW_TESTING to the arrow-testing folder to run)", shared)
	}
	return filepath.Join(shared, "conformance", "arrow-testing")
}

// stats counts what the golden-file test decoded. Schemas and batches are
// counted per source: the .stream file, the stream embedded in the
// .arrow_file, and the .arrow_file's footer (its schema and the messages its
// blocks point at).
type stats struct {
	cases, bigEndian                    int
	schemas, recordBatches, dictBatches map[string]int
	footerBlocks, nodes, validity       int
	compressed, withVariadics, variadic int
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// expectedCodec derives the body compression a golden file must declare from
// its name.
func expectedCodec(name string) *flatbuf.CompressionType {
	var c flatbuf.CompressionType
	switch {
	case strings.Contains(name, "zstd"):
		c = flatbuf.CompressionTypeZSTD
	case strings.Contains(name, "lz4"):
		c = flatbuf.CompressionTypeLZ4_FRAME
	default:
		return nil
	}
	return &c
}

// golden is one test case: the JSON and what the binary files must agree on.
type golden struct {
	source string // "stream", "embedded" or "footer": which part is being checked
	json   *jsonFile
	codec  *flatbuf.CompressionType
	endian flatbuf.Endianness
	st     *stats
}

// dictState tracks the dictionary batches of one stream or file.
type dictState struct {
	ids  dictIDs       // binary id -> JSON id, from the schema
	sent map[int64]int // binary id -> dictionary batches seen
	used map[int64]int // JSON id -> JSON dictionaries matched
}

func newDictState() *dictState {
	return &dictState{ids: dictIDs{}, sent: map[int64]int{}, used: map[int64]int{}}
}

func (g *golden) checkSchemaMessage(m *message, ds *dictState) (*flatbuf.Schema, error) {
	if m.msg.HeaderType() != flatbuf.MessageHeaderSchema {
		return nil, fmt.Errorf("first message is %v, want Schema", m.msg.HeaderType())
	}
	if v := m.msg.Version(); v != flatbuf.MetadataVersionV5 {
		return nil, fmt.Errorf("schema message version %v, want V5", v)
	}
	if m.msg.BodyLength() != 0 {
		return nil, fmt.Errorf("schema message with a %d-byte body", m.msg.BodyLength())
	}
	var s flatbuf.Schema
	header(m.msg, &s)
	if err := g.checkSchema(&s, ds.ids); err != nil {
		return nil, err
	}
	return &s, nil
}

func (g *golden) checkSchema(s *flatbuf.Schema, ids dictIDs) error {
	if s.Endianness() != g.endian {
		return fmt.Errorf("schema endianness %v, want %v", s.Endianness(), g.endian)
	}
	if err := checkSchema(s, &g.json.Schema, ids); err != nil {
		return err
	}
	g.st.schemas[g.source]++
	return nil
}

// checkBatchMessage checks a RecordBatch or DictionaryBatch message. next
// counts the record batches seen so far.
func (g *golden) checkBatchMessage(s *flatbuf.Schema, m *message, next *int, ds *dictState) error {
	if v := m.msg.Version(); v != flatbuf.MetadataVersionV5 {
		return fmt.Errorf("message version %v, want V5", v)
	}
	switch m.msg.HeaderType() {
	case flatbuf.MessageHeaderRecordBatch:
		if *next >= len(g.json.Batches) {
			return fmt.Errorf("record batch %d, JSON has only %d", *next, len(g.json.Batches))
		}
		want := &g.json.Batches[*next]
		if s.FieldsLength() != len(want.Columns) {
			return fmt.Errorf("record batch %d: JSON has %d columns for %d fields", *next, len(want.Columns), s.FieldsLength())
		}
		var nodes []flatNode
		for i := range want.Columns {
			var f flatbuf.Field
			s.Fields(&f, i)
			var err error
			if nodes, err = flatten(&f, &want.Columns[i], false, "", 0, nodes); err != nil {
				return fmt.Errorf("record batch %d: %w", *next, err)
			}
		}
		var rb flatbuf.RecordBatch
		header(m.msg, &rb)
		nv, nb, err := checkRecordBatch(&rb, m.body, nodes, want, g.codec)
		if err != nil {
			return fmt.Errorf("record batch %d: %w", *next, err)
		}
		*next++
		g.st.recordBatches[g.source]++
		g.st.nodes += len(nodes)
		g.st.validity += nb
		g.st.variadic += nv
		if rb.VariadicBufferCountsLength() > 0 {
			g.st.withVariadics++
		}
		if rb.Compression(nil) != nil {
			g.st.compressed++
		}
	case flatbuf.MessageHeaderDictionaryBatch:
		var db flatbuf.DictionaryBatch
		header(m.msg, &db)
		id := db.Id()
		jid, ok := ds.ids[id]
		if !ok {
			return fmt.Errorf("dictionary batch id %d: no field of the schema uses it", id)
		}
		k := ds.sent[id]
		list := g.jsonDicts()[jid]
		if k >= len(list) {
			return fmt.Errorf("dictionary batch %d for id %d (JSON id %d): JSON has only %d", k, id, jid, len(list))
		}
		want := list[k]
		ds.sent[id]++
		ds.used[jid] = max(ds.used[jid], k+1)
		f := findDictField(s, id)
		if f == nil {
			return fmt.Errorf("dictionary batch id %d: no field of the schema uses it", id)
		}
		if len(want.Data.Columns) != 1 {
			return fmt.Errorf("dictionary %d: JSON has %d columns", id, len(want.Data.Columns))
		}
		col := want.Data.Columns[0]
		col.Name = string(f.Name()) // the JSON names dictionary columns freely
		nodes, err := flatten(f, &col, true, "", 0, nil)
		if err != nil {
			return fmt.Errorf("dictionary %d: %w", id, err)
		}
		rb := db.Data(nil)
		if rb == nil {
			return fmt.Errorf("dictionary %d: no data", id)
		}
		_, nb, err := checkRecordBatch(rb, m.body, nodes, &want.Data, g.codec)
		if err != nil {
			return fmt.Errorf("dictionary %d: %w", id, err)
		}
		g.st.dictBatches[g.source]++
		g.st.validity += nb
	default:
		return fmt.Errorf("unexpected %v message", m.msg.HeaderType())
	}
	return nil
}

// jsonDicts returns the JSON dictionaries by id, in order.
func (g *golden) jsonDicts() map[int64][]*jsonDictionary {
	q := map[int64][]*jsonDictionary{}
	for i := range g.json.Dictionaries {
		d := &g.json.Dictionaries[i]
		q[d.ID] = append(q[d.ID], d)
	}
	return q
}

func (g *golden) checkAllUsed(next int, ds *dictState) error {
	if next != len(g.json.Batches) {
		return fmt.Errorf("%d record batches, JSON has %d", next, len(g.json.Batches))
	}
	for jid, list := range g.jsonDicts() {
		if ds.used[jid] != len(list) {
			return fmt.Errorf("JSON has %d dictionaries with id %d, only %d were sent", len(list), jid, ds.used[jid])
		}
	}
	return nil
}

// checkStream checks every message of a stream against the JSON.
func (g *golden) checkStream(msgs []*message) error {
	if len(msgs) == 0 {
		return fmt.Errorf("empty stream")
	}
	ds := newDictState()
	s, err := g.checkSchemaMessage(msgs[0], ds)
	if err != nil {
		return err
	}
	next := 0
	for _, m := range msgs[1:] {
		if err := g.checkBatchMessage(s, m, &next, ds); err != nil {
			return fmt.Errorf("message at offset %d: %w", m.offset, err)
		}
	}
	return g.checkAllUsed(next, ds)
}

// checkFile checks an IPC file: its footer and the messages its blocks point
// at, and the stream embedded in it.
func (g *golden) checkFile(buf []byte) error {
	footer, err := readFooter(buf)
	if err != nil {
		return err
	}
	if footer.Version() != flatbuf.MetadataVersionV5 {
		return fmt.Errorf("footer version %v, want V5", footer.Version())
	}
	s := footer.Schema(nil)
	if s == nil {
		return fmt.Errorf("footer without schema")
	}
	g.source = "footer"
	ds := newDictState()
	if err := g.checkSchema(s, ds.ids); err != nil {
		return fmt.Errorf("footer schema: %w", err)
	}
	embedded, err := readStream(buf, 8)
	if err != nil {
		return fmt.Errorf("embedded stream: %w", err)
	}
	g.source = "embedded"
	if err := g.checkStream(embedded); err != nil {
		return fmt.Errorf("embedded stream: %w", err)
	}
	g.source = "footer"
	byOffset := map[int64]*message{}
	for _, m := range embedded {
		byOffset[m.offset] = m
	}

	next := 0
	var blk flatbuf.Block
	check := func(kind string, i int, want flatbuf.MessageHeader) error {
		m, _, err := readMessage(buf, blk.Offset())
		if err != nil || m == nil {
			return fmt.Errorf("%s block %d at offset %d: no message (%v)", kind, i, blk.Offset(), err)
		}
		if m.metaLen != blk.MetaDataLength() || int64(len(m.body)) != blk.BodyLength() || m.msg.HeaderType() != want {
			return fmt.Errorf("%s block %d {offset %d, metaDataLength %d, bodyLength %d} does not match the %v message there (%d, %d)",
				kind, i, blk.Offset(), blk.MetaDataLength(), blk.BodyLength(), m.msg.HeaderType(), m.metaLen, len(m.body))
		}
		if byOffset[blk.Offset()] == nil {
			return fmt.Errorf("%s block %d points at offset %d, not at a message of the embedded stream", kind, i, blk.Offset())
		}
		g.st.footerBlocks++
		return g.checkBatchMessage(s, m, &next, ds)
	}
	for i := range footer.DictionariesLength() {
		footer.Dictionaries(&blk, i)
		if err := check("dictionary", i, flatbuf.MessageHeaderDictionaryBatch); err != nil {
			return err
		}
	}
	for i := range footer.RecordBatchesLength() {
		footer.RecordBatches(&blk, i)
		if err := check("record batch", i, flatbuf.MessageHeaderRecordBatch); err != nil {
			return err
		}
	}
	return g.checkAllUsed(next, ds)
}

// TestArrowGoldenFiles decodes every schema, dictionary batch and record batch
// of the Arrow integration golden files (streams and files) with the generated
// code and compares them with the JSON description of each case.
func TestArrowGoldenFiles(t *testing.T) {
	dir := goldenDir(t)
	st := stats{schemas: map[string]int{}, recordBatches: map[string]int{}, dictBatches: map[string]int{}}
	for _, folder := range goldenFolders {
		cases, err := filepath.Glob(filepath.Join(dir, folder, "*.json.gz"))
		if err != nil || len(cases) == 0 {
			t.Fatalf("no golden cases in %s (err %v)", filepath.Join(dir, folder), err)
		}
		for _, jpath := range cases {
			base := strings.TrimSuffix(jpath, ".json.gz")
			name := filepath.Base(base)
			t.Run(folder+"/"+name, func(t *testing.T) {
				jf, err := readJSON(jpath)
				if err != nil {
					t.Fatal(err)
				}
				g := &golden{json: jf, codec: expectedCodec(name), endian: flatbuf.EndiannessLittle, st: &st}
				if folder == "1.0.0-bigendian" {
					g.endian = flatbuf.EndiannessBig
				}
				st.cases++

				buf, err := os.ReadFile(base + ".stream")
				if err != nil {
					t.Fatal(err)
				}
				g.source = "stream"
				msgs, err := readStream(buf, 0)
				if err == nil {
					err = g.checkStream(msgs)
				}
				if err != nil {
					t.Errorf("%s.stream: %v", name, err)
				}

				buf, err = os.ReadFile(base + ".arrow_file")
				if err != nil {
					t.Fatal(err)
				}
				if err := g.checkFile(buf); err != nil {
					t.Errorf("%s.arrow_file: %v", name, err)
				}
				if g.endian == flatbuf.EndiannessBig {
					st.bigEndian++
				}
			})
		}
	}
	t.Logf("%d cases (%d big-endian), each a .stream and an .arrow_file (%d binary files)", st.cases, st.bigEndian, 2*st.cases)
	t.Logf("schemas decoded: %d (per source %v)", sum(st.schemas), st.schemas)
	t.Logf("record batch messages decoded: %d (per source %v), %d field nodes, %d validity bitmaps compared bit by bit, %d compressed, %d with variadicBufferCounts (%d counts)",
		sum(st.recordBatches), st.recordBatches, st.nodes, st.validity, st.compressed, st.withVariadics, st.variadic)
	t.Logf("dictionary batch messages decoded: %d (per source %v); footer blocks resolved: %d", sum(st.dictBatches), st.dictBatches, st.footerBlocks)
}
