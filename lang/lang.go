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
	if translated, ok := catalogs[l][format]; ok {
		format = translated
	}
	if len(args) == 0 {
		return format
	}
	return fmt.Sprintf(format, args...)
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
