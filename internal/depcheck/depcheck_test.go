package depcheck_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/internal/depcheck"
)

const module = "github.com/alkaid-go/alkaid"

// modulePackages lists the packages of the module with their imports of
// the module's packages, through go list.
func modulePackages(t *testing.T, root string) []depcheck.Package {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	require.NoError(t, err, "go list")
	dec := json.NewDecoder(strings.NewReader(string(out)))
	var pkgs []depcheck.Package
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else {
			require.NoError(t, err)
		}
		rel := func(path string) (string, bool) {
			r, ok := strings.CutPrefix(path, module+"/")
			return r, ok
		}
		name, ok := rel(p.ImportPath)
		require.True(t, ok, "%s is outside the module", p.ImportPath)
		pkg := depcheck.Package{Path: name}
		for _, imp := range p.Imports {
			if r, ok := rel(imp); ok {
				pkg.Imports = append(pkg.Imports, r)
			}
		}
		pkgs = append(pkgs, pkg)
	}
	require.Greater(t, len(pkgs), 20)
	return pkgs
}

// TestReadmeTableMatchesImports: the README's package table lists every
// package of the module, from the lowest tier up, and no package imports
// one listed below it. Test imports are not counted: test-only generators
// (internal/randdata) sit above the packages whose tests use them.
func TestReadmeTableMatchesImports(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	order, err := depcheck.TableOrder(string(readme))
	require.NoError(t, err)
	for _, e := range depcheck.Check(order, modulePackages(t, root)) {
		t.Error(e)
	}
}

func TestCheckFindsEveryFault(t *testing.T) {
	pkgs := []depcheck.Package{
		{Path: "low"}, {Path: "mid", Imports: []string{"low"}},
		{Path: "high", Imports: []string{"mid", "top"}}, {Path: "top"}, {Path: "unlisted"},
	}
	errs := depcheck.Check([]string{"low", "mid", "high", "top", "gone", "low"}, pkgs)
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	require.ElementsMatch(t, []string{
		"low has two rows",
		"row gone names no package of the module",
		"high (row 3) imports top (row 4), which is not above it",
		"unlisted has no row in the table",
	}, msgs)
}

func TestTableOrder(t *testing.T) {
	md := "# x\n\n## Packages\n\n| package | holds |\n|---|---|\n| `a` | one |\n| `b/c` | `not` a name |\n| `sub/`, `other/` | modules |\n| `d`, `e` | two |\n\nafter\n| `z` | not in the table |\n"
	order, err := depcheck.TableOrder(md)
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b/c", "d", "e"}, order)
	_, err = depcheck.TableOrder("# no table\n")
	require.ErrorContains(t, err, "no \"## Packages\" heading")
}

func ExampleCheck() {
	pkgs := []depcheck.Package{{Path: "datatype"}, {Path: "array", Imports: []string{"datatype"}}}
	fmt.Println(depcheck.Check([]string{"datatype", "array"}, pkgs))
	fmt.Println(depcheck.Check([]string{"array", "datatype"}, pkgs))
	// Output:
	// []
	// [array (row 1) imports datatype (row 2), which is not above it]
}
