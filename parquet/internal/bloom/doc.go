// Package bloom holds the split-block bloom filter of Parquet: 32-byte
// blocks of eight 32-bit words, one bit set per word for each value,
// values hashed with XXH64 (seed 0) of their PLAIN encoding.
package bloom
