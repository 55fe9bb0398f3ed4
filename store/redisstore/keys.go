package redisstore

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
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

// jobPrefix starts the job keys of the second seed. The target is the hash
// tag, so a target's pointer and job hashes share a cluster slot.
const jobPrefix = Prefix + "job:"

func runningKey(target string) string    { return jobPrefix + "{" + target + "}:running" }
func jobKey(target, jobID string) string { return jobPrefix + "{" + target + "}:" + jobID }

// parseJobKey splits a job key into target and job id ("running" for the
// pointer).
func parseJobKey(key string) (target, name string, ok bool) {
	rest, found := strings.CutPrefix(key, jobPrefix+"{")
	if !found {
		return "", "", false
	}
	target, name, ok = strings.Cut(rest, "}:")
	return target, name, ok
}
