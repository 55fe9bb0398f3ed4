package redisstore

import (
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fencelab/fencelab/lang"
)

// On a Redis of yours, a file's script is sent as a function of a library
// fencelab loads for the run (FUNCTION LOAD, then FCALL), not with EVAL,
// for one reason: a script that keeps the server busy past the call's
// deadline can then be stopped by fencelab without stopping anybody
// else's. SCRIPT KILL stops whatever script is running, and while one
// runs the server answers no question of which it is. FUNCTION STATS is
// answered while a function holds the server, and names the function
// running and every argument it was called with; each call of fencelab's
// carries a random nonce of its own as its last argument (the script
// never sees it: its ARGV ends before it). Where the server names this
// run's function and this call's nonce, the script is proven fencelab's,
// and FUNCTION KILL stops it.
//
// What that cannot stop: a script that has written (Redis then refuses
// FUNCTION KILL, as it refuses SCRIPT KILL: only SHUTDOWN NOSAVE ends it,
// which fencelab leaves to the server's owner), and one call of a C
// function that runs long (a kill is taken between Lua instructions; the
// frame refuses the pattern functions it can see for this reason).
//
// Where fencelab's own user may not load functions (FUNCTION LOAD refused:
// docs/backends.md lists what to allow), the script goes with EVAL, as
// before, and a script past its deadline is left to the server's owner
// (fencelab kills none it cannot prove its own).
//
// The library is loaded by fencelab's own connection, which runs its top
// level: the frame's registration, with the file's script inside the
// function's body (the frame read the script as one whole chunk, so it
// cannot close the body early), and at load time Redis gives that top
// level no redis.call at all. The libraries are deleted when the run ends,
// and a killed run's by the next run that loads one.

// functionPrefix starts the name of every library (and its one function)
// of a run's.
const functionPrefix = "fencelab_code_"

// stopWithin bounds the questions fencelab asks of a server its script
// holds: the server answers them once it counts the script as busy (its
// busy-reply-threshold, 5 s unless changed), up to a few seconds after the
// call's own deadline.
const stopWithin = 8 * time.Second

// scriptFunctions are the functions a run loaded, one per framed script.
type scriptFunctions struct {
	loaded map[string]string // framed script → its function's name
	// refused is the server's answer where fencelab may not load
	// functions: the run's scripts then go with EVAL.
	refused string
}

// functionFor is the name of the function that runs the framed script,
// loaded the first time it is asked for; ok is false where the script
// goes with EVAL instead (the server refused the library).
func (c *Coordination) functionFor(ctx context.Context, framed string) (name string, lineShift int, ok bool) {
	sum := sha1.Sum([]byte(framed))
	name = functionPrefix + c.keys.id + "_" + hex.EncodeToString(sum[:10])
	library, lineShift := functionLibrary(name, framed)
	c.mu.Lock()
	if c.functions.refused != "" {
		c.mu.Unlock()
		return "", 0, false
	}
	if _, done := c.functions.loaded[framed]; done {
		c.mu.Unlock()
		return name, lineShift, true
	}
	c.mu.Unlock()
	err := c.onEveryNode(ctx, func(ctx context.Context, node redis.UniversalClient) error {
		return node.Do(ctx, "function", "load", "replace", library).Err()
	})
	c.mu.Lock()
	first := c.functions.loaded == nil
	switch {
	case err == nil:
		if first {
			c.functions.loaded = map[string]string{}
		}
		c.functions.loaded[framed] = name
	case isReply(err) && mayNotLoad(err):
		c.functions.refused = strings.TrimPrefix(err.Error(), "ERR ")
	}
	c.mu.Unlock()
	if err != nil {
		// Any answer but a refusal (the server's Lua would not compile
		// the library): EVAL says it in the words a script's error has.
		return "", 0, false
	}
	if first {
		// Housekeeping, as for the code users: a failure leaves a killed
		// run's library for the next sweep.
		_ = c.sweepFunctions(ctx)
	}
	return name, lineShift, true
}

// mayNotLoad is the server's refusal of FUNCTION LOAD itself: an ACL's,
// or a server without functions (before Redis 7).
func mayNotLoad(err error) bool {
	said := err.Error()
	return strings.HasPrefix(said, "NOPERM") || strings.Contains(said, "unknown command") || strings.Contains(said, "unknown subcommand")
}

// functionLibrary is the library of one function, name, whose body is the
// framed script; lineShift is what the library's line numbers are past
// the script's. A script's own first line #!lua flags=… becomes the
// function's flags.
func functionLibrary(name, framed string) (library string, lineShift int) {
	flags, body, lineShift := "", framed, 1
	if strings.HasPrefix(framed, "#!") {
		nl := strings.IndexAny(framed, "\r\n")
		shebang := framed[:nl]
		body, lineShift = framed[nl+1:], 0
		for _, field := range strings.Fields(shebang)[1:] {
			if list, ok := strings.CutPrefix(field, "flags="); ok {
				for _, f := range strings.Split(list, ",") {
					if f != "" {
						flags += strconv.Quote(f) + ", "
					}
				}
			}
		}
	}
	// The call's ARGV is the function's arguments but its last, the
	// call's nonce; the framed script is a chunk whose ... is the chunk's,
	// so it goes in a function of its own.
	return fmt.Sprintf("#!lua name=%[1]s\nredis.register_function{function_name = %[1]q, flags = { %[2]s}, "+
		"callback = function(KEYS, %[3]s) local ARGV = {} for i = 1, #%[3]s - 1 do ARGV[i] = %[3]s[i] end return (function(...) %[4]s\nend)() end}\n",
		name, flags, ownNames("__fencelab_args"), body), lineShift
}

// nonce is a new random word for one call.
func nonce() string {
	var raw [16]byte
	rand.Read(raw[:])
	return hex.EncodeToString(raw[:])
}

// functionError is a function's error reply in the words EVAL would have
// used: the script's own line numbers, and its digest for the library's
// name.
func functionError(said string, name string, lineShift int) string {
	said = functionLine.ReplaceAllStringFunc(said, func(m string) string {
		n, _ := strconv.Atoi(m[len("user_function:"):])
		return "user_script:" + strconv.Itoa(n-lineShift)
	})
	return strings.ReplaceAll(said, "script: "+name, "script: "+name[strings.LastIndexByte(name, '_')+1:])
}

var functionLine = regexp.MustCompile(`user_function:\d+`)

// serverSaid is an error reply of the server's, reworded by fencelab: to
// go-redis, and to fencelab's readers of replies, still the server's.
type serverSaid string

func (s serverSaid) Error() string { return string(s) }
func (serverSaid) RedisError()     {}

// What stopOwnScript found.
type stopped int

const (
	scriptKilled   stopped = iota // FUNCTION KILL stopped it
	scriptEnded                   // nothing of the call's runs any more
	scriptWrote                   // it runs and has written: Redis will not kill it
	scriptNotAsked                // the server answered no question in time
	scriptOther                   // another client's script holds the server
)

// stopOwnScript asks the server what script holds it, and kills it if it
// is the function name called with nonce: a script of this call's.
func (c *Coordination) stopOwnScript(name, callNonce string) stopped {
	// A client of its own, outside the deadline hook: the server was just
	// found silent, and answers only once it counts the script as busy.
	stop := c.server.unbounded()
	defer stop.Close()
	ctx, cancel := context.WithTimeout(context.Background(), stopWithin)
	defer cancel()
	result := scriptEnded
	ask := func(ctx context.Context, node redis.UniversalClient) error {
		stats, err := node.FunctionStats(ctx).Result()
		switch {
		case isReply(err) && strings.HasPrefix(err.Error(), "BUSY"):
			// Refused while an EVAL runs: a script of EVAL's, so not
			// fencelab's function.
			result = scriptOther
			return nil
		case err != nil:
			result = scriptNotAsked
			return nil
		}
		running, ok := stats.RunningScript()
		if !ok {
			return nil // none: it ended
		}
		if running.Name != name || len(running.Command) == 0 || running.Command[len(running.Command)-1] != callNonce {
			result = scriptOther
			return nil
		}
		switch err := node.FunctionKill(ctx).Err(); {
		case err == nil:
			result = scriptKilled
			// The kill is taken at the script's next instruction: the
			// server answers again a moment later, and "stopped" is said
			// once it does.
			for ctx.Err() == nil {
				err := node.Ping(ctx).Err()
				if err == nil || !isReply(err) || !strings.HasPrefix(err.Error(), "BUSY") {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
		case isReply(err) && strings.Contains(err.Error(), "UNKILLABLE"):
			result = scriptWrote
		case isReply(err) && strings.Contains(err.Error(), "NOTBUSY"):
		default:
			result = scriptNotAsked
		}
		return nil
	}
	if cluster, ok := stop.(*redis.ClusterClient); ok {
		_ = cluster.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error { return ask(ctx, node) })
	} else {
		_ = ask(ctx, stop)
	}
	if result == scriptKilled || result == scriptEnded {
		// Heard from: the runs' cleanups need not skip the server.
		c.server.silence().Store(false)
	}
	return result
}

// stuckScriptError says what became of a file's script that ran past the
// call's deadline on a Redis of the user's.
func stuckScriptError(how stopped, function bool) error {
	switch {
	case !function:
		return lang.Error("the script did not end within %s; until it does, the server serves no client: `redis-cli SCRIPT KILL` stops a script that has not written (fencelab may not load functions there, so it cannot prove the script is its own, and kills none)", CallTimeout)
	case how == scriptKilled:
		return lang.Error("the script did not end within %s: fencelab stopped it with FUNCTION KILL (the server named this call as the script it ran)", CallTimeout)
	case how == scriptEnded:
		return lang.Error("the script did not end within %s (it has ended since)", CallTimeout)
	case how == scriptOther:
		return lang.Error("the script did not end within %s; the server now runs another client's script, which fencelab leaves alone (fencelab's has ended, or waits behind it)", CallTimeout)
	case how == scriptWrote:
		return lang.Error("the script did not end within %s, and it has written, so Redis will not stop it: until it ends the server serves no client (SHUTDOWN NOSAVE would end it, which fencelab leaves to you)", CallTimeout)
	}
	return lang.Error("the script did not end within %s, and the server answered nothing while it ran (one long call of Lua's, a pattern match?): until it ends the server serves no client, and fencelab killed nothing", CallTimeout)
}

// dropFunctions deletes the libraries the run loaded.
func (c *Coordination) dropFunctions(ctx context.Context) error {
	c.mu.Lock()
	var names []string
	for _, name := range c.functions.loaded {
		names = append(names, name)
	}
	c.functions.loaded = nil
	c.mu.Unlock()
	for _, name := range names {
		if err := c.onEveryNode(ctx, func(ctx context.Context, node redis.UniversalClient) error {
			return node.Do(ctx, "function", "delete", name).Err()
		}); err != nil {
			return fmt.Errorf("redisstore: delete the run's function %s: %w", name, err)
		}
	}
	return nil
}

// sweepFunctions deletes the libraries of runs that are gone (killed).
// A server that will not list its functions to fencelab has none of its.
func (c *Coordination) sweepFunctions(ctx context.Context) error {
	return c.onEveryNode(ctx, func(ctx context.Context, node redis.UniversalClient) error {
		libraries, err := node.FunctionList(ctx, redis.FunctionListQuery{LibraryNamePattern: functionPrefix + "*"}).Result()
		var said redis.Error
		if errors.As(err, &said) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("redisstore: list the server's functions: %w", err)
		}
		for _, library := range libraries {
			rest, ours := strings.CutPrefix(library.Name, functionPrefix)
			id, _, _ := strings.Cut(rest, "_")
			if !ours || id == c.keys.id {
				continue
			}
			gone, err := c.runGone(ctx, id)
			if err != nil {
				return err
			}
			if gone {
				if err := node.Do(ctx, "function", "delete", library.Name).Err(); err != nil && !isReply(err) {
					return fmt.Errorf("redisstore: delete the function of run %s: %w", id, err)
				}
			}
		}
		return nil
	})
}
