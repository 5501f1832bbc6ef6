package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
)

var schemaCmd = command{
	name:  "schema",
	args:  "PATH",
	short: "Print the schema of a stream, file or Parquet file: fields, types, nullability, metadata, dictionary ids.",
	long: `
One field per line as "name: type" (" not null" when not nullable), field
metadata indented below it, then the schema metadata and the dictionary ids
with the path of the field that uses each. A file is read through its
footer, as file readers do (its stream part may start at the first batch,
or with a malformed schema message: a warning on stderr names the
writer's defect, an error with -strict); a stream, or a file whose
footer is unreadable, through its first message. "-" reads stdin (a file
there is copied to a temporary file in $TMPDIR, up to 64 GiB, to reach
its footer). A Parquet file (PAR1 magic) prints the Alkaid
schema its rows are read as.`,
}

func runSchema(args []string) int {
	c := schemaCmd
	fs := c.newFlags()
	strict := fs.Bool("strict", false, "a file's malformed leading schema message is an error, not a warning")
	if done, code := c.parse(fs, args, 1); done {
		return code
	}
	return c.fail(printSchema(fs.Arg(0), *strict))
}

// readSchemaFrom reads the first message of the stream or file in r.
func readSchemaFrom(r *bufio.Reader) (*alkaid.Schema, []dictField, error) {
	if head, _ := r.Peek(8); ipc.DetectMagic(head) != "" {
		r.Discard(8)
	}
	m, err := ipc.ReadMessage(r)
	if errors.Is(err, io.EOF) {
		return nil, nil, fmt.Errorf("ipc: %w: no schema message (empty input)", ipc.ErrInvalid)
	}
	if err != nil {
		return nil, nil, err
	}
	if m.Type() != ipc.MessageSchema {
		return nil, nil, fmt.Errorf("ipc: %w: the first message is a %s, not a schema", ipc.ErrInvalid, m.Type())
	}
	dec, err := ipc.NewDecoder()
	if err != nil {
		return nil, nil, err
	}
	ev, err := dec.DecodeMessage(m)
	if err != nil {
		return nil, nil, err
	}
	return ev.Schema, m.DictionaryFields(), nil
}

func printSchema(path string, strict bool) error {
	var (
		s     *alkaid.Schema
		dicts []dictField
		err   error
	)
	if isDatasetPath(path) {
		d, err := openDataset(path)
		if err != nil {
			return err
		}
		s = d.ds.Schema()
	} else if s, dicts, err = openSchema("schema", path, strict); err != nil {
		if path == "-" {
			path = "stdin"
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	w := cmdStdout
	fmt.Fprintf(w, "%d fields", s.NumFields())
	if s.Endianness() != alkaid.LittleEndian {
		fmt.Fprintf(w, ", %s", s.Endianness())
	}
	fmt.Fprintln(w)
	for _, f := range s.Fields() {
		fmt.Fprintf(w, "  %s\n", f)
		printMetadata(w, "    ", f.Metadata)
		printChildMetadata(w, "    ", f.Name, f.Type)
	}
	if s.Metadata().Len() > 0 {
		fmt.Fprintln(w, "schema metadata:")
		printMetadata(w, "  ", s.Metadata())
	}
	if len(dicts) > 0 {
		fmt.Fprintln(w, "dictionaries:")
		for _, d := range dicts {
			fmt.Fprintf(w, "  id %d: %s\n", d.ID, d.Path)
		}
	}
	return nil
}

func printMetadata(w io.Writer, indent string, m datatype.Metadata) {
	for k, v := range m.All() {
		fmt.Fprintf(w, "%s%q: %q\n", indent, k, v)
	}
}

// printChildMetadata prints the metadata of nested fields, which the type
// strings leave out, as "path: key: value".
func printChildMetadata(w io.Writer, indent, path string, t datatype.DataType) {
	for _, c := range datatype.Children(datatype.StorageOf(t)) {
		p := path + "." + c.Name
		for k, v := range c.Metadata.All() {
			fmt.Fprintf(w, "%s%s: %q: %q\n", indent, p, k, v)
		}
		printChildMetadata(w, indent, p, c.Type)
	}
}
