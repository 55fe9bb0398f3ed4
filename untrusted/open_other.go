//go:build !unix

package untrusted

const openNonblock = 0
