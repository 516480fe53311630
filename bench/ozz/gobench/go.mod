module gobench

go 1.26.8

require github.com/mecanim/mecanim v0.0.0

require (
	github.com/andybalholm/brotli v1.3.0 // indirect
	github.com/pierrec/lz4/v4 v4.1.33 // indirect
	github.com/qmuntal/gltf v0.28.0 // indirect
)

replace github.com/mecanim/mecanim => ../../..
