package flight

import (
	"context"
	"net/http"
	"sort"
	"strings"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// Most cookies a client keeps, and the longest one: a server cannot make
// a client grow without bound.
const (
	maxCookies   = 64
	maxCookieLen = 4096
)

// cookieJar holds a client's cookies, by name.
type cookieJar struct {
	mu sync.Mutex
	m  map[string]string
}

// attach adds the cookie header to an outgoing call.
func (j *cookieJar) attach(ctx context.Context) context.Context {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.m) == 0 {
		return ctx
	}
	var parts []string
	for k, v := range j.m {
		parts = append(parts, k+"="+v)
	}
	sort.Strings(parts)
	return metadata.AppendToOutgoingContext(ctx, "cookie", strings.Join(parts, "; "))
}

// update keeps the cookies set in md.
func (j *cookieJar) update(mds ...metadata.MD) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, md := range mds {
		for _, v := range md.Get("set-cookie") {
			if len(v) > maxCookieLen {
				continue
			}
			ck, err := http.ParseSetCookie(v)
			if err != nil {
				continue
			}
			if ck.MaxAge < 0 {
				delete(j.m, ck.Name)
				continue
			}
			if _, ok := j.m[ck.Name]; ok || len(j.m) < maxCookies {
				j.m[ck.Name] = ck.Value
			}
		}
	}
}

func (j *cookieJar) unary(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, inv grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	var hdr, trl metadata.MD
	err := inv(j.attach(ctx), method, req, reply, cc, append(opts, grpc.Header(&hdr), grpc.Trailer(&trl))...)
	j.update(hdr, trl)
	return err
}

func (j *cookieJar) stream(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, s grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	cs, err := s(j.attach(ctx), desc, cc, method, opts...)
	if err != nil {
		return nil, err
	}
	return &cookieStream{ClientStream: cs, jar: j}, nil
}

// cookieStream keeps the cookies of a stream's headers, once they came,
// and of its trailers, once it ended.
type cookieStream struct {
	grpc.ClientStream
	jar    *cookieJar
	header bool
}

func (s *cookieStream) RecvMsg(m any) error {
	err := s.ClientStream.RecvMsg(m)
	if !s.header {
		s.header = true
		if md, herr := s.ClientStream.Header(); herr == nil {
			s.jar.update(md)
		}
	}
	if err != nil {
		s.jar.update(s.ClientStream.Trailer())
	}
	return err
}
