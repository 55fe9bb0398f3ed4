package scenarios

import (
	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios/world"
)

// What the steps' calls touch, for the checker's reduction (engine
// Footprint): two calls of different actors commute when neither writes
// what the other touches. A call that reads the lab clock (a timestamp it
// writes, a deadline it compares) says so; a job's worker and poller read
// their request's memory (its job id), a crash ends another actor. A test
// checks the declarations: the search reaches the same states with the
// reduction as without it.
var (
	leases       = engine.Touching(world.TouchLeases, world.TouchLeases)
	readJobs     = engine.Touching(world.TouchJobs, 0)
	writeJobs    = engine.Touching(world.TouchJobs, world.TouchJobs)
	stampJobs    = engine.Touching(world.TouchJobs|engine.TouchClock, world.TouchJobs)
	readDatabase = engine.Touching(engine.TouchDatabase, 0)
	database     = engine.Touching(engine.TouchDatabase, engine.TouchDatabase)
	stampDB      = engine.Touching(engine.TouchDatabase|engine.TouchClock, engine.TouchDatabase)
	provides     = engine.Touching(world.TouchProvider, world.TouchProvider)
	redisWhole   = engine.Touching(world.TouchLeases|world.TouchJobs, world.TouchLeases|world.TouchJobs)
)

// withPeers is a footprint that also reads (or changes) other actors'
// memory.
func withPeers(f engine.Footprint, peers ...string) engine.Footprint {
	for _, p := range peers {
		if p != "" {
			f.Peers = append(f.Peers, p)
		}
	}
	return f
}
