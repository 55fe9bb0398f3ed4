package redisstore

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/untrusted"
)

// Prefix starts every key fencelab reads or writes; nothing else on a server
// is touched.
const Prefix = "fencelab:"

// keyspace names the keys of one Coordination. On the embedded server, which
// is the process's own, it is Prefix itself; on a real server each run has
// a namespace of its own below it (fencelab:RUN:), so runs sharing a server
// never see or change each other's keys, and a run can delete exactly what
// it made.
type keyspace struct {
	prefix string
	id     string // the run's id on a shared server; empty on the embedded one
}

// runKeyspace is a new run's namespace on a shared server.
func runKeyspace() keyspace {
	var raw [4]byte
	rand.Read(raw[:])
	id := hex.EncodeToString(raw[:])
	return keyspace{prefix: Prefix + id + ":", id: id}
}

// conflictKeys are the three keys of one conflict key K. The tag T is the
// first 24 hex digits of SHA-256(K); the braces put all three in one cluster
// slot, so one script can use them together.
type conflictKeys struct {
	lease, counter, epoch string
}

func (ks keyspace) conflict(conflictKey string) conflictKeys {
	sum := sha256.Sum256([]byte(conflictKey))
	tag := "{" + hex.EncodeToString(sum[:])[:24] + "}"
	return conflictKeys{
		lease:   ks.prefix + tag + ":lease",
		counter: ks.prefix + tag + ":counter",
		epoch:   ks.prefix + tag + ":epoch",
	}
}

func (ks keyspace) leader(job string) string { return ks.prefix + "leader:" + job }

// jobPrefix starts the job keys of the second seed. The target is the hash
// tag, so a target's pointer and job hashes share a cluster slot.
func (ks keyspace) jobPrefix() string { return ks.prefix + "job:" }

func (ks keyspace) running(target string) string { return ks.jobPrefix() + "{" + target + "}:running" }
func (ks keyspace) job(target, jobID string) string {
	return ks.jobPrefix() + "{" + target + "}:" + jobID
}

// jobs is the SCAN pattern of the job keys of the targets matching a glob.
func (ks keyspace) jobs(targets string) string { return ks.jobPrefix() + "{" + targets + "}:*" }

// all is the SCAN pattern of every key of the keyspace.
func (ks keyspace) all() string { return ks.prefix + "*" }

// ownKeyError refuses a file's key with the shape of one of fencelab's
// own (world.OwnKeyName).
func ownKeyError(name string) error {
	return lang.Error("the key %s has the shape of one of fencelab's own (its leases, counters, epochs, leaders and jobs): a file's keys are named otherwise", untrusted.Line(name))
}

// owns reports whether a key belongs to the keyspace.
func (ks keyspace) owns(key string) bool { return strings.HasPrefix(key, ks.prefix) }

// parseJob splits a job key into target and job id ("running" for the
// pointer).
func (ks keyspace) parseJob(key string) (target, name string, ok bool) {
	rest, found := strings.CutPrefix(key, ks.jobPrefix()+"{")
	if !found {
		return "", "", false
	}
	target, name, ok = strings.Cut(rest, "}:")
	return target, name, ok
}

// role says what a key of the keyspace is for (world.RoleLease, …), from
// its name; "" for a key fencelab's scripts do not make.
func (ks keyspace) role(key string) string {
	if _, name, ok := ks.parseJob(key); ok {
		if name == "running" {
			return world.RoleRunning
		}
		return world.RoleJob
	}
	rest, ok := strings.CutPrefix(key, ks.prefix)
	if !ok {
		return ""
	}
	if strings.HasPrefix(rest, "leader:") {
		return world.RoleLeader
	}
	if !strings.HasPrefix(rest, "{") {
		return ""
	}
	for _, role := range []string{world.RoleLease, world.RoleCounter, world.RoleEpoch} {
		if strings.HasSuffix(rest, "}:"+role) {
			return role
		}
	}
	return ""
}

// stamps are the fields of a key that hold a moment (unix ms): a job hash's
// createdAt and heartbeat.
func (ks keyspace) stamps(key string) []string {
	if ks.role(key) == world.RoleJob {
		return []string{"createdAt", "heartbeat"}
	}
	return nil
}
