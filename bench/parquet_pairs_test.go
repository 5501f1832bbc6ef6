package bench

import (
	"bytes"
	"testing"
)

// TestParquetWritesRoundTrip reads what each Parquet writer wrote with
// both readers: the same rows and last value everywhere.
func TestParquetWritesRoundTrip(t *testing.T) {
	in := NewInputs(Small)
	in.mixedBatch()
	for _, c := range pqCodecs {
		var ours, theirs bytes.Buffer
		if err := in.WriteParquetAlkaid(&ours, c); err != nil {
			t.Fatal(err)
		}
		if err := in.WriteParquetArrowGo(&theirs, c); err != nil {
			t.Fatal(err)
		}
		var got []readSummary
		for _, raw := range [][]byte{ours.Bytes(), theirs.Bytes()} {
			a, err := ReadParquetAlkaid(raw)
			if err != nil {
				t.Fatalf("%s: alkaid: %v", c.name, err)
			}
			g, err := ReadParquetArrowGo(raw)
			if err != nil {
				t.Fatalf("%s: arrow-go: %v", c.name, err)
			}
			got = append(got, a, g)
		}
		for _, g := range got[1:] {
			if g != got[0] {
				t.Fatalf("%s: reads differ: %v", c.name, got)
			}
		}
		if got[0].Rows != in.S.BatchRows {
			t.Fatalf("%s: %d rows, want %d", c.name, got[0].Rows, in.S.BatchRows)
		}
	}
}
