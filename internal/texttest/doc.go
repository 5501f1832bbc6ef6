// Package texttest holds the round-trip test scaffolding the text formats
// (csv, ndjson) share: which randdata types a format can express, reading
// every batch, and comparing rows across batch boundaries. It is imported
// by tests only.
package texttest
