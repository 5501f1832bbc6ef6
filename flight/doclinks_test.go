package flight

import (
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"strings"
	"testing"
)

// declared parses the Go files (tests left out) of dir and returns its
// package-level names and methods ("Type.Method"), and its imports by
// name.
func declared(t *testing.T, dir string) (names map[string]bool, imports map[string]string) {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	names, imports = map[string]bool{}, map[string]string{}
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, im := range f.Imports {
				p := strings.Trim(im.Path.Value, `"`)
				name := path.Base(p)
				if im.Name != nil {
					name = im.Name.Name
				}
				imports[name] = p
			}
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil {
						names[d.Name.Name] = true
						continue
					}
					typ := d.Recv.List[0].Type
					if s, ok := typ.(*ast.StarExpr); ok {
						typ = s.X
					}
					if id, ok := typ.(*ast.Ident); ok {
						names[id.Name+"."+d.Name.Name] = true
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						switch s := s.(type) {
						case *ast.TypeSpec:
							names[s.Name.Name] = true
						case *ast.ValueSpec:
							for _, n := range s.Names {
								names[n.Name] = true
							}
						}
					}
				}
			}
		}
	}
	return names, imports
}

// docLinks returns every doc link ([Name], [Recv.Name], [pkg.Name]) in
// the comments of the Go files of dir, tests left out.
func docLinks(t *testing.T, dir string, imports map[string]string) []*comment.DocLink {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	p := comment.Parser{
		LookupSym:     func(string, string) bool { return true },
		LookupPackage: func(name string) (string, bool) { ip, ok := imports[name]; return ip, ok },
	}
	var out []*comment.DocLink
	var walk func([]comment.Text)
	walk = func(ts []comment.Text) {
		for _, t := range ts {
			switch t := t.(type) {
			case *comment.DocLink:
				out = append(out, t)
			case *comment.Link:
				walk(t.Text)
			}
		}
	}
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			for _, cg := range f.Comments {
				for _, b := range p.Parse(cg.Text()).Content {
					switch b := b.(type) {
					case *comment.Paragraph:
						walk(b.Text)
					case *comment.List:
						for _, it := range b.Items {
							for _, c := range it.Content {
								if para, ok := c.(*comment.Paragraph); ok {
									walk(para.Text)
								}
							}
						}
					}
				}
			}
		}
	}
	return out
}

// TestDocLinks: every doc link of this package and its command names
// something that exists, here or in a package of this module (go vet
// does not check them).
func TestDocLinks(t *testing.T) {
	const module = "github.com/alkaid-go/alkaid/"
	for _, dir := range []string{".", "cmd/alkaid-flight"} {
		names, imports := declared(t, dir)
		for _, l := range docLinks(t, dir, imports) {
			sym := l.Name
			if l.Recv != "" {
				sym = l.Recv + "." + l.Name
			}
			have := names
			if l.ImportPath != "" {
				rel, ok := strings.CutPrefix(l.ImportPath, module)
				if !ok {
					continue // outside this module
				}
				if strings.HasPrefix(rel, "flight/") {
					rel = strings.TrimPrefix(rel, "flight/")
				} else {
					rel = "../" + rel
				}
				have, _ = declared(t, rel)
			}
			if sym != "" && !have[sym] {
				t.Errorf("%s: doc link [%s] names nothing", dir, strings.TrimPrefix(l.ImportPath+"."+sym, "."))
			}
		}
	}
}
