package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// legacyJSON is an integration JSON file of one column of type typ with
// the one value data (JSON), as Arrow 0.14.1 to 1.0's generator wrote
// them: the value breaks a rule that full validation checks.
func legacyJSON(t *testing.T, typ, data string) string {
	t.Helper()
	doc := fmt.Sprintf(`{"schema": {"fields": [{"name": "c", "nullable": true, "type": %s, "children": []}]},
"batches": [{"count": 2, "columns": [{"name": "c", "count": 2, "VALIDITY": [1, 0], "DATA": [%s, %s]}]}]}`, typ, data, data)
	p := filepath.Join(t.TempDir(), "legacy.json")
	require.NoError(t, os.WriteFile(p, []byte(doc), 0o644))
	return p
}

// TestIntegrationLegacyValueFlags: each of -validate-decimals=false,
// -validate-date64=false and -validate-times=false turns off its own check
// (and only it) in every mode, for the JSON and the IPC side.
func TestIntegrationLegacyValueFlags(t *testing.T) {
	flags := []string{"-validate-decimals=false", "-validate-date64=false", "-validate-times=false"}
	cases := []struct {
		name, typ, data, flag, fault string
	}{
		{"decimal", `{"name": "decimal", "precision": 3, "scale": 1, "bitWidth": 128}`, `"12345"`, flags[0], "value 1234.5 does not fit precision 3"},
		{"date64", `{"name": "date", "unit": "MILLISECOND"}`, `"86400001"`, flags[1], "date64 value 86400001 ms is not a whole number of days"},
		{"time32", `{"name": "time", "unit": "SECOND", "bitWidth": 32}`, `86400`, flags[2], "time32[s] value 86400 is not a time of day: want [0, 86400)"},
		{"time64", `{"name": "time", "unit": "NANOSECOND", "bitWidth": 64}`, `"-1"`, flags[2], "time64[ns] value -1 is not a time of day"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			js := legacyJSON(t, c.typ, c.data)
			arrow := filepath.Join(t.TempDir(), "legacy.arrow")
			var others []string
			for _, f := range flags {
				if f != c.flag {
					others = append(others, f)
				}
			}
			run := func(mode string, extra ...string) (int, string) {
				args := append([]string{"integration", "-mode", mode}, extra...)
				code, _, errs := runCmd(t, append(args, "-json", js, "-arrow", arrow)...)
				return code, errs
			}

			code, errs := run("JSON_TO_ARROW")
			require.Equal(t, exitInvalid, code)
			require.Contains(t, errs, c.fault)
			code, errs = run("JSON_TO_ARROW", others...)
			require.Equal(t, exitInvalid, code, "the other flags leave this check on")
			require.Contains(t, errs, c.fault)
			code, errs = run("JSON_TO_ARROW", c.flag)
			require.Equal(t, exitOK, code, errs)

			code, errs = run("VALIDATE")
			require.Equal(t, exitInvalid, code)
			require.Contains(t, errs, c.fault)
			code, errs = run("VALIDATE", c.flag)
			require.Equal(t, exitOK, code, errs)

			// The IPC side alone: a JSON written from the file needs the flag.
			jsonOut := filepath.Join(t.TempDir(), "back.json")
			code, _, errs = runCmd(t, "integration", "-mode", "ARROW_TO_JSON", "-arrow", arrow, "-json", jsonOut)
			require.Equal(t, exitInvalid, code)
			require.Contains(t, errs, c.fault)
			code, _, errs = runCmd(t, "integration", "-mode", "ARROW_TO_JSON", c.flag, "-arrow", arrow, "-json", jsonOut)
			require.Equal(t, exitOK, code, errs)
			back, err := os.ReadFile(jsonOut)
			require.NoError(t, err)
			require.True(t, strings.Contains(string(back), strings.Trim(c.data, `"`)), "the value is kept")
		})
	}
}
