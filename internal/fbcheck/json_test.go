package fbcheck

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
)

// The subset of the Arrow integration JSON format the tests compare with.

type jsonFile struct {
	Schema       jsonSchema       `json:"schema"`
	Batches      []jsonBatch      `json:"batches"`
	Dictionaries []jsonDictionary `json:"dictionaries"`
}

type jsonSchema struct {
	Fields   []jsonField `json:"fields"`
	Metadata []jsonKV    `json:"metadata"`
}

type jsonKV struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type jsonField struct {
	Name       string          `json:"name"`
	Nullable   bool            `json:"nullable"`
	Type       map[string]any  `json:"type"`
	Children   []jsonField     `json:"children"`
	Dictionary *jsonDictEncode `json:"dictionary"`
	Metadata   []jsonKV        `json:"metadata"`
}

type jsonDictEncode struct {
	ID        int64          `json:"id"`
	IndexType map[string]any `json:"indexType"`
	IsOrdered bool           `json:"isOrdered"`
}

type jsonBatch struct {
	Count   int64        `json:"count"`
	Columns []jsonColumn `json:"columns"`
}

type jsonColumn struct {
	Name     string       `json:"name"`
	Count    int64        `json:"count"`
	Validity []int        `json:"VALIDITY"`
	Variadic []string     `json:"VARIADIC_DATA_BUFFERS"`
	Children []jsonColumn `json:"children"`
}

type jsonDictionary struct {
	ID   int64     `json:"id"`
	Data jsonBatch `json:"data"`
}

func readJSON(path string) (*jsonFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var jf jsonFile
	if err := json.NewDecoder(zr).Decode(&jf); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &jf, nil
}

// jsonInt returns the integer member key of a JSON type object, or def.
func jsonInt(t map[string]any, key string, def int64) int64 {
	if v, ok := t[key].(float64); ok {
		return int64(v)
	}
	return def
}

func jsonString(t map[string]any, key string) string {
	s, _ := t[key].(string)
	return s
}
