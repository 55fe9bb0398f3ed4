package lang

import (
	"regexp"
	"strings"
)

// A Korean particle depends on the sound the word before it ends with: 토큰
// 42가 (사십이, a vowel) but 토큰 41이 (사십일, a consonant). The catalog
// cannot know which number a %d will be, so after a number it writes both
// forms, as Korean does when it cannot know either — 이(가), 을(를),
// 은(는), 과(와), (으)로 — and the said text keeps the one the number's
// reading takes.

// pairedAfterNumber is a number (digits, thousands separated) followed by
// a particle written in both forms.
var pairedAfterNumber = regexp.MustCompile(`([0-9][0-9,]*)(이\(가\)|을\(를\)|은\(는\)|과\(와\)|\(으\)로)`)

// particlesAfterNumbers keeps, after each number, the particle form its
// Sino-Korean reading takes.
func particlesAfterNumbers(text string) string {
	if !strings.Contains(text, "(") {
		return text
	}
	return pairedAfterNumber.ReplaceAllStringFunc(text, func(m string) string {
		sub := pairedAfterNumber.FindStringSubmatch(m)
		number, particle := sub[1], sub[2]
		return number + particleAfter(number[len(number)-1], particle)
	})
}

// particleAfter is the form of a paired particle after a number whose last
// digit is last. A number ends as its last nonzero place is read: 2 이,
// 4 사, 5 오, 9 구 end in a vowel; 1 일, 7 칠, 8 팔 in ㄹ; 3 삼, 6 육, and
// every round number (영, 십, 백, 천, 만) in another consonant.
func particleAfter(last byte, paired string) string {
	vowel := last == '2' || last == '4' || last == '5' || last == '9'
	rieul := last == '1' || last == '7' || last == '8'
	switch paired {
	case "이(가)":
		return pick(vowel, "가", "이")
	case "을(를)":
		return pick(vowel, "를", "을")
	case "은(는)":
		return pick(vowel, "는", "은")
	case "과(와)":
		return pick(vowel, "와", "과")
	default: // (으)로: 로 after a vowel or ㄹ, 으로 after any other consonant
		return pick(vowel || rieul, "로", "으로")
	}
}

func pick(vowel bool, afterVowel, afterConsonant string) string {
	if vowel {
		return afterVowel
	}
	return afterConsonant
}
