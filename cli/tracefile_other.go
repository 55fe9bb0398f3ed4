//go:build !unix

package cli

const (
	syscallNonblock = 0
	syscallNofollow = 0
)
