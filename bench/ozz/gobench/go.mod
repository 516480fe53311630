module gobench

go 1.26.8

require github.com/mecanim/mecanim v0.0.0

require (
	github.com/pierrec/lz4/v4 v4.1.33 // indirect
	github.com/ulikunitz/xz v0.5.17 // indirect
)

replace github.com/mecanim/mecanim => ../../..
