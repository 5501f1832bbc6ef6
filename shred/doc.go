// Package shred turns nested arrays into Dremel columns and back (spec 003,
// "record shredding"): every leaf of a field's type becomes one column of
// values with a repetition level r and a definition level d per entry, and
// the columns, with the schema, assemble into arrays equal to the original.
//
// # Schema
//
// Types are built from structs, lists of every layout (list, large list,
// list view, large list view, fixed-size list) and maps over leaves of
// any other type. Following the spec's schema language:
//
//   - a nullable field is optional: a present, non-null value adds one
//     definition level;
//   - every list and map is repeated: one repetition level, and one
//     definition level for a list that has elements (on top of the level
//     of a nullable list for being non-null). A map is a repeated group of
//     its entries; a fixed-size list is repeated with the same size each
//     time (size 0 is always empty);
//   - a non-nullable field is required and adds no level; a field of type
//     null counts as optional whatever its nullability;
//   - a struct is a group; list elements and map entries add no path
//     element, so the path of the spec's Name.Language.Country, made of
//     non-nullable lists of non-nullable structs, is exactly that.
//
// [Leaves] gives each column's path and maximum levels. Unions have no
// Dremel representation and are refused with [ErrNotSupported], as are
// structs without fields (they have no leaf to carry their rows).
// Dictionary-encoded and run-end encoded leaves are shredded through their
// logical values: a column's Values hold the decoded values, and assembly
// encodes them again. Extension types are kept: a leaf extension type
// stays the type of the values; one over a nested storage type is walked
// through and restored on assembly.
//
// # Levels
//
// The repetition level of an entry says at which repeated field on the
// path it repeats (0: a new record, that is, a new slot of the shredded
// array). The definition level is that of the Dremel paper and of Parquet:
// the number of optional and repeated fields on the path that are present,
// the leaf included. An entry with d equal to the maximum holds a value;
// a smaller d says where the path stops: at a null, or at an empty list.
//
// The spec's table (record r3, column Name.Language.Country) shows
// r = 0, 2, 2, 1, 1, which this package reproduces, and d = 2, 2, 2, 1, 2.
// Its d agrees with ours for the two nulls (2: Name and Language present,
// Country missing; 1: only Name present) but, for the three present
// values, counts only the ancestors Name and Language, not the leaf
// Country itself. This package counts the leaf, as the paper and Parquet
// do, and gives d = 3, 2, 3, 1, 3, so that d == MaxDef tells a value
// from a null without looking at the values (see the package example).
//
// # Columns
//
// A [Column] holds the levels of every entry and the values of the
// entries with d == MaxDef only, as an array of the leaf's value type
// without nulls. [Shred], [ShredField] and [ShredRecord] make columns;
// [Assemble] and [AssembleRecord] rebuild arrays and records. Sliced
// arrays shred like any other: only the slots in the slice are read.
package shred
