package parquet

import (
	"iter"

	"github.com/alkaid-go/alkaid/alkaid"
)

// records reads f selected by opts (see File.Select); a Select error is
// the sequence's only element.
func records(f *File, opts ...Option) iter.Seq2[*alkaid.Record, error] {
	g, err := f.Select(opts...)
	if err != nil {
		return func(yield func(*alkaid.Record, error) bool) { yield(nil, err) }
	}
	return g.Records()
}

// readAll collects the records of f selected by opts.
func readAll(f *File, opts ...Option) ([]*alkaid.Record, error) {
	var out []*alkaid.Record
	for r, err := range records(f, opts...) {
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}
