package lang

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A particle after a number is the one the number's reading takes.
func TestKoreanParticlesAfterNumbers(t *testing.T) {
	for text, want := range map[string]string{
		"토큰 42이(가) 커밋": "토큰 42가 커밋",
		"토큰 41이(가) 커밋": "토큰 41이 커밋",
		"1,444을(를) 받음": "1,444를 받음",
		"1,443을(를) 받음": "1,443을 받음",
		"토큰 42(으)로":    "토큰 42로",
		"토큰 41(으)로":    "토큰 41로",
		"토큰 43(으)로":    "토큰 43으로",
		"에포크 10(으)로":   "에포크 10으로",
		"요약 100은(는)":   "요약 100은",
		"요약 9은(는)":     "요약 9는",
		"40과(와) 42":    "40과 42",
		"worker-A이(가)": "worker-A이(가)", // a name keeps both forms
	} {
		require.Equal(t, want, particlesAfterNumbers(text), text)
	}
	said := Ko.T("%s carries on exactly where it stopped, sure that token %d is still the newest — it has no way to know otherwise.", "A", 42)
	require.True(t, strings.Contains(said, "토큰 42가 여전히"), said)
	require.True(t, strings.Contains(P("%s committed token %d a second time", "B", 41).In(Ko), "토큰 41을 두 번째로"))
}

// No Korean message puts a one-form particle right after a number: which
// form is right depends on the number.
func TestNoKoreanParticleGuessesANumber(t *testing.T) {
	single := regexp.MustCompile(`%(\[\d+\])?d(이|가|을|를|은|는|로|으로|과|와)([\s.,:;)\]—·]|$)`)
	for en, ko := range Ko.Messages() {
		require.False(t, single.MatchString(ko), "%q: %q", en, ko)
	}
}
