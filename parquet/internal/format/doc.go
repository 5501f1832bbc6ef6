// Package format declares Parquet's Thrift metadata structures (file
// metadata, schema elements, row groups, column chunks, page headers,
// statistics, page indexes, bloom filter headers) with the field ids of
// parquet.thrift, for the compact-protocol codec in internal/thrift.
package format
