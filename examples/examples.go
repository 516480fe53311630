// Package examples holds the small Unity files the project generates itself
// for its README, tests and fuzz seeds. None is a copy of anyone's file:
// `go generate ./examples` writes them from the description in gen/.
package examples

//go:generate go run ./gen -o .
