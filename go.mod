module github.com/alkaid-go/alkaid

go 1.24.0

require (
	github.com/andybalholm/brotli v1.2.3
	github.com/google/flatbuffers v25.12.19+incompatible
	github.com/klauspost/compress v1.18.5
	github.com/pierrec/lz4/v4 v4.1.33
	github.com/stretchr/testify v1.12.1
	golang.org/x/sys v0.40.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
