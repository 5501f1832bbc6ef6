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
// [RecordReader] and [RecordWriter] are the one shape of every source and
// sink of record batches in the module (IPC, Parquet, CSV, NDJSON, the C
// Stream interface, Flight, datasets, tables); [ReadAll] reads any source
// into a table and [Copy] pours a source into a sink. Package files opens
// any supported file by its content as a RecordReader. Building columns is
// package array's job.
package alkaid
