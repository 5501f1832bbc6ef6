// Package alkaid holds the types most users touch first: [Schema] (fields,
// metadata, byte order), [Record] (a record batch: a schema and equal-length
// columns, checked on construction) and [Table] (a schema with chunked
// columns). All are immutable; slicing shares memory.
//
//	schema := alkaid.NewSchema([]datatype.Field{
//		{Name: "id", Type: datatype.Int64},
//		{Name: "name", Type: datatype.String, Nullable: true},
//	}, datatype.Metadata{})
//	rec, err := alkaid.NewRecord(schema, []array.Array{ids, names}, -1)
//
// Reading and writing records is package ipc's job; building columns is
// package array's.
package alkaid
