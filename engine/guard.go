package engine

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/fencelab/fencelab/lang"
)

// Guard is a named check that SAFE makes. Each has one switch: removing it
// takes the check out of the code path that makes it — a statement, a
// script's compare, a step's Go — as real code without that check would
// be, so "SAFE without this guard" is a value that can be passed around,
// printed, traced and tested. The world's guards come first, numbered in
// the order it defines them (DefineGuards); a scenario file's own follow,
// from ownGuardBase.
type Guard uint8

// GuardInfo is a guard a world defines: its name (stable: flags, traces
// and the matrix use it), what it checks in one sentence, and the refusals
// its check alone makes, for a guard that is a check and nothing else.
type GuardInfo struct {
	Name, What string
	Refuses    []string
}

// worldGuards are the guards of the process's world.
var worldGuards []GuardInfo

// DefineGuards sets the world's guards, in their order: the world's
// package calls it once, when it is loaded. A world has at most
// ownGuardBase guards.
func DefineGuards(guards []GuardInfo) {
	if len(guards) > int(ownGuardBase) {
		panic("engine: more guards than a world may define")
	}
	worldGuards = guards
}

// guardCount is how many guards the world defined.
func guardCount() Guard { return Guard(len(worldGuards)) }

// refusingGuard is the guard of a refusal a check-only guard makes.
func refusingGuard(code string) (Guard, bool) {
	for i, info := range worldGuards {
		if slices.Contains(info.Refuses, code) {
			return Guard(i), true
		}
	}
	return 0, false
}

// CheckOnly reports whether the guard is a check and nothing else: the
// fenced write's predicates, taken in their order, the first that fails
// refusing the write with its own code. Taking such a guard out changes
// a run only where it would have been the one to refuse — so a scenario
// whose SAFE search never saw it refuse runs the same without it, every
// schedule of it. (Other guards change how the code goes about its work —
// where it reads, what it writes together — or are checked in Redis too.)
func (g Guard) CheckOnly() bool { return g < guardCount() && len(worldGuards[g].Refuses) > 0 }

// AllGuards are the guards in their order.
func AllGuards() []Guard {
	out := make([]Guard, guardCount())
	for i := range out {
		out[i] = Guard(i)
	}
	return out
}

func (g Guard) String() string {
	if g < guardCount() {
		return worldGuards[g].Name
	}
	if name, _, ok := ownGuardOf(g); ok {
		return name
	}
	return "guard?"
}

// What says in one sentence what the guard checks, in any language (a
// file's own guard, in the file's words).
func (g Guard) What() lang.Phrase {
	if g < guardCount() {
		return lang.P(worldGuards[g].What)
	}
	if _, says, ok := ownGuardOf(g); ok && says != "" {
		return lang.P("%s", says)
	}
	return lang.P("a check of the file's own (its guards entry says no more: says = \"…\")")
}

// A scenario file may name guards of its own (version-check, "edit
// lost"), each with a sentence of its own: they are Guards past
// fencelab's, from ownGuardBase on, numbered in the order the process
// first met their names. A name is a name for the process's life: a
// save under --watch that renames a guard takes a new number, and the
// sentence is the last file's to give one. fencelab's own names always
// mean fencelab's guards.
const (
	ownGuardBase Guard = 16
	ownGuardMax        = 16 // GuardSet has 32 bits
)

var ownGuards struct {
	sync.RWMutex
	names, says []string
}

// OwnGuard is the guard a file names name, with says its sentence
// (empty: the sentence stands): fencelab's guard where the name is one of
// fencelab's, else the file's own.
func OwnGuard(name, says string) (Guard, error) {
	for _, g := range AllGuards() {
		if g.String() == strings.ToLower(strings.TrimSpace(name)) {
			return g, nil // fencelab's name: fencelab's guard
		}
	}
	ownGuards.Lock()
	defer ownGuards.Unlock()
	for i, n := range ownGuards.names {
		if n == name {
			if says != "" {
				ownGuards.says[i] = says
			}
			return ownGuardBase + Guard(i), nil
		}
	}
	if len(ownGuards.names) == ownGuardMax {
		return 0, lang.Error("more than %d guards of files' own in one run of fencelab", ownGuardMax)
	}
	ownGuards.names = append(ownGuards.names, name)
	ownGuards.says = append(ownGuards.says, says)
	return ownGuardBase + Guard(len(ownGuards.names)-1), nil
}

// ownGuardNameOK says whether a name may be a file's own guard's: not
// empty, at most 40 characters, no brace, comma or line break (scenario
// files say why at their line).
func ownGuardNameOK(name string) bool {
	n := strings.TrimSpace(name)
	return n != "" && len([]rune(n)) <= 40 && !strings.ContainsAny(n, "{},\n\r") && VisibleName(n)
}

// VisibleName says whether a name a file gives (a guard's, an
// invariant's, a value's) is text a reader sees as it is, printed as it
// is in every output: letters, marks, digits, punctuation, symbols and
// plain spaces — no control character, nothing a terminal draws as
// nothing (U+200B, a variation selector, a Hangul filler: Unicode's
// default-ignorable code points), no direction mark, no line or
// paragraph separator.
func VisibleName(name string) bool {
	for _, r := range name {
		if r != ' ' && (!unicode.IsGraphic(r) || unicode.Is(unicode.Zs, r) ||
			unicode.In(r, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point, unicode.Cf)) {
			return false
		}
	}
	return utf8.ValidString(name)
}

// ownGuardOf is a file's own guard's name and sentence.
func ownGuardOf(g Guard) (name, says string, ok bool) {
	ownGuards.RLock()
	defer ownGuards.RUnlock()
	i := int(g) - int(ownGuardBase)
	if i < 0 || i >= len(ownGuards.names) {
		return "", "", false
	}
	return ownGuards.names[i], ownGuards.says[i], true
}

// Own says whether the guard is a file's own, not fencelab's.
func (g Guard) Own() bool { return g >= ownGuardBase }

// GuardSet is a set of guards: the ones removed from SAFE (--without), or
// the ones a run consulted. The zero set is empty.
type GuardSet uint32

// Guards is the set of the guards given.
func Guards(gs ...Guard) GuardSet {
	var s GuardSet
	for _, g := range gs {
		s |= 1 << g
	}
	return s
}

// Has reports whether g is in the set.
func (s GuardSet) Has(g Guard) bool { return s&(1<<g) != 0 }

// List is the set's guards in their order: fencelab's, then a file's own.
func (s GuardSet) List() []Guard {
	var out []Guard
	for g := Guard(0); g < ownGuardBase+ownGuardMax; g++ {
		if s.Has(g) {
			out = append(out, g)
		}
	}
	return out
}

// Names are the set's guards by name, in their order.
func (s GuardSet) Names() []string {
	var out []string
	for _, g := range s.List() {
		out = append(out, g.String())
	}
	return out
}

// String is the set as --without takes it: "fence,region".
func (s GuardSet) String() string { return strings.Join(s.Names(), ",") }

// ParseGuard reads one guard's name: fencelab's (in any case), or one a
// file of the process named as its own (as the file wrote it).
func ParseGuard(name string) (Guard, error) {
	for _, g := range AllGuards() {
		if g.String() == strings.ToLower(strings.TrimSpace(name)) {
			return g, nil
		}
	}
	ownGuards.RLock()
	for i, n := range ownGuards.names {
		if n == strings.TrimSpace(name) {
			ownGuards.RUnlock()
			return ownGuardBase + Guard(i), nil
		}
	}
	ownGuards.RUnlock()
	if near := nearestGuard(name); near != "" {
		return 0, lang.Error("unknown guard %q (did you mean %s?); the guards: %s", name, near, strings.Join(knownGuards().Names(), ", "))
	}
	return 0, lang.Error("unknown guard %q; the guards: %s", name, strings.Join(knownGuards().Names(), ", "))
}

// knownGuards are fencelab's guards and those the process's files named.
func knownGuards() GuardSet {
	ownGuards.RLock()
	defer ownGuards.RUnlock()
	s := everyGuard()
	for i := range ownGuards.names {
		s |= Guards(ownGuardBase + Guard(i))
	}
	return s
}

// ParseGuards reads a list of guards, "fence,region" (spaces allowed, each
// name once at most; an empty list is the empty set).
func ParseGuards(list string) (GuardSet, error) {
	var s GuardSet
	for _, name := range strings.Split(list, ",") {
		if strings.TrimSpace(name) == "" {
			continue
		}
		g, err := ParseGuard(name)
		if err != nil {
			return 0, err
		}
		s |= Guards(g)
	}
	return s, nil
}

// NearFencelabGuard is fencelab's guard name a file's own name is close
// to (fense: fence), if any: a typo, or a name of its own?
func NearFencelabGuard(name string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	for _, g := range AllGuards() {
		if d := editDistance(name, g.String()); d > 0 && d < 2+len(name)/8 {
			return g.String()
		}
	}
	return ""
}

// nearestGuard is the guard name closest to a misspelt one, if one is
// close enough to be what was meant.
func nearestGuard(name string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	best, bestDistance := "", 3
	for _, g := range knownGuards().List() {
		if d := editDistance(name, g.String()); d < bestDistance {
			best, bestDistance = g.String(), d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of two short words.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	row := make([]int, len(rb)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		diagonal := row[0]
		row[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			diagonal, row[j] = row[j], min(row[j]+1, row[j-1]+1, diagonal+cost)
		}
	}
	return row[len(rb)]
}

// ModeLabel names a mode with the guards removed from it: "SAFE",
// "SAFE −region", "SAFE −fence −owner", "UNSAFE" (UNSAFE is the naive code;
// it has no guards to remove).
func ModeLabel(mode Mode, without GuardSet) string {
	if mode == Unsafe || without == 0 {
		return mode.String()
	}
	parts := []string{mode.String()}
	for _, name := range without.Names() {
		parts = append(parts, "−"+name)
	}
	return strings.Join(parts, " ")
}

// everyGuard is the set of the world's guards.
func everyGuard() GuardSet { return 1<<guardCount() - 1 }
