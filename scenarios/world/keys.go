package world

import (
	"regexp"
	"strings"
)

// OwnKeyName reports whether a key named below a run's namespace (without
// it) has the shape of one of fencelab's own (store/redisstore/keys.go):
// a conflict key's lease, counter or epoch ({24 hex digits}:…), a
// leader's lease, the jobs' keys, a run's alive mark on the embedded
// server. A file's code shares the namespace and may name none of them:
// the file's check refuses them at their line, the store at the step.
func OwnKeyName(name string) bool {
	for _, own := range []string{"leader:", "job:", "alive:"} {
		if strings.HasPrefix(name, own) {
			return true
		}
	}
	return conflictTag.MatchString(name)
}

// conflictTag begins the keys of a conflict key.
var conflictTag = regexp.MustCompile(`^\{[0-9a-f]{24}\}:`)
