package scenarios

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/untrusted"
)

// The guided order of a file: the story n plays, one entry at a time.
//
//	"A"                  A takes its next step
//	"call A"             one call (one round trip) of A's step
//	"pause A"            A stops (a GC pause); "pause A: a long GC" says why
//	"resume A"           A goes on
//	"expire"             the lab clock moves to the next lease expiry
//	"advance 30s"        the lab clock moves on by a duration
//	"restart-redis"      an operator's next step, by its name

// guidedOrders reads guided (and its narration) for both modes, or
// safe.guided and unsafe.guided where they differ.
func (f *file) guidedOrders(top *table, actors []*fileActor) (map[engine.Mode][]engine.Action, error) {
	both, hasBoth, err := top.list("guided")
	if err != nil {
		return nil, err
	}
	bothNarration, _, err := top.sub("narration")
	if err != nil {
		return nil, err
	}
	out := map[engine.Mode][]engine.Action{}
	for _, mode := range modes {
		list, path, narration, given := both, "guided", bothNarration, hasBoth
		mt, ok, err := top.sub(modeKey(mode))
		if err != nil {
			return nil, err
		}
		if ok {
			l, has, err := mt.list("guided")
			if err != nil {
				return nil, err
			}
			n, hasNarration, err := mt.sub("narration")
			if err != nil {
				return nil, err
			}
			switch {
			case has && bothNarration != nil && !hasBoth:
				return nil, f.wrong("narration", "[narration] numbers the entries of guided, and there is none: write [%s.narration] for %s.guided", modeKey(mode), modeKey(mode))
			case has:
				// The top [narration] numbers the top guided order's
				// entries, not this one's.
				list, path, given, narration = l, mt.key("guided"), true, n
			case hasNarration:
				narration = n
			}
			if err := mt.done("guided", "narration"); err != nil {
				return nil, err
			}
		}
		if !given {
			return nil, f.wrong("", "guided is missing for %s: the order the story takes, guided = [\"A\", \"pause A\", …]", mode)
		}
		if len(list) == 0 {
			return nil, f.wrong(path, "guided has no entry for %s", mode)
		}
		if len(list) > MaxGuided {
			return nil, f.wrong(path, "%d guided entries: at most %d", len(list), MaxGuided)
		}
		actions, err := f.guided(path, list, mode, actors)
		if err != nil {
			return nil, err
		}
		if narration != nil {
			if err := f.narration(narration, actions); err != nil {
				return nil, err
			}
		}
		out[mode] = actions
		f.guidedAt[mode] = nil
		for i := range actions {
			f.guidedAt[mode] = append(f.guidedAt[mode], fmt.Sprintf("%s:%d", f.name, f.at.lineOf(path+"."+strconv.Itoa(i))))
		}
	}
	return out, nil
}

// guided reads one mode's guided order, following the actors' pauses and
// the operators' programs as it goes, so an order that cannot be followed
// is refused here, not halfway through a talk.
func (f *file) guided(path string, list []any, mode engine.Mode, actors []*fileActor) ([]engine.Action, error) {
	paused := map[string]bool{}
	taken := map[string]int{} // steps taken so far by an actor that never waits
	var out []engine.Action
	for i, v := range list {
		at := path + "." + strconv.Itoa(i)
		entry, ok := v.(string)
		if !ok {
			return nil, f.wrong(at, "a guided entry is a string: \"A\", \"pause A\", \"expire\", \"advance 30s\"")
		}
		entry = strings.TrimSpace(entry)
		verb, rest, _ := strings.Cut(entry, " ")
		rest = strings.TrimSpace(rest)
		actorOf := func(name string) (*fileActor, error) {
			a, ok := actorNamed(actors, name, "")
			if !ok {
				if near := nearest(name, names(actors)); near != "" && name != "" {
					return nil, f.wrong(at, "guided entry %d %q names no actor (did you mean %s?)", i+1, untrusted.Line(entry), near)
				}
				return nil, f.wrong(at, "guided entry %d %q names no actor (actors: %s)", i+1, untrusted.Line(entry), quoteList(names(actors)))
			}
			return a, nil
		}
		var action engine.Action
		switch verb {
		case "pause":
			name, why, hasWhy := strings.Cut(rest, ":")
			a, err := actorOf(strings.TrimSpace(name))
			if err != nil {
				return nil, err
			}
			if paused[a.name] {
				return nil, f.wrong(at, "guided entry %d pauses %s, which is paused already", i+1, a.name)
			}
			paused[a.name] = true
			why = strings.TrimSpace(why)
			if !hasWhy || why == "" {
				action = engine.Pause(a.name, "GC pause") // the catalog's pause, said in every language
				break
			}
			if why, err = f.text(at, why); err != nil {
				return nil, err
			}
			action = engine.Pause(a.name, why)
		case "resume":
			a, err := actorOf(rest)
			if err != nil {
				return nil, err
			}
			if !paused[a.name] {
				return nil, f.wrong(at, "guided entry %d resumes %s, which is not paused", i+1, a.name)
			}
			paused[a.name] = false
			action = engine.Resume(a.name)
		case "expire":
			if rest != "" {
				return nil, f.wrong(at, "expire takes nothing after it: it moves the clock to the next lease expiry")
			}
			action = engine.AdvanceToNextExpiry()
		case "advance":
			by, err := time.ParseDuration(rest)
			if err != nil || by <= 0 || by > engine.MaxAdvance {
				return nil, f.wrong(at, "advance %q: want a duration above 0 and at most %s, like 30s or 10m", untrusted.Line(rest), engine.MaxAdvance)
			}
			action = engine.AdvanceBy(by)
		case "call":
			a, err := actorOf(rest)
			if err != nil {
				return nil, err
			}
			action = engine.DoCall(a.name)
		default:
			if rest != "" {
				return nil, f.wrong(at, "guided entry %d %q: want an actor's name, pause X, resume X, call X, expire or advance D", i+1, untrusted.Line(entry))
			}
			a, ok := actorNamed(actors, entry, "")
			if !ok {
				var err error
				if a, err = f.operatorStep(at, i, entry, mode, actors, taken); err != nil {
					return nil, err
				}
			}
			action = engine.Do(a.name)
		}
		if action.Kind == engine.StepActor || action.Kind == engine.CallActor {
			a, _ := actorNamed(actors, action.Actor, "")
			if paused[a.name] {
				return nil, f.wrong(at, "guided entry %d steps %s, which is paused: resume it first", i+1, a.name)
			}
			if len(a.steps[mode]) == 0 {
				return nil, f.wrong(at, "guided entry %d steps %s, which has no step in %s", i+1, a.name, mode)
			}
			if !a.waits[mode] && action.Kind == engine.StepActor {
				// An actor none of whose steps can wait takes each step
				// once: each entry is its next step (or fewer, for one
				// that finishes early).
				if taken[a.name] >= len(a.steps[mode]) {
					return nil, f.wrong(at, "guided entry %d steps %s past the end of its program (steps in %s: %d)", i+1, a.name, mode, len(a.steps[mode]))
				}
				taken[a.name]++
			}
		}
		out = append(out, action)
	}
	for _, a := range actors {
		if paused[a.name] {
			return nil, f.wrong(path, "the guided order of %s ends with %s paused: it could never finish its program", mode, a.name)
		}
	}
	return out, nil
}

// operatorStep reads a guided entry that names an operator's step
// ("restart-redis"): the operator whose next step that is takes it.
func (f *file) operatorStep(at string, i int, entry string, mode engine.Mode, actors []*fileActor, taken map[string]int) (*fileActor, error) {
	if _, isStep := stepNamed(entry); isStep {
		for _, a := range actors {
			if a.kind == kindOperator && !a.waits[mode] && taken[a.name] < len(a.steps[mode]) && a.steps[mode][taken[a.name]] == entry {
				return a, nil
			}
		}
		return nil, f.wrong(at, "guided entry %d %q: no operator's next step in %s is %s", i+1, untrusted.Line(entry), mode, entry)
	}
	candidates := append(names(actors), "pause", "resume", "expire", "advance", "call")
	if near := nearest(entry, candidates); near != "" {
		return nil, f.wrong(at, "guided entry %d %q names no actor (did you mean %s?)", i+1, untrusted.Line(entry), near)
	}
	return nil, f.wrong(at, "guided entry %d %q names no actor (actors: %s)", i+1, untrusted.Line(entry), quoteList(names(actors)))
}

// narration reads a narration table: a sentence per guided entry, by its
// number from 1, in English; narration.ko in Korean.
func (f *file) narration(t *table, actions []engine.Action) error {
	set := func(t *table, l lang.Lang) error {
		for k := range t.m {
			if k == "ko" && l == lang.En {
				continue
			}
			n, err := strconv.Atoi(k)
			if err != nil || n < 1 || n > len(actions) {
				return f.wrong(t.key(k), "narration %q: want the number of a guided entry, 1 to %d", untrusted.Line(k), len(actions))
			}
			text, err := t.str(k, true)
			if err != nil {
				return err
			}
			if l == lang.Ko {
				actions[n-1].Narration.Ko = text
			} else {
				actions[n-1].Narration.En = text
			}
		}
		return nil
	}
	if err := set(t, lang.En); err != nil {
		return err
	}
	if ko, ok, err := t.sub("ko"); err != nil {
		return err
	} else if ok {
		return set(ko, lang.Ko)
	}
	return nil
}
