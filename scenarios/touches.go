package scenarios

import "github.com/fencelab/fencelab/engine"

// What the steps' calls touch, for the checker's reduction (engine
// Footprint): two calls of different actors commute when neither writes
// what the other touches. A call that reads the lab clock (a timestamp it
// writes, a deadline it compares) says so; a job's worker and poller read
// their request's memory (its job id), a crash ends another actor. A test
// checks the declarations: the search reaches the same states with the
// reduction as without it.
var (
	leases       = engine.Touching(engine.TouchLeases, engine.TouchLeases)
	readJobs     = engine.Touching(engine.TouchJobs, 0)
	writeJobs    = engine.Touching(engine.TouchJobs, engine.TouchJobs)
	stampJobs    = engine.Touching(engine.TouchJobs|engine.TouchClock, engine.TouchJobs)
	readDatabase = engine.Touching(engine.TouchDatabase, 0)
	database     = engine.Touching(engine.TouchDatabase, engine.TouchDatabase)
	stampDB      = engine.Touching(engine.TouchDatabase|engine.TouchClock, engine.TouchDatabase)
	provides     = engine.Touching(engine.TouchProvider, engine.TouchProvider)
	redisWhole   = engine.Touching(engine.TouchLeases|engine.TouchJobs, engine.TouchLeases|engine.TouchJobs)
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
