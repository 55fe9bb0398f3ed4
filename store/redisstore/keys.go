package redisstore

import (
	"crypto/sha256"
	"encoding/hex"
)

// Prefix starts every key fencelab reads or writes; nothing else on a server
// is touched.
const Prefix = "fencelab:"

// conflictKeys are the three keys of one conflict key K. The tag T is the
// first 24 hex digits of SHA-256(K); the braces put all three in one cluster
// slot, so one script can use them together.
type conflictKeys struct {
	lease, counter, epoch string
}

func keysFor(conflictKey string) conflictKeys {
	sum := sha256.Sum256([]byte(conflictKey))
	tag := "{" + hex.EncodeToString(sum[:])[:24] + "}"
	return conflictKeys{
		lease:   Prefix + tag + ":lease",
		counter: Prefix + tag + ":counter",
		epoch:   Prefix + tag + ":epoch",
	}
}

func leaderKey(job string) string { return Prefix + "leader:" + job }
