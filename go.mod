module github.com/mecanim/mecanim

go 1.26.8

require (
	github.com/andybalholm/brotli v1.3.0
	github.com/pierrec/lz4/v4 v4.1.33
	github.com/qmuntal/gltf v0.28.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/ulikunitz/xz v0.5.17
)

require golang.org/x/text v0.14.0 // indirect
