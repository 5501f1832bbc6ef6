package parquet

// Facts about a file read from its footer alone, for tools that describe
// a file (row groups, codecs, the writer's name) without decoding pages.

// CreatedBy is the writer the footer names, or "" when it names none.
func (f *File) CreatedBy() string {
	if f.meta.CreatedBy == nil {
		return ""
	}
	return *f.meta.CreatedBy
}

// RowGroupInfo describes one row group as its footer entry does.
type RowGroupInfo struct {
	Rows int64 // rows in the row group
	// Bytes is the uncompressed size of its column data.
	Bytes int64
	// Codecs counts the row group's column chunks per codec.
	Codecs map[Codec]int
}

// RowGroup describes row group i; i must be in [0, NumRowGroups()).
// NewFile checked every column chunk's metadata is present.
func (f *File) RowGroup(i int) RowGroupInfo {
	rg := &f.meta.RowGroups[i]
	info := RowGroupInfo{Rows: rg.NumRows, Bytes: rg.TotalByteSize, Codecs: map[Codec]int{}}
	for _, cc := range rg.Columns {
		if cc.MetaData != nil {
			info.Codecs[Codec(cc.MetaData.Codec)]++
		}
	}
	return info
}
