package depcheck

import (
	"fmt"
	"regexp"
	"strings"
)

// Package is one package of the module and the packages of the module it
// imports (test imports apart), both as paths relative to the module
// root ("ipc", "internal/flatbuf").
type Package struct {
	Path    string
	Imports []string
}

// packageCell matches a backquoted name in the first cell of a row.
var packageCell = regexp.MustCompile("`([^`]+)`")

// TableOrder reads the rows of the first Markdown table under the heading
// "## Packages" and returns the package names of their first cells, in
// order. Names ending in "/" (separate modules) are left out.
func TableOrder(markdown string) ([]string, error) {
	_, rest, ok := strings.Cut(markdown, "\n## Packages\n")
	if !ok {
		return nil, fmt.Errorf("depcheck: no \"## Packages\" heading")
	}
	var names []string
	inTable := false
	for _, line := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		cells := strings.Split(line, "|")
		if len(cells) < 3 {
			continue
		}
		for _, m := range packageCell.FindAllStringSubmatch(cells[1], -1) {
			if !strings.HasSuffix(m[1], "/") {
				names = append(names, m[1])
			}
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("depcheck: the package table has no rows")
	}
	return names, nil
}

// Check returns one error per package of pkgs without a row in order, per
// row naming no package (or naming one twice), and per import of a package
// whose row is not above the importer's.
func Check(order []string, pkgs []Package) []error {
	var errs []error
	row := make(map[string]int, len(order))
	for i, name := range order {
		if _, dup := row[name]; dup {
			errs = append(errs, fmt.Errorf("%s has two rows", name))
			continue
		}
		row[name] = i
	}
	known := make(map[string]bool, len(pkgs))
	for _, p := range pkgs {
		known[p.Path] = true
	}
	for _, name := range order {
		if !known[name] {
			errs = append(errs, fmt.Errorf("row %s names no package of the module", name))
		}
	}
	for _, p := range pkgs {
		at, ok := row[p.Path]
		if !ok {
			errs = append(errs, fmt.Errorf("%s has no row in the table", p.Path))
			continue
		}
		for _, imp := range p.Imports {
			if r, ok := row[imp]; ok && r >= at {
				errs = append(errs, fmt.Errorf("%s (row %d) imports %s (row %d), which is not above it", p.Path, at+1, imp, r+1))
			}
		}
	}
	return errs
}
