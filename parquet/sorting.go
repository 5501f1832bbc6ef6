package parquet

// SortingColumn says that the rows of every row group are sorted by one
// leaf column (metadata only: the writer neither sorts nor checks).
type SortingColumn struct {
	// Path is the column's dotted Parquet path, e.g. "id" or
	// "a.list.element".
	Path       string
	Descending bool
	NullsFirst bool
}

// SortingColumns returns the sort order row group i records (nil when it
// records none); i must be in [0, NumRowGroups()). A column index outside
// the schema's leaves gives an empty path.
func (f *File) SortingColumns(i int) []SortingColumn {
	var out []SortingColumn
	for _, sc := range f.meta.RowGroups[i].SortingColumns {
		c := SortingColumn{Descending: sc.Descending, NullsFirst: sc.NullsFirst}
		if l := f.leafAt(int(sc.ColumnIdx)); l != nil {
			c.Path = pathString(l.path)
		}
		out = append(out, c)
	}
	return out
}

// leafAt returns the node of leaf column i, or nil.
func (f *File) leafAt(i int) *node {
	var found *node
	var walk func(n *node)
	walk = func(n *node) {
		if found != nil {
			return
		}
		if n.column == i && n.column >= 0 {
			found = n
			return
		}
		for _, c := range n.children {
			walk(c)
		}
	}
	walk(f.root)
	return found
}
