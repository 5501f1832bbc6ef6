package format

// Empty is a Thrift struct without fields (the members of unions such as
// LogicalType and TimeUnit).
type Empty struct{}

// FileMetaData is the footer of a Parquet file.
type FileMetaData struct {
	Version                  int32                `thrift:"1,required"`
	Schema                   []SchemaElement      `thrift:"2,required"`
	NumRows                  int64                `thrift:"3,required"`
	RowGroups                []RowGroup           `thrift:"4,required"`
	KeyValueMetadata         []KeyValue           `thrift:"5"`
	CreatedBy                *string              `thrift:"6"`
	ColumnOrders             []ColumnOrder        `thrift:"7"`
	EncryptionAlgorithm      *EncryptionAlgorithm `thrift:"8"`
	FooterSigningKeyMetadata []byte               `thrift:"9"`
}

// KeyValue is one entry of key-value metadata.
type KeyValue struct {
	Key   string  `thrift:"1,required"`
	Value *string `thrift:"2"`
}

// ColumnOrder says how a column's statistics are ordered.
type ColumnOrder struct {
	TypeOrder *Empty `thrift:"1"`
}

// SchemaElement is one node of the flattened schema tree.
type SchemaElement struct {
	Type           *Type          `thrift:"1"`
	TypeLength     *int32         `thrift:"2"`
	RepetitionType *Repetition    `thrift:"3"`
	Name           string         `thrift:"4,required"`
	NumChildren    *int32         `thrift:"5"`
	ConvertedType  *ConvertedType `thrift:"6"`
	Scale          *int32         `thrift:"7"`
	Precision      *int32         `thrift:"8"`
	FieldID        *int32         `thrift:"9"`
	LogicalType    *LogicalType   `thrift:"10"`
}

// LogicalType is the union of logical annotations.
type LogicalType struct {
	String    *Empty       `thrift:"1"`
	Map       *Empty       `thrift:"2"`
	List      *Empty       `thrift:"3"`
	Enum      *Empty       `thrift:"4"`
	Decimal   *DecimalType `thrift:"5"`
	Date      *Empty       `thrift:"6"`
	Time      *TimeType    `thrift:"7"`
	Timestamp *TimeType    `thrift:"8"`
	Integer   *IntType     `thrift:"10"`
	Unknown   *Empty       `thrift:"11"`
	JSON      *Empty       `thrift:"12"`
	BSON      *Empty       `thrift:"13"`
	UUID      *Empty       `thrift:"14"`
	Float16   *Empty       `thrift:"15"`
}

// DecimalType annotates a decimal.
type DecimalType struct {
	Scale     int32 `thrift:"1,required"`
	Precision int32 `thrift:"2,required"`
}

// TimeUnit is the union of time units.
type TimeUnit struct {
	Millis *Empty `thrift:"1"`
	Micros *Empty `thrift:"2"`
	Nanos  *Empty `thrift:"3"`
}

// TimeType annotates a time or timestamp.
type TimeType struct {
	IsAdjustedToUTC bool     `thrift:"1,required"`
	Unit            TimeUnit `thrift:"2,required"`
}

// IntType annotates an integer.
type IntType struct {
	BitWidth int8 `thrift:"1,required"`
	IsSigned bool `thrift:"2,required"`
}

// RowGroup is one horizontal partition of the file.
type RowGroup struct {
	Columns             []ColumnChunk   `thrift:"1,required"`
	TotalByteSize       int64           `thrift:"2,required"`
	NumRows             int64           `thrift:"3,required"`
	SortingColumns      []SortingColumn `thrift:"4"`
	FileOffset          *int64          `thrift:"5"`
	TotalCompressedSize *int64          `thrift:"6"`
	Ordinal             *int16          `thrift:"7"`
}

// SortingColumn records a sort order of a row group.
type SortingColumn struct {
	ColumnIdx  int32 `thrift:"1,required"`
	Descending bool  `thrift:"2,required"`
	NullsFirst bool  `thrift:"3,required"`
}

// ColumnChunk locates one column of a row group.
type ColumnChunk struct {
	FilePath                *string               `thrift:"1"`
	FileOffset              int64                 `thrift:"2"`
	MetaData                *ColumnMetaData       `thrift:"3"`
	OffsetIndexOffset       *int64                `thrift:"4"`
	OffsetIndexLength       *int32                `thrift:"5"`
	ColumnIndexOffset       *int64                `thrift:"6"`
	ColumnIndexLength       *int32                `thrift:"7"`
	CryptoMetadata          *ColumnCryptoMetaData `thrift:"8"`
	EncryptedColumnMetadata []byte                `thrift:"9"`
}

// ColumnMetaData describes a column chunk's pages.
type ColumnMetaData struct {
	Type                  Type                `thrift:"1,required"`
	Encodings             []Encoding          `thrift:"2,required"`
	PathInSchema          []string            `thrift:"3,required"`
	Codec                 Codec               `thrift:"4,required"`
	NumValues             int64               `thrift:"5,required"`
	TotalUncompressedSize int64               `thrift:"6,required"`
	TotalCompressedSize   int64               `thrift:"7,required"`
	KeyValueMetadata      []KeyValue          `thrift:"8"`
	DataPageOffset        int64               `thrift:"9,required"`
	IndexPageOffset       *int64              `thrift:"10"`
	DictionaryPageOffset  *int64              `thrift:"11"`
	Statistics            *Statistics         `thrift:"12"`
	EncodingStats         []PageEncodingStats `thrift:"13"`
	BloomFilterOffset     *int64              `thrift:"14"`
	BloomFilterLength     *int32              `thrift:"15"`
}

// PageEncodingStats counts the pages of one type and encoding.
type PageEncodingStats struct {
	PageType PageType `thrift:"1,required"`
	Encoding Encoding `thrift:"2,required"`
	Count    int32    `thrift:"3,required"`
}

// Statistics are the min, max and null count of a chunk or page.
type Statistics struct {
	Max             []byte `thrift:"1"`
	Min             []byte `thrift:"2"`
	NullCount       *int64 `thrift:"3"`
	DistinctCount   *int64 `thrift:"4"`
	MaxValue        []byte `thrift:"5"`
	MinValue        []byte `thrift:"6"`
	IsMaxValueExact *bool  `thrift:"7"`
	IsMinValueExact *bool  `thrift:"8"`
}

// PageHeader precedes every page.
type PageHeader struct {
	Type                 PageType              `thrift:"1,required"`
	UncompressedPageSize int32                 `thrift:"2,required"`
	CompressedPageSize   int32                 `thrift:"3,required"`
	CRC                  *int32                `thrift:"4"`
	DataPageHeader       *DataPageHeader       `thrift:"5"`
	IndexPageHeader      *Empty                `thrift:"6"`
	DictionaryPageHeader *DictionaryPageHeader `thrift:"7"`
	DataPageHeaderV2     *DataPageHeaderV2     `thrift:"8"`
}

// DataPageHeader describes a v1 data page.
type DataPageHeader struct {
	NumValues               int32       `thrift:"1,required"`
	Encoding                Encoding    `thrift:"2,required"`
	DefinitionLevelEncoding Encoding    `thrift:"3,required"`
	RepetitionLevelEncoding Encoding    `thrift:"4,required"`
	Statistics              *Statistics `thrift:"5"`
}

// DictionaryPageHeader describes a dictionary page.
type DictionaryPageHeader struct {
	NumValues int32    `thrift:"1,required"`
	Encoding  Encoding `thrift:"2,required"`
	IsSorted  *bool    `thrift:"3"`
}

// DataPageHeaderV2 describes a v2 data page; its levels are never
// compressed.
type DataPageHeaderV2 struct {
	NumValues                  int32       `thrift:"1,required"`
	NumNulls                   int32       `thrift:"2,required"`
	NumRows                    int32       `thrift:"3,required"`
	Encoding                   Encoding    `thrift:"4,required"`
	DefinitionLevelsByteLength int32       `thrift:"5,required"`
	RepetitionLevelsByteLength int32       `thrift:"6,required"`
	IsCompressed               *bool       `thrift:"7"`
	Statistics                 *Statistics `thrift:"8"`
}

// ColumnIndex holds per-page statistics of a column chunk.
type ColumnIndex struct {
	NullPages     []bool   `thrift:"1,required"`
	MinValues     [][]byte `thrift:"2,required"`
	MaxValues     [][]byte `thrift:"3,required"`
	BoundaryOrder int32    `thrift:"4,required"`
	NullCounts    []int64  `thrift:"5"`
}

// PageLocation locates one data page.
type PageLocation struct {
	Offset             int64 `thrift:"1,required"`
	CompressedPageSize int32 `thrift:"2,required"`
	FirstRowIndex      int64 `thrift:"3,required"`
}

// OffsetIndex locates the data pages of a column chunk.
type OffsetIndex struct {
	PageLocations []PageLocation `thrift:"1,required"`
}

// BloomFilterHeader precedes a split-block bloom filter.
type BloomFilterHeader struct {
	NumBytes    int32      `thrift:"1,required"`
	Algorithm   BloomUnion `thrift:"2,required"`
	Hash        BloomUnion `thrift:"3,required"`
	Compression BloomUnion `thrift:"4,required"`
}

// BloomUnion is one of the single-member unions of a bloom filter header
// (BLOCK, XXHASH, UNCOMPRESSED).
type BloomUnion struct {
	First *Empty `thrift:"1"`
}

// EncryptionAlgorithm is the union of the modular encryption algorithms.
type EncryptionAlgorithm struct {
	AESGCMV1    *AESGCM `thrift:"1"`
	AESGCMCTRV1 *AESGCM `thrift:"2"`
}

// AESGCM holds the parameters of AES_GCM_V1 and AES_GCM_CTR_V1 (the two
// structs of the format have the same fields).
type AESGCM struct {
	AADPrefix       []byte `thrift:"1"`
	AADFileUnique   []byte `thrift:"2"`
	SupplyAADPrefix *bool  `thrift:"3"`
}

// FileCryptoMetaData precedes the encrypted footer of a file in encrypted
// footer mode ("PARE" magic).
type FileCryptoMetaData struct {
	EncryptionAlgorithm EncryptionAlgorithm `thrift:"1,required"`
	KeyMetadata         []byte              `thrift:"2"`
}

// ColumnCryptoMetaData says with which key a column chunk is encrypted.
type ColumnCryptoMetaData struct {
	EncryptionWithFooterKey *Empty                   `thrift:"1"`
	EncryptionWithColumnKey *EncryptionWithColumnKey `thrift:"2"`
}

// EncryptionWithColumnKey names a column encrypted with its own key.
type EncryptionWithColumnKey struct {
	PathInSchema []string `thrift:"1,required"`
	KeyMetadata  []byte   `thrift:"2"`
}
