package array_test

import (
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
)

func init() { array.SetLiteralParser(arrayjson.Parse, arrayjson.Append) }
