package format

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
)

func TestMetadataRoundTrip(t *testing.T) {
	typ, rep, n := Int64, Optional, int32(0)
	md := FileMetaData{
		Version: 2,
		Schema: []SchemaElement{
			{Name: "schema", NumChildren: &n},
			{Name: "ts", Type: &typ, RepetitionType: &rep, LogicalType: &LogicalType{
				Timestamp: &TimeType{IsAdjustedToUTC: true, Unit: TimeUnit{Micros: &Empty{}}}}},
		},
		NumRows: 3,
		RowGroups: []RowGroup{{NumRows: 3, TotalByteSize: 10, Columns: []ColumnChunk{{
			MetaData: &ColumnMetaData{Type: Int64, Encodings: []Encoding{Plain, RLE}, PathInSchema: []string{"ts"},
				Codec: Zstd, NumValues: 3, Statistics: &Statistics{MinValue: []byte{1}, MaxValue: []byte{9}}},
		}}}},
	}
	b := thrift.Marshal(nil, &md)
	var got FileMetaData
	if _, err := thrift.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, md) {
		t.Errorf("got %+v\nwant %+v", got, md)
	}
}

// TestConformanceFooters decodes the footer of every plaintext file of
// parquet-testing.
func TestConformanceFooters(t *testing.T) {
	dir := "../../../../shared/conformance/parquet-testing/data"
	files, _ := filepath.Glob(filepath.Join(dir, "*.parquet"))
	if len(files) == 0 {
		t.Skip("../shared/conformance/parquet-testing is absent")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		if len(data) < 12 || !bytes.Equal(data[len(data)-4:], []byte("PAR1")) {
			t.Errorf("%s: no PAR1 magic", name)
			continue
		}
		n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
		footer := data[len(data)-8-n : len(data)-8]
		var md FileMetaData
		if _, err := thrift.Unmarshal(footer, &md); err != nil {
			if strings.Contains(name, "encrypt") {
				continue
			}
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(md.Schema) == 0 {
			t.Errorf("%s: empty schema", name)
		}
	}
}
