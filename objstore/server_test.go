package objstore

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// The tests against a real S3 server start SeaweedFS (weed server -s3)
// once for the package when scripts/weed.sh has built it (the test never
// builds it: a cold build takes longer than go test's timeout), else
// gofakes3, an S3 server in Go, in the test process; ALKAID_WEED names
// another weed binary. They skip, saying why, only when neither starts.
const (
	testAccess = "alkaidtest"
	testSecret = "alkaidtestsecret"
	// testDomain is the server's domain for virtual-host addressing:
	// bucket.s3.test is dialled at the server's loopback address.
	testDomain = "s3.test"
)

var server struct {
	endpoint string // http://127.0.0.1:port of its S3 API; "" when none
	skip     string // why there is none
	name     string // "SeaweedFS" or "gofakes3"
	pid      int    // SeaweedFS's process; 0 when it runs in the test process
}

// startFake serves gofakes3 (objects in memory) on a loopback port.
func startFake() (stop func(), err error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	faker := gofakes3.New(s3mem.New(), gofakes3.WithHostBucketBase(testDomain+":"+port))
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: faker.Server()}}
	srv.Start()
	server.endpoint, server.name = srv.URL, "gofakes3"
	return srv.Close, nil
}

func TestMain(m *testing.M) {
	flag.Parse()
	// Fetched blocks are not cleared before the fetch fills them: in
	// tests they start as 0xA5 bytes, so a byte left unfilled shows.
	rawmem.PoisonUnlessBenchmarking()
	code := func() int {
		stop, err := startWeed()
		if err != nil {
			// SeaweedFS is not built: gofakes3, an S3 server in Go,
			// runs in the test process instead.
			fmt.Fprintf(os.Stderr, "objstore: testing against gofakes3 in process, not SeaweedFS: %v\n", err)
			stop, err = startFake()
		}
		if err != nil {
			server.skip = err.Error()
		} else {
			defer stop()
		}
		return m.Run()
	}()
	os.Exit(code)
}

// needServer skips t when no S3 server runs.
func needServer(t *testing.T) {
	t.Helper()
	if server.endpoint == "" {
		t.Skipf("no S3 server for this test: %s", server.skip)
	}
}

// freePorts returns n free loopback ports.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var out []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		out = append(out, l.Addr().(*net.TCPAddr).Port)
	}
	return out, nil
}

// startWeed builds (once) and starts SeaweedFS with an S3 gateway on a
// free port, waiting until it stores objects.
func startWeed() (stop func(), err error) {
	if testing.Short() {
		return nil, fmt.Errorf("-short: not starting SeaweedFS")
	}
	bin := os.Getenv("ALKAID_WEED")
	if bin == "" {
		out, err := exec.Command("bash", "scripts/weed.sh", "--if-built").Output()
		if err != nil {
			msg := err.Error()
			if ee, ok := err.(*exec.ExitError); ok {
				msg = lastLines(string(ee.Stderr), 5)
			}
			return nil, errors.New(msg)
		}
		bin = strings.TrimSpace(string(out))
	}
	dir, err := os.MkdirTemp("", "alkaid-weed-")
	if err != nil {
		return nil, err
	}
	cfg := filepath.Join(dir, "s3.json")
	identities := fmt.Sprintf(`{"identities":[{"name":"test","credentials":[{"accessKey":%q,"secretKey":%q}],"actions":["Admin","Read","List","Tagging","Write"]}]}`, testAccess, testSecret)
	if err := os.WriteFile(cfg, []byte(identities), 0o600); err != nil {
		return nil, err
	}
	p, err := freePorts(8)
	if err != nil {
		return nil, err
	}
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o700); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "server", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-dir="+data,
		fmt.Sprintf("-master.port=%d", p[0]), fmt.Sprintf("-master.port.grpc=%d", p[1]),
		fmt.Sprintf("-volume.port=%d", p[2]), fmt.Sprintf("-volume.port.grpc=%d", p[3]),
		"-filer", fmt.Sprintf("-filer.port=%d", p[4]), fmt.Sprintf("-filer.port.grpc=%d", p[5]),
		"-s3", fmt.Sprintf("-s3.port=%d", p[6]), fmt.Sprintf("-s3.port.grpc=%d", p[7]), "-s3.config="+cfg,
		"-s3.domainName="+testDomain, "-master.volumeSizeLimitMB=32", "-volume.max=0")
	logf, err := os.Create(filepath.Join(dir, "weed.log"))
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %v", bin, err)
	}
	server.pid = cmd.Process.Pid
	stop = func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		logf.Close()
		os.RemoveAll(dir)
	}
	endpoint := fmt.Sprintf("http://127.0.0.1:%d", p[6])
	if err := waitReady(endpoint); err != nil {
		log, _ := os.ReadFile(logf.Name())
		stop()
		return nil, fmt.Errorf("SeaweedFS did not come up: %v; its log ends: %s", err, lastLines(string(log), 5))
	}
	server.endpoint, server.name = endpoint, "SeaweedFS"
	return stop, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// testClient is a plain minio client of the server, for setting up
// buckets and checking what tests left.
func testClient(endpoint string) (*minio.Client, error) {
	return minio.New(strings.TrimPrefix(endpoint, "http://"), &minio.Options{
		Creds: credentials.NewStaticV4(testAccess, testSecret, ""), Region: "us-east-1", BucketLookup: minio.BucketLookupPath})
}

// waitReady waits until the server creates a bucket and stores an object.
func waitReady(endpoint string) error {
	c, err := testClient(endpoint)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(90 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = c.MakeBucket(ctx, "ready", minio.MakeBucketOptions{})
		if err == nil || minio.ToErrorResponse(err).Code == "BucketAlreadyOwnedByYou" || minio.ToErrorResponse(err).Code == "BucketAlreadyExists" {
			_, err = c.PutObject(ctx, "ready", "probe", bytes.NewReader([]byte("x")), 1, minio.PutObjectOptions{})
		}
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// newBucket makes a bucket of a fresh name for one test.
func newBucket(t *testing.T) string {
	t.Helper()
	needServer(t)
	c, err := testClient(server.endpoint)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.ToLower(strings.NewReplacer("/", "-", "_", "-").Replace(t.Name()))
	name = fmt.Sprintf("%.40s-%d", name, time.Now().UnixNano()%1e9)
	if err := c.MakeBucket(context.Background(), name, minio.MakeBucketOptions{}); err != nil {
		t.Fatalf("making bucket %s: %v", name, err)
	}
	t.Cleanup(func() { removeBucket(t, c, name) })
	return name
}

// removeBucket deletes a test's bucket with its objects: SeaweedFS gives
// each bucket volumes of its own, and a test process making many buckets
// (-count=25, say) would run out of them ("no free volumes left").
func removeBucket(t *testing.T, c *minio.Client, name string) {
	ctx := context.Background()
	objects := make(chan minio.ObjectInfo)
	go func() {
		defer close(objects)
		for o := range c.ListObjects(ctx, name, minio.ListObjectsOptions{Recursive: true}) {
			if o.Err == nil {
				objects <- o
			}
		}
	}()
	for e := range c.RemoveObjects(ctx, name, objects, minio.RemoveObjectsOptions{}) {
		t.Logf("removing %s/%s: %v", name, e.ObjectName, e.Err)
	}
	if err := c.RemoveBucket(ctx, name); err != nil {
		t.Logf("removing bucket %s: %v", name, err)
	}
}

// testOptions are the store options of the tests: the server (or a
// proxy of it), its credentials, quick retries and timeouts.
func testOptions(endpoint string, more ...Option) []Option {
	return append([]Option{WithEndpoint(endpoint), WithCredentials(testAccess, testSecret, ""),
		WithRegion("us-east-1"), WithAddressing(AddressingPath), WithRetries(4, 20*time.Millisecond),
		WithRequestTimeout(5 * time.Second)}, more...)
}
