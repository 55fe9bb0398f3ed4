package redisstore

import (
	_ "embed"

	"github.com/redis/go-redis/v9"
)

// One Lua file per script; each is one atomic compare-then-act.
var (
	//go:embed scripts/bootstrap.lua
	bootstrapSource string
	//go:embed scripts/acquire.lua
	acquireSource string
	//go:embed scripts/acquire_naive.lua
	acquireNaiveSource string
	//go:embed scripts/renew.lua
	renewSource string
	//go:embed scripts/release.lua
	releaseSource string
	//go:embed scripts/acquire_job.lua
	acquireJobSource string
	//go:embed scripts/transition.lua
	transitionSource string
	//go:embed scripts/leader_acquire.lua
	leaderAcquireSource string
	//go:embed scripts/leader_release.lua
	leaderReleaseSource string
	//go:embed scripts/progress.lua
	progressSource string
	//go:embed scripts/lab_ttls.lua
	labTTLsSource string

	bootstrapScript     = redis.NewScript(bootstrapSource)
	acquireScript       = redis.NewScript(acquireSource)
	acquireNaiveScript  = redis.NewScript(acquireNaiveSource)
	renewScript         = redis.NewScript(renewSource)
	releaseScript       = redis.NewScript(releaseSource)
	acquireJobScript    = redis.NewScript(acquireJobSource)
	transitionScript    = redis.NewScript(transitionSource)
	leaderAcquireScript = redis.NewScript(leaderAcquireSource)
	leaderReleaseScript = redis.NewScript(leaderReleaseSource)
	progressScript      = redis.NewScript(progressSource)
	labTTLsScript       = redis.NewScript(labTTLsSource)
)
