package objstore_test

import (
	"context"
	"fmt"

	"github.com/alkaid-go/alkaid/dataset"
	"github.com/alkaid-go/alkaid/expr"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/objstore"
)

func ExampleParseURL() {
	bucket, prefix, err := objstore.ParseURL("s3://sales/warehouse/2024/")
	fmt.Println(bucket, prefix, err)
	fmt.Println(objstore.IsURL("s3://sales"), objstore.IsURL("/data/sales"))
	// Output:
	// sales warehouse/2024 <nil>
	// true false
}

// Scan a partitioned dataset in a bucket: the endpoint and credentials
// come from AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.
// Discovery lists each prefix once and reads each file's footer for the
// schema (with dataset.WithSchema it reads nothing); the scan then reads
// only the column chunks of id and amount of the files of 2024.
func ExampleOpen() {
	fsys, err := objstore.Open("s3://sales/warehouse")
	if err != nil {
		fmt.Println(err)
		return
	}
	d, err := dataset.Open(fsys, "orders", dataset.WithFormat(files.FormatParquet),
		dataset.WithPartitioning(dataset.Partitioning{Style: dataset.Hive}))
	if err != nil {
		fmt.Println(err)
		return
	}
	scan, err := d.Scan(context.Background(), dataset.WithColumns("id", "amount"),
		dataset.WithFilter(expr.Eq(expr.Field("year"), expr.Lit(int64(2024)))))
	if err != nil {
		fmt.Println(err)
		return
	}
	for rec, err := range scan.Records() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(rec.NumRows())
	}
}
