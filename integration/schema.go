package integration

import (
	"encoding/json"

	"github.com/alkaid-go/alkaid/datatype"
)

// The JSON shapes of the schema part of the format.

type jsonKV struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type jsonDictEncoding struct {
	ID        int64    `json:"id"`
	IndexType jsonType `json:"indexType"`
	IsOrdered bool     `json:"isOrdered"`
}

// jsonType holds every parameter any type object may carry. Precision is
// a string for floating point ("SINGLE") and a number for decimals, so it
// stays raw.
type jsonType struct {
	Name       string          `json:"name"`
	BitWidth   int             `json:"bitWidth"`
	IsSigned   bool            `json:"isSigned"`
	Precision  json.RawMessage `json:"precision"`
	Scale      int32           `json:"scale"`
	Unit       string          `json:"unit"`
	Timezone   *string         `json:"timezone"`
	ByteWidth  int             `json:"byteWidth"`
	ListSize   int32           `json:"listSize"`
	KeysSorted bool            `json:"keysSorted"`
	Mode       string          `json:"mode"`
	TypeIDs    []int           `json:"typeIds"`
}

type jsonField struct {
	Name       string            `json:"name"`
	Nullable   bool              `json:"nullable"`
	Type       jsonType          `json:"type"`
	Children   []jsonField       `json:"children"`
	Dictionary *jsonDictEncoding `json:"dictionary"`
	Metadata   []jsonKV          `json:"metadata"`
}

type jsonSchema struct {
	Fields   []jsonField `json:"fields"`
	Metadata []jsonKV    `json:"metadata"`
}

// node mirrors a field's storage type and says where dictionaries are:
// a dictionary node has the dictionary's id (in a file being read) or slot
// (in a file being written) and the node of its value type; other nodes
// have one node per child field.
type node struct {
	dict     *datatype.DictionaryType
	id       int64
	slot     int
	value    *node
	children []*node
}

// Extension metadata keys; JSON is Apache Arrow's format, so it carries
// Arrow's namespace.
const (
	arrowPrefix  = "ARROW:"
	alkaidPrefix = "ALKAID:"
	extNameKey   = "ARROW:extension:name"
	extMetaKey   = "ARROW:extension:metadata"
)

// unitNames are the format's names of the time units, by datatype.TimeUnit.
var unitNames = [...]string{"SECOND", "MILLISECOND", "MICROSECOND", "NANOSECOND"}
