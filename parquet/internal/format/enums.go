package format

// Type is a Parquet physical type.
type Type int32

// Physical types.
const (
	Boolean           Type = 0
	Int32             Type = 1
	Int64             Type = 2
	Int96             Type = 3
	Float             Type = 4
	Double            Type = 5
	ByteArray         Type = 6
	FixedLenByteArray Type = 7
)

var typeNames = [...]string{"BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"}

func (t Type) String() string {
	if t >= 0 && int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "Type(" + itoa(int64(t)) + ")"
}

// ConvertedType is the legacy logical annotation.
type ConvertedType int32

// Converted types.
const (
	UTF8            ConvertedType = 0
	Map             ConvertedType = 1
	MapKeyValue     ConvertedType = 2
	List            ConvertedType = 3
	Enum            ConvertedType = 4
	Decimal         ConvertedType = 5
	Date            ConvertedType = 6
	TimeMillis      ConvertedType = 7
	TimeMicros      ConvertedType = 8
	TimestampMillis ConvertedType = 9
	TimestampMicros ConvertedType = 10
	Uint8           ConvertedType = 11
	Uint16          ConvertedType = 12
	Uint32          ConvertedType = 13
	Uint64          ConvertedType = 14
	Int8            ConvertedType = 15
	Int16           ConvertedType = 16
	Int32C          ConvertedType = 17
	Int64C          ConvertedType = 18
	JSON            ConvertedType = 19
	BSON            ConvertedType = 20
	Interval        ConvertedType = 21
)

// Repetition is a field's repetition.
type Repetition int32

// Repetitions.
const (
	Required Repetition = 0
	Optional Repetition = 1
	Repeated Repetition = 2
)

// Encoding is a page encoding.
type Encoding int32

// Encodings.
const (
	Plain                Encoding = 0
	PlainDictionary      Encoding = 2
	RLE                  Encoding = 3
	BitPacked            Encoding = 4
	DeltaBinaryPacked    Encoding = 5
	DeltaLengthByteArray Encoding = 6
	DeltaByteArray       Encoding = 7
	RLEDictionary        Encoding = 8
	ByteStreamSplit      Encoding = 9
)

var encodingNames = map[Encoding]string{
	Plain: "PLAIN", PlainDictionary: "PLAIN_DICTIONARY", RLE: "RLE", BitPacked: "BIT_PACKED",
	DeltaBinaryPacked: "DELTA_BINARY_PACKED", DeltaLengthByteArray: "DELTA_LENGTH_BYTE_ARRAY",
	DeltaByteArray: "DELTA_BYTE_ARRAY", RLEDictionary: "RLE_DICTIONARY", ByteStreamSplit: "BYTE_STREAM_SPLIT",
}

func (e Encoding) String() string {
	if s, ok := encodingNames[e]; ok {
		return s
	}
	return "Encoding(" + itoa(int64(e)) + ")"
}

// Codec is a compression codec.
type Codec int32

// Codecs.
const (
	Uncompressed Codec = 0
	Snappy       Codec = 1
	Gzip         Codec = 2
	LZO          Codec = 3
	Brotli       Codec = 4
	LZ4          Codec = 5
	Zstd         Codec = 6
	LZ4Raw       Codec = 7
)

var codecNames = [...]string{"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"}

func (c Codec) String() string {
	if c >= 0 && int(c) < len(codecNames) {
		return codecNames[c]
	}
	return "Codec(" + itoa(int64(c)) + ")"
}

// PageType is the kind of a page.
type PageType int32

// Page types.
const (
	DataPage       PageType = 0
	IndexPage      PageType = 1
	DictionaryPage PageType = 2
	DataPageV2     PageType = 3
)

func itoa(v int64) string {
	if v == 0 {
		return "0"
	}
	neg := v < 0
	var b [24]byte
	i := len(b)
	for v != 0 {
		d := v % 10
		if d < 0 {
			d = -d
		}
		i--
		b[i] = byte('0' + d)
		v /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
