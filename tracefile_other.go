//go:build !unix

package main

const (
	syscallNonblock = 0
	syscallNofollow = 0
)
