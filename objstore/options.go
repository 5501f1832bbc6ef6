package objstore

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"time"
)

// Option configures a Store ([NewS3]) or an [FS] ([NewFS]); [Open] takes
// both kinds. An option given to a constructor it does not configure is
// an error wrapping ErrInvalid.
type Option func(*config)

// Addressing is how requests name the bucket.
type Addressing int

// The addressings. AddressingAuto uses virtual hosts on Amazon's and a
// few other well-known endpoints, and the path elsewhere (S3-compatible
// servers on an address or a private name).
const (
	AddressingAuto        Addressing = iota
	AddressingPath                   // http://endpoint/bucket/key
	AddressingVirtualHost            // http://bucket.endpoint/key
)

// Defaults of the options.
const (
	DefaultRetries        = 5
	DefaultBackoff        = 100 * time.Millisecond
	DefaultRequestTimeout = 30 * time.Second
	DefaultPartSize       = 16 << 20
	// MinPartSize is S3's least size of a part other than the last.
	MinPartSize = 5 << 20
)

type config struct {
	// Store options.
	endpoint   string
	access     string
	secret     string
	token      string
	region     string
	addressing Addressing
	retries    int
	backoff    time.Duration
	timeout    time.Duration
	partSize   int64
	transport  http.RoundTripper
	// FS options.
	concurrency int

	set []string // the names of the options given, in order
	err error
}

// storeOptions and fsOptions name the options each constructor takes.
var (
	storeOptions = map[string]bool{"WithEndpoint": true, "WithCredentials": true, "WithRegion": true,
		"WithAddressing": true, "WithRetries": true, "WithRequestTimeout": true, "WithPartSize": true, "WithTransport": true}
	fsOptions = map[string]bool{"WithConcurrency": true}
)

func (c *config) fail(name, format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("objstore: %s: %w: %s", name, ErrInvalid, fmt.Sprintf(format, args...))
	}
}

// newConfig applies opts over the defaults and the environment, and
// checks that each option is one of allowed.
func newConfig(opts []Option, allowed ...map[string]bool) (*config, error) {
	c := &config{
		endpoint: firstEnv("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"),
		access:   os.Getenv("AWS_ACCESS_KEY_ID"),
		secret:   os.Getenv("AWS_SECRET_ACCESS_KEY"),
		token:    os.Getenv("AWS_SESSION_TOKEN"),
		region:   firstEnv("AWS_REGION", "AWS_DEFAULT_REGION"),
		retries:  DefaultRetries,
		backoff:  DefaultBackoff,
		timeout:  DefaultRequestTimeout,
		partSize: DefaultPartSize,
	}
	for _, o := range opts {
		o(c)
	}
	if c.err != nil {
		return nil, c.err
	}
	for _, name := range c.set {
		ok := false
		for _, a := range allowed {
			ok = ok || a[name]
		}
		if !ok {
			return nil, fmt.Errorf("objstore: %s: %w: not an option of this constructor", name, ErrInvalid)
		}
	}
	if c.region == "" {
		c.region = "us-east-1"
	}
	if c.concurrency == 0 {
		c.concurrency = 8 * runtime.GOMAXPROCS(0)
	}
	return c, nil
}

func firstEnv(names ...string) string {
	for _, n := range names {
		if v := os.Getenv(n); v != "" {
			return v
		}
	}
	return ""
}

func (c *config) mark(name string) { c.set = append(c.set, name) }

// WithEndpoint sets the S3 endpoint, a URL such as
// "http://127.0.0.1:8333" or "https://s3.eu-west-1.amazonaws.com"; the
// default is AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, else Amazon S3 of
// the region.
func WithEndpoint(endpoint string) Option {
	return func(c *config) {
		c.mark("WithEndpoint")
		if _, _, err := parseEndpoint(endpoint); err != nil {
			c.fail("WithEndpoint", "%v", err)
		}
		c.endpoint = endpoint
	}
}

// WithCredentials sets the access key, secret key and (for temporary
// credentials, else "") session token; the default is AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, and requests are anonymous
// when those are unset.
func WithCredentials(accessKey, secretKey, sessionToken string) Option {
	return func(c *config) {
		c.mark("WithCredentials")
		if (accessKey == "") != (secretKey == "") {
			c.fail("WithCredentials", "an access key needs a secret key and the reverse")
		}
		c.access, c.secret, c.token = accessKey, secretKey, sessionToken
	}
}

// WithRegion sets the region requests are signed for; the default is
// AWS_REGION or AWS_DEFAULT_REGION, else "us-east-1". Giving it spares the
// client a request asking the bucket's location.
func WithRegion(region string) Option {
	return func(c *config) {
		c.mark("WithRegion")
		if region == "" {
			c.fail("WithRegion", "empty region")
		}
		c.region = region
	}
}

// WithAddressing sets how requests name the bucket (default
// AddressingAuto).
func WithAddressing(a Addressing) Option {
	return func(c *config) {
		c.mark("WithAddressing")
		if a < AddressingAuto || a > AddressingVirtualHost {
			c.fail("WithAddressing", "unknown addressing %d", int(a))
		}
		c.addressing = a
	}
}

// WithRetries sets how many times a failed request is retried (default
// DefaultRetries; 0: never) and the wait before the first retry (default
// DefaultBackoff), which doubles with each retry up to 64 times itself;
// each wait is drawn between half and all of it.
func WithRetries(n int, backoff time.Duration) Option {
	return func(c *config) {
		c.mark("WithRetries")
		if n < 0 {
			c.fail("WithRetries", "negative count %d", n)
		}
		if backoff <= 0 {
			c.fail("WithRetries", "backoff %v is not positive", backoff)
		}
		c.retries, c.backoff = n, backoff
	}
}

// WithRequestTimeout bounds each request, from sending it to reading the
// last byte of its response (default DefaultRequestTimeout); a request
// that takes longer is cancelled and retried.
func WithRequestTimeout(d time.Duration) Option {
	return func(c *config) {
		c.mark("WithRequestTimeout")
		if d <= 0 {
			c.fail("WithRequestTimeout", "timeout %v is not positive", d)
		}
		c.timeout = d
	}
}

// WithPartSize sets the size of the parts a written object is uploaded in
// (default DefaultPartSize, at least MinPartSize); an object of at most
// one part is uploaded in one request.
func WithPartSize(n int64) Option {
	return func(c *config) {
		c.mark("WithPartSize")
		if n < MinPartSize {
			c.fail("WithPartSize", "%d bytes is below S3's least part size %d", n, MinPartSize)
		}
		if n > 5<<30 {
			c.fail("WithPartSize", "%d bytes is above S3's greatest part size 5 GiB", n)
		}
		c.partSize = n
	}
}

// WithTransport sets the HTTP transport of the requests (default: a
// transport of net/http's defaults keeping up to 256 idle connections).
func WithTransport(t http.RoundTripper) Option {
	return func(c *config) {
		c.mark("WithTransport")
		if t == nil {
			c.fail("WithTransport", "nil transport")
		}
		c.transport = t
	}
}

// WithConcurrency bounds the ranged reads an FS has in flight at once
// (0: 8 per core, as reads wait on the network rather than the CPU;
// negative: an error).
func WithConcurrency(n int) Option {
	return func(c *config) {
		c.mark("WithConcurrency")
		if n < 0 {
			c.fail("WithConcurrency", "negative concurrency %d", n)
		}
		c.concurrency = n
	}
}

// parseEndpoint splits an endpoint URL into the host (with port) and
// whether it uses TLS.
func parseEndpoint(endpoint string) (host string, secure bool, err error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return "", false, err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", false, fmt.Errorf("endpoint %q: scheme is not http or https", endpoint)
	}
	if u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return "", false, fmt.Errorf("endpoint %q: not of the form scheme://host[:port]", endpoint)
	}
	return u.Host, u.Scheme == "https", nil
}
