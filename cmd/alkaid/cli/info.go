package cli

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/parquet"
)

var infoCmd = command{
	name:  "info",
	args:  "PATH",
	short: "Summarise a stream, file or Parquet file: format and magic, batches, rows, bytes, compression, dictionaries.",
	long: `
Reads a file's footer, then the messages one at a time without decoding
their bodies (so it is fast and needs little memory). A file is read
through its footer: its stream part may start at the first batch, or
with a malformed schema message (skipped, with a warning on stderr that
names the writer's defect). "-" reads stdin (a file there is copied
to a temporary file in $TMPDIR, up to 64 GiB, to reach its footer). A Parquet file (PAR1 magic) is summarised from its footer: the
writer (created by), row groups, rows per row group, uncompressed data
bytes and the codecs of its column chunks.`,
}

func runInfo(args []string) int {
	c := infoCmd
	fs := c.newFlags()
	if done, code := c.parse(fs, args, 1); done {
		return code
	}
	return c.fail(info(fs.Arg(0)))
}

type dictStats struct {
	batches, deltas int
	values          int64
}

func info(path string) error {
	if isDatasetPath(path) {
		return datasetInfo(path)
	}
	var (
		br   *bufio.Reader
		size int64     = -1
		f    fileInput // a file by path, or a file on stdin copied to disk
		name = path
	)
	if path == "-" {
		name = "stdin"
		sin, err := readStdin()
		if err != nil {
			return err
		}
		defer sin.Close()
		if sin.file != nil {
			f, size = sin.file, sin.size
		} else {
			br = sin.stream
		}
	} else {
		file, n, closer, err := openPathFile(path)
		if err != nil {
			return err
		}
		defer closer.Close()
		f, size = file, n
	}
	if f != nil {
		br = bufio.NewReaderSize(f, 1<<20)
	}
	head, _ := br.Peek(8)
	if isParquetHead(head) {
		pf, err := parquet.NewFile(f, size, pqRead.options()...)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return parquetInfo(name, pf, size)
	}
	if f != nil {
		if err := headlessParquet(name, f, size, head); err != nil {
			return err
		}
	}
	magic := ipc.DetectMagic(head)
	var base int64
	if magic != "" {
		br.Discard(8)
		base = 8
	}
	// A file is read through its footer first, as file readers do: its
	// stream part may start at the first batch (no schema message) or
	// with a malformed schema message, and the footer says where the
	// messages it indexes are.
	var (
		ff        *ipc.FileReader
		footerErr error
	)
	if magic != "" && f != nil {
		if ff, footerErr = ipc.NewFileReader(f, size); ff != nil {
			if len(ff.Warnings()) > 0 {
				base = ff.DataOffset() // past the malformed leading message
			}
			br = bufio.NewReaderSize(io.NewSectionReader(f, base, ff.FooterOffset()-base), 1<<20)
		}
	}

	var (
		version                int
		nFields                = -1
		dicts                  []dictField
		batches                int
		rows, minRows, maxRows int64
		recBody, dictBody      int64
		codecs                 = map[string]int{}
		perDict                = map[int64]*dictStats{}
		end                    int64
	)
	scanErr := scanMessages(br, base, func(mi msgInfo, m *ipc.Message) error {
		end = mi.offset
		switch mi.typ {
		case ipc.MessageSchema:
			version = mi.version
			dicts = m.DictionaryFields()
			nFields = m.NumSchemaFields()
		case ipc.MessageRecordBatch:
			if batches == 0 || mi.rows < minRows {
				minRows = mi.rows
			}
			maxRows = max(maxRows, mi.rows)
			batches++
			rows += mi.rows
			recBody += mi.bodyLen
			codecs[mi.codec]++
		case ipc.MessageDictionaryBatch:
			dictBody += mi.bodyLen
			ds := perDict[mi.dictID]
			if ds == nil {
				ds = &dictStats{}
				perDict[mi.dictID] = ds
			}
			ds.batches++
			if mi.delta {
				ds.deltas++
				ds.values += mi.rows
			} else {
				ds.values = mi.rows
			}
		}
		return nil
	})

	if ff != nil && nFields < 0 {
		// No schema message before the batches: the footer's copy.
		version, nFields, dicts = ff.Version(), ff.Schema().NumFields(), ff.DictionaryFields()
	}
	w := cmdStdout
	fmt.Fprintf(w, "path:           %s\n", name)
	if magic != "" {
		fmt.Fprintf(w, "format:         file (magic %s)\n", magic)
	} else {
		fmt.Fprintf(w, "format:         stream\n")
	}
	if size >= 0 {
		fmt.Fprintf(w, "size:           %s bytes (%s)\n", groupDigits(size), humanBytes(size))
	}
	if version > 0 {
		fmt.Fprintf(w, "version:        V%d\n", version)
	}
	if nFields >= 0 {
		fmt.Fprintf(w, "fields:         %d\n", nFields)
	}
	fmt.Fprintf(w, "record batches: %d\n", batches)
	if batches > 0 {
		fmt.Fprintf(w, "rows:           %s (per batch %s to %s)\n", groupDigits(rows), groupDigits(minRows), groupDigits(maxRows))
	} else {
		fmt.Fprintf(w, "rows:           0\n")
	}
	fmt.Fprintf(w, "body bytes:     %s in record batches, %s in dictionary batches\n", groupDigits(recBody), groupDigits(dictBody))
	fmt.Fprintf(w, "compression:    %s\n", describeCodecs(codecs, batches))
	fmt.Fprintf(w, "dictionaries:   %d\n", len(dicts))
	for _, d := range dicts {
		ds := perDict[d.ID]
		if ds == nil {
			ds = &dictStats{}
		}
		fmt.Fprintf(w, "  id %d %s: %d batches (%d deltas), %d values\n", d.ID, d.Path, ds.batches, ds.deltas, ds.values)
	}
	if scanErr != nil {
		return fmt.Errorf("%s: %w", name, scanErr)
	}
	if magic != "" && f != nil {
		if footerErr != nil {
			fmt.Fprintf(w, "footer:         unreadable; the messages before byte %s are readable as a stream\n", groupDigits(end))
			return fmt.Errorf("%s: footer unreadable: %w", name, footerErr)
		}
		fr := ff
		fmt.Fprintf(w, "footer:         %d record batches", fr.NumRecords())
		if m := fr.FooterMetadata(); len(m) > 0 {
			fmt.Fprintf(w, ", metadata %s", formatMap(m))
		}
		fmt.Fprintln(w)
		warnFile(ff, "info", name) // once the summary is complete: a failure is one line
	}
	return nil
}

func describeCodecs(codecs map[string]int, batches int) string {
	if batches == 0 && len(codecs) == 0 {
		return "none"
	}
	var parts []string
	keys := make([]string, 0, len(codecs))
	for k := range codecs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		name := k
		if name == "" {
			name = "none"
		}
		if codecs[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s (%d of %d record batches)", name, codecs[k], batches))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// formatMap prints a string map sorted by key: {"a": "1", "b": "2"}.
func formatMap(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q: %q", k, m[k])
	}
	b.WriteByte('}')
	return b.String()
}
