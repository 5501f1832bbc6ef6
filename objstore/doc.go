// Package objstore reads and writes datasets on S3-compatible object
// storage (Amazon S3, SeaweedFS, Ceph, MinIO, R2, GCS's S3 API).
//
// # Store
//
// A [Store] is the few operations a dataset needs of a bucket: list the
// objects and sub-prefixes directly under a prefix, stat an object, read a
// byte range of it, write an object atomically, copy and delete. [NewS3]
// is the S3 implementation, built on the minio-go client: the endpoint,
// credentials and region come from options or the standard environment
// variables (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN, AWS_REGION), and buckets are addressed path-style or
// as virtual hosts ([WithAddressing]).
//
// Every request has a timeout ([WithRequestTimeout]) and is retried with
// exponential backoff and jitter ([WithRetries]) when it fails with a 5xx
// status, throttling (429, SlowDown), a reset or dropped connection or a
// stalled response. A request that still fails is an [ErrRequest] naming
// the operation, the object and, for reads, the byte range. A missing
// object is fs.ErrNotExist, a refused one fs.ErrPermission.
//
// # File system
//
// [FS] presents a Store under a prefix as an io/fs file system (fs.FS,
// fs.ReadDirFS, fs.StatFS) whose files read at offsets ([File] is an
// io.ReaderAt), and as a dataset.WriteFS, so package dataset discovers,
// scans and writes datasets there as it does in a directory. [Open] opens
// an s3://bucket/prefix URL as an FS. flight.NewFSService serves an FS
// over Arrow Flight (alkaid-flight serve s3://bucket/prefix).
//
// [CLIOption] registers the s3 scheme with the alkaid command (package
// github.com/alkaid-go/alkaid/cmd/alkaid/cli); command objstore/cmd/alkaid
// is that command, so that
//
//	go install github.com/alkaid-go/alkaid/objstore/cmd/alkaid@latest
//
// gives an alkaid whose commands take s3://bucket/prefix wherever they
// take a file, a directory or a pattern (alkaid cat -where "year = 2024"
// s3://bucket/sales, alkaid join -on id s3://b/orders s3://b/users.csv
// s3://b/out.parquet), write an output file there whole or not at all,
// and whose convert -partition-by writes a dataset to a prefix.
//
// Reading is shaped for few, large requests:
//
//   - Directories are listed with one request per prefix (per 1000
//     entries), once per FS, and the listing's sizes answer Stat and
//     Open (the alkaid command opens a dataset's files in the FS of the
//     dataset, so validate, say, lists each prefix once): opening a
//     file costs no request, so files a scan prunes by their partition
//     values are never read (give dataset.WithSchema, or discovery reads
//     every file's footer for its schema).
//   - The first read near a file's end fetches its last 64 KiB in one
//     request (the Parquet footer, usually its page index and bloom
//     filters too), the first read near its start its first 4 KiB (the
//     magic bytes); a file of at most 68 KiB is fetched whole. These
//     blocks are kept per object by the FS, so reopening a file (dataset
//     discovery, then its scan) costs nothing.
//   - Before reading a row group, the parquet reader announces the byte
//     ranges of the column chunks it needs (parquet.Prefetcher). Ranges
//     less than 1 MiB apart are merged while the bytes fetched stay within
//     1.1 times the bytes asked for, and the merged ranges are fetched
//     concurrently, at most [WithConcurrency] requests at once per FS.
//     The parquet reader decodes each chunk from the fetched block it
//     lies in, without copying it out first.
//
// Writing: Create buffers a file and uploads it in parts of
// [WithPartSize] bytes (a multipart upload), completed by Close only when
// every part was stored; a failed write aborts the upload, so it leaves no
// object and no incomplete upload behind. A file smaller than one part is
// one PUT. Rename is a server-side copy and a delete (S3 has no rename).
package objstore
