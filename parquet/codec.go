package parquet

// The codecs and value encodings a caller names: the writer's options
// and what FileInfo reports of a file read.

import "github.com/alkaid-go/alkaid/parquet/internal/format"

// Codec is a page compression codec.
type Codec int32

// The codecs the writer can use (and the reader reads).
const (
	Uncompressed = Codec(format.Uncompressed)
	Snappy       = Codec(format.Snappy)
	Gzip         = Codec(format.Gzip)
	Brotli       = Codec(format.Brotli)
	LZ4          = Codec(format.LZ4)
	Zstd         = Codec(format.Zstd)
	LZ4Raw       = Codec(format.LZ4Raw)
)

func (c Codec) String() string { return format.Codec(c).String() }

// Encoding is a value encoding the writer may be asked to use.
type Encoding int32

// Value encodings of the writer. Dictionary encoding is chosen with
// WithDictionary, not here.
const (
	Plain                = Encoding(format.Plain)
	DeltaBinaryPacked    = Encoding(format.DeltaBinaryPacked)
	DeltaLengthByteArray = Encoding(format.DeltaLengthByteArray)
	DeltaByteArray       = Encoding(format.DeltaByteArray)
	ByteStreamSplit      = Encoding(format.ByteStreamSplit)
)

func (e Encoding) String() string { return format.Encoding(e).String() }
