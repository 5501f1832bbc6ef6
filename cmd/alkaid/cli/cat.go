package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/quote"
)

var catCmd = command{
	name:  "cat",
	args:  "PATH",
	short: "Print the record batches of a stream, file or Parquet file as aligned tables.",
	long: `
Each record batch is printed as a table with a header of column names:
numbers right-aligned, strings quoted, nulls as (null), lists in [ ],
structs and maps in { }. Batches are read one at a time; "-" reads stdin
(a file there, IPC or Parquet, is copied to a temporary file in $TMPDIR,
up to 64 GiB, to reach its footer). A Parquet file (PAR1 magic) is read
in record batches of at most 65536 rows, row group after row group.` + queryHelp,
}

func runCat(args []string) int {
	c := catCmd
	fs := c.newFlags()
	n := fs.Int64("n", -1, "print at most `N` rows (-1: all)")
	batch := fs.Int("batch", -1, "print only record batch `K` (counting from 0)")
	columns := fs.String("columns", "", "comma-separated column names to print (default: all)")
	width := fs.Int("width", 40, "cut cells longer than this many characters (0: never)")
	var q queryFlags
	q.register(fs)
	if done, code := c.parse(fs, args, 1); done {
		return code
	}
	return c.fail(cat(fs.Arg(0), *n, *batch, *columns, *width, &q))
}

func cat(path string, limit int64, batch int, columns string, width int, q *queryFlags) error {
	in, err := openInput(path)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := q.apply(in); err != nil {
		return err
	}
	cols, err := selectColumns(in.Schema(), columns)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(cmdStdout, 64<<10)
	defer w.Flush()
	printed := int64(0)
	// show prints batch i and reports whether the rows asked for are
	// all printed.
	show := func(i int, rec *alkaid.Record) bool {
		rows := rec.NumRows()
		if limit >= 0 {
			rows = int(min(int64(rows), limit-printed))
		}
		fmt.Fprintf(w, "record batch %d: %d rows", i, rec.NumRows())
		if rows < rec.NumRows() {
			fmt.Fprintf(w, " (showing %d)", rows)
		}
		fmt.Fprintln(w)
		writeTable(w, rec, cols, rows, width)
		printed += int64(rows)
		return limit >= 0 && printed >= limit
	}
	if batch >= 0 && in.isFile() && !q.set() {
		if batch >= in.file.NumRecords() {
			return usagef("-batch %d: the file has %d record batches", batch, in.file.NumRecords())
		}
		rec, err := in.file.Record(batch)
		if err != nil {
			return fmt.Errorf("%s: record batch %d: %w", path, batch, err)
		}
		if limit != 0 {
			show(batch, rec)
		}
		return nil
	}
	if limit == 0 {
		return nil
	}
	seen := 0
	for rec, err := range in.Records() {
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		i := seen
		seen++
		if batch >= 0 && i != batch {
			continue
		}
		if show(i, rec) || batch >= 0 {
			return nil
		}
	}
	if batch >= seen {
		return usagef("-batch %d: the input has %d record batches", batch, seen)
	}
	return nil
}

// selectColumns returns the indexes of the named top-level columns, or of
// all columns.
func selectColumns(s *alkaid.Schema, columns string) ([]int, error) {
	if columns == "" {
		idx := make([]int, s.NumFields())
		for i := range idx {
			idx[i] = i
		}
		return idx, nil
	}
	var idx []int
	for _, name := range strings.Split(columns, ",") {
		i := s.FieldIndex(strings.TrimSpace(name))
		if i < 0 {
			return nil, usagef("-columns: no column %s; the columns are %s", quote.String(name), strings.Join(fieldNames(s), ","))
		}
		idx = append(idx, i)
	}
	return idx, nil
}

// writeTable prints rows of the chosen columns aligned under their names.
func writeTable(w io.Writer, rec *alkaid.Record, cols []int, rows, width int) {
	cells := make([][]string, len(cols))
	widths := make([]int, len(cols))
	right := make([]bool, len(cols))
	for j, c := range cols {
		a := rec.Column(c)
		right[j] = alignRight(a.DataType())
		cells[j] = make([]string, rows+1)
		cells[j][0] = rec.ColumnName(c)
		for r := range rows {
			cells[j][r+1] = cut(array.FormatValue(a, r), width)
		}
		for _, s := range cells[j] {
			widths[j] = max(widths[j], utf8.RuneCountInString(s))
		}
	}
	var line strings.Builder
	emit := func(r int) {
		line.Reset()
		for j := range cols {
			s := cells[j][r]
			pad := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(s))
			if j > 0 {
				line.WriteString("  ")
			}
			if right[j] && r > 0 {
				line.WriteString(pad + s)
			} else if j < len(cols)-1 {
				line.WriteString(s + pad)
			} else {
				line.WriteString(s)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(line.String(), " "))
	}
	emit(0)
	line.Reset()
	for j := range cols {
		if j > 0 {
			line.WriteString("  ")
		}
		line.WriteString(strings.Repeat("-", widths[j]))
	}
	fmt.Fprintln(w, line.String())
	for r := 1; r <= rows; r++ {
		emit(r)
	}
}

func alignRight(t datatype.DataType) bool {
	k := datatype.StorageOf(t).Kind()
	switch k {
	case datatype.KindDictionary:
		return alignRight(datatype.StorageOf(t).(*datatype.DictionaryType).Value)
	case datatype.KindRunEndEncoded:
		return alignRight(datatype.StorageOf(t).(*datatype.RunEndEncodedType).Values().Type)
	}
	return k.IsNumeric() || k == datatype.KindDecimal32 || k == datatype.KindDecimal64 ||
		k == datatype.KindDecimal128 || k == datatype.KindDecimal256
}

// cut shortens s to width characters, ending with "…".
func cut(s string, width int) string {
	if width <= 0 || utf8.RuneCountInString(s) <= width {
		return s
	}
	r := []rune(s)
	return string(r[:max(width-1, 0)]) + "…"
}
