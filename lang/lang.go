// Package lang is fencelab's one catalog of messages in other languages
// than English. A message is found by its English format string, the one
// the code writes (so the code reads in English); a language's catalog
// gives the same message with the same verbs, in any order (%[2]s).
// Identifiers — STALE_FENCE, token, Redis key names, actor names — stay as
// they are in every language.
package lang

import (
	"fmt"
	"os"
	"regexp"
	"strings"
)

// Lang is a language fencelab speaks.
type Lang string

const (
	En Lang = "en" // the default, and the language of the code
	Ko Lang = "ko"
)

// All are the languages, in the order an error lists them.
var All = []Lang{En, Ko}

// catalogs hold every message of a language but English.
var catalogs = map[Lang]map[string]string{Ko: ko}

// Parse reads a --lang value.
func Parse(s string) (Lang, error) {
	for _, l := range All {
		if string(l) == strings.ToLower(s) {
			return l, nil
		}
	}
	return En, fmt.Errorf("--lang %q: want en or ko", s)
}

// FromEnv is the language of the locale, as LC_ALL, LC_MESSAGES and LANG
// say in that order of precedence (ko_KR.UTF-8 is Korean); else English.
func FromEnv() Lang {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := os.Getenv(name); v != "" {
			if strings.HasPrefix(strings.ToLower(v), "ko") {
				return Ko
			}
			return En
		}
	}
	return En
}

// T is a message in the language, formatted: format is its English text.
// A message a catalog lacks (a test forbids it) shows in English.
func (l Lang) T(format string, args ...any) string {
	format = l.translate(format)
	if len(args) == 0 {
		return format
	}
	return l.fit(fmt.Sprintf(format, args...))
}

// fit settles what depends on the words an argument became: in Korean, a
// particle after a number (토큰 42가, 토큰 41이).
func (l Lang) fit(text string) string {
	if l == Ko {
		return particlesAfterNumbers(text)
	}
	return text
}

// translate is a format in the language.
func (l Lang) translate(format string) string {
	if translated, ok := catalogs[l][format]; ok {
		return translated
	}
	return format
}

// Texts is one text a person wrote in the languages they wrote it in (a
// scenario file's narration): not a message of the catalog.
type Texts struct{ En, Ko string }

// In is the text in l, else in English; empty when neither is given.
func (t Texts) In(l Lang) string {
	if l == Ko && t.Ko != "" {
		return t.Ko
	}
	return t.En
}

// Has reports whether the language has the message (English has all).
func (l Lang) Has(format string) bool {
	if l == En {
		return true
	}
	_, ok := catalogs[l][format]
	return ok
}

// Messages are the English formats a language's catalog translates.
func (l Lang) Messages() map[string]string { return catalogs[l] }

// Phrase is a message kept as its English format and its arguments, so it
// can be said in any language: a timeline's detail is English in a trace
// (replay compares it) and in the reader's language on the screen. An
// argument that is itself a Phrase is said in the same language.
type Phrase struct {
	Format string
	Args   []any
}

// P is the phrase of a format and its arguments.
func P(format string, args ...any) Phrase { return Phrase{Format: format, Args: args} }

// In says the phrase in a language.
func (p Phrase) In(l Lang) string {
	args := make([]any, len(p.Args))
	for i, a := range p.Args {
		if said, ok := a.(interface{ In(Lang) string }); ok {
			a = said.In(l)
		}
		args[i] = a
	}
	if len(args) == 0 {
		// As T: a format without arguments is the text itself, % and all.
		return l.T(p.Format)
	}
	// %w wraps an error for errors.Is; said, it is the error's text. A
	// translation may move it (%[1]w), as any other argument.
	return l.fit(fmt.Sprintf(saidWraps(l.translate(p.Format)), args...))
}

// wrapVerb is %w, or %[n]w — or %%, a percent sign, which is skipped as
// a whole so that the w after it stays a letter.
var wrapVerb = regexp.MustCompile(`%%|%(\[\d+\])?w`)

// saidWraps turns a format's %w and %[n]w into %v and %[n]v.
func saidWraps(format string) string {
	return wrapVerb.ReplaceAllStringFunc(format, func(verb string) string {
		if verb == "%%" {
			return verb
		}
		return verb[:len(verb)-1] + "v"
	})
}

// String is the phrase in English.
func (p Phrase) String() string { return p.In(En) }

// List is phrases said one after another, joined by commas.
type List []Phrase

// In says each phrase in a language.
func (ps List) In(l Lang) string {
	said := make([]string, len(ps))
	for i, p := range ps {
		said[i] = p.In(l)
	}
	return strings.Join(said, ", ")
}

// Err is an error whose message is a phrase: Error is its English, In says
// it in a language. Its arguments that are errors are what it wraps.
type Err struct{ Phrase }

// Error is an error said as format and args; %w wraps an error as
// fmt.Errorf does.
func Error(format string, args ...any) error { return &Err{P(format, args...)} }

func (e *Err) Error() string { return e.In(En) }

func (e *Err) Unwrap() []error {
	var wrapped []error
	for _, a := range e.Args {
		if err, ok := a.(error); ok {
			wrapped = append(wrapped, err)
		}
	}
	return wrapped
}
