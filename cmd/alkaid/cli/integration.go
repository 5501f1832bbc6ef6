package cli

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"strings"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/integration"
	"github.com/alkaid-go/alkaid/internal/quote"
	"github.com/alkaid-go/alkaid/ipc"
)

var integrationCmd = command{
	name:  "integration",
	short: "Check or convert Apache Arrow integration JSON against IPC streams and files.",
	long: `
Modes (as Arrow's integration runner calls them):

  VALIDATE       exit 0 when -json and -arrow hold the same schema and record
                 batches; otherwise print the first difference (batch, column
                 path, row, the two values) and exit 1. Map entry/key/value
                 field names are not compared (the format gives them no meaning).
  ARROW_TO_JSON  read -arrow and write it as JSON to -json (gzip if it ends .gz).
  JSON_TO_ARROW  read -json and write it in the IPC file format to -arrow,
                 with the ALKAID1 magic, or ARROW1 with -magic arrow.

-arrow and -json may be URLs of a registered scheme (s3://BUCKET/PATH):
inputs are read from there, and outputs written there once complete.
-arrow is read as a file when it starts with either magic (ALKAID1, ARROW1)
and as a stream otherwise; -json may be plain or gzip-compressed. Both are
validated fully; -validate-decimals=false, -validate-date64=false and
-validate-times=false leave out the checks that decimals fit their
precision, that date64 values are whole days and that times are within a
day (Arrow's runner asks this for golden files of Arrow 0.14.1 to 1.0,
whose generator wrote such values), as arrow-json-integration-test does.`,
}

func runIntegration(args []string) int {
	c := integrationCmd
	fs := c.newFlags()
	mode := fs.String("mode", "", "`MODE`: VALIDATE, ARROW_TO_JSON or JSON_TO_ARROW")
	arrowPath := fs.String("arrow", "", "IPC stream or file `PATH`")
	jsonPath := fs.String("json", "", "integration JSON `PATH` (.json or .json.gz)")
	magic := fs.String("magic", "alkaid", "file magic JSON_TO_ARROW writes: alkaid (ALKAID1) or arrow (ARROW1)")
	verbose := fs.Bool("v", false, "say what was done on success")
	decimals := fs.Bool("validate-decimals", true, "check that decimals fit their precision")
	date64 := fs.Bool("validate-date64", true, "check that date64 values are whole days")
	times := fs.Bool("validate-times", true, "check that time32/time64 values are within a day")
	if done, code := c.parse(fs, args, 0); done {
		return code
	}
	if *arrowPath == "" || *jsonPath == "" {
		return c.fail(usagef("-arrow and -json are both required; see alkaid integration -h"))
	}
	var opts []ipc.Option
	switch strings.ToLower(*magic) {
	case "alkaid", "alkaid1":
	case "arrow", "arrow1":
		opts = append(opts, ipc.WithArrowCompat())
	default:
		return c.fail(usagef("-magic %s: want alkaid or arrow", quote.String(*magic)))
	}
	var skip array.ValueChecks
	for _, c := range []struct {
		on    bool
		check array.ValueChecks
	}{{*decimals, array.CheckDecimalPrecision}, {*date64, array.CheckDate64Days}, {*times, array.CheckTimeOfDay}} {
		if !c.on {
			skip |= c.check
		}
	}
	ropts := []integration.Option{integration.SkipValueChecks(skip)}
	var err error
	var done string
	switch strings.ToUpper(*mode) {
	case "VALIDATE":
		err = validateIntegration(*jsonPath, *arrowPath, ropts)
		done = fmt.Sprintf("%s and %s hold the same data", *jsonPath, *arrowPath)
	case "ARROW_TO_JSON":
		err = arrowToJSON(*arrowPath, *jsonPath, ropts)
		done = fmt.Sprintf("wrote %s", *jsonPath)
	case "JSON_TO_ARROW":
		err = jsonToArrow(*jsonPath, *arrowPath, ropts, opts)
		done = fmt.Sprintf("wrote %s", *arrowPath)
	case "":
		return c.fail(usagef("-mode is required: VALIDATE, ARROW_TO_JSON or JSON_TO_ARROW"))
	default:
		return c.fail(usagef("-mode %s: want VALIDATE, ARROW_TO_JSON or JSON_TO_ARROW", quote.String(*mode)))
	}
	if err == nil && *verbose {
		fmt.Fprintln(cmdStdout, done)
	}
	return c.fail(err)
}

func validateIntegration(jsonPath, arrowPath string, ropts []integration.Option) error {
	want, err := readIntegrationJSON(jsonPath, ropts)
	if err != nil {
		return err
	}
	got, err := readIntegrationIPC(arrowPath, ropts)
	if err != nil {
		return err
	}
	if err := integration.Compare(want, got, integration.IgnoreMapFieldNames()); err != nil {
		return fmt.Errorf("%s (JSON) vs %s: %w", jsonPath, arrowPath, err)
	}
	return nil
}

func arrowToJSON(arrowPath, jsonPath string, ropts []integration.Option) error {
	f, err := readIntegrationIPC(arrowPath, ropts)
	if err != nil {
		return err
	}
	return createFile(jsonPath, arrowPath, func(w io.Writer) error {
		if !strings.HasSuffix(jsonPath, ".gz") {
			return f.Write(w)
		}
		gz := gzip.NewWriter(w)
		if err := f.Write(gz); err != nil {
			return err
		}
		return gz.Close()
	})
}

func jsonToArrow(jsonPath, arrowPath string, ropts []integration.Option, opts []ipc.Option) error {
	f, err := readIntegrationJSON(jsonPath, ropts)
	if err != nil {
		return err
	}
	return createFile(arrowPath, jsonPath, func(w io.Writer) error { return integration.WriteIPCFile(w, f, opts...) })
}

// readIntegrationJSON reads the integration JSON file at path, a local
// path or a URL of a registered scheme.
func readIntegrationJSON(path string, ropts []integration.Option) (*integration.File, error) {
	f, size, closer, err := openPathFile(path)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	file, err := integration.Read(io.NewSectionReader(f, 0, size), ropts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return file, nil
}

// readIntegrationIPC reads the IPC file or stream at path, a local path
// or a URL of a registered scheme.
func readIntegrationIPC(path string, ropts []integration.Option) (*integration.File, error) {
	f, size, closer, err := openPathFile(path)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	file, err := integration.ReadIPCAt(f, size, ropts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return file, nil
}

// createFile writes path (not the same file as input) through fill, in
// place only when complete (see output.go).
func createFile(path, input string, fill func(io.Writer) error) error {
	out, err := createOutFile(path, input)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(out, 1<<16)
	err = fill(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return out.fail(fmt.Errorf("writing %s: %w", path, err), false)
	}
	return out.commit()
}
