package dataset

// Stats counts what a scan did.
type Stats struct {
	// Files is the number of files the scan covers (the dataset's, or
	// those WithFiles names).
	Files int
	// FilesPruned counts the files whose rows were not read because their
	// partition values fail the filter (those are not opened), or because
	// they lack a filtered column (opened only when WithSchema left their
	// schema unknown).
	FilesPruned int
	// FilesRead counts the files opened (not those whose rows a scan
	// needing none of their columns counted from discovery's footers).
	FilesRead int
	// FilesSkipped counts the files WithSkipCorrupt skipped during the
	// scan because they failed to read.
	FilesSkipped int
	// RowGroups counts the row groups of the Parquet files read (opened,
	// or, for a scan needing no column of theirs, counted from the
	// footers discovery read), and
	// RowGroupsPruned those of them not read because their column
	// statistics rule the filter out (expr.MayMatch), or of which the
	// Parquet reader returned no row for the filter's predicates (ruled
	// out by statistics, bloom filters or the page index).
	RowGroups, RowGroupsPruned int
	// PagesPruned counts the data pages of the columns read that the
	// Parquet page index let the reader skip in the row groups it read
	// in part (parquet.ReadStats); a row group pruned whole counts in
	// RowGroupsPruned only.
	PagesPruned int64
	// RowsRead counts the rows the files' readers returned, before the
	// filter dropped any; Rows counts the rows yielded.
	RowsRead, Rows int64
	// BytesRead counts the bytes read from the files.
	BytesRead int64
}

// statCounters are the live counts of a run.
type statCounters struct {
	files, filesPruned, filesRead, filesSkipped counter
	rowGroups, rowGroupsPruned, pagesPruned     counter
	rowsRead, rows, bytes                       counter
}

func (c *statCounters) reset() {
	for _, x := range []*counter{&c.files, &c.filesPruned, &c.filesRead, &c.filesSkipped,
		&c.rowGroups, &c.rowGroupsPruned, &c.pagesPruned, &c.rowsRead, &c.rows, &c.bytes} {
		x.Store(0)
	}
}

func (c *statCounters) snapshot() Stats {
	return Stats{
		Files: int(c.files.Load()), FilesPruned: int(c.filesPruned.Load()),
		FilesRead: int(c.filesRead.Load()), FilesSkipped: int(c.filesSkipped.Load()),
		RowGroups: int(c.rowGroups.Load()), RowGroupsPruned: int(c.rowGroupsPruned.Load()),
		PagesPruned: c.pagesPruned.Load(),
		RowsRead:    c.rowsRead.Load(), Rows: c.rows.Load(), BytesRead: c.bytes.Load(),
	}
}
