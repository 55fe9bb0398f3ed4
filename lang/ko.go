package lang

// ko is the Korean catalog: English format → Korean format. The verbs are
// the same as the English ones; %[n]s picks an argument where Korean word
// order puts it elsewhere.
var ko = map[string]string{
	// The narration of the engine's own actions: pauses, resumes, the clock.
	"%s is frozen mid-job (%s): it cannot notice time passing or its lease running out.":                                            "%s이(가) 작업 도중 멈췄습니다(%s). 시간이 흐르는 것도, 리스가 끝나는 것도 알아차릴 수 없습니다.",
	"%s is frozen mid-step (%s): it cannot notice time passing.":                                                                    "%s이(가) 단계 도중 멈췄습니다(%s). 시간이 흐르는 것을 알아차릴 수 없습니다.",
	"%s is frozen mid-job (%s) while it holds token %d; nothing tells it when its lease runs out.":                                  "%s이(가) 토큰 %[3]d을(를) 가진 채 작업 도중 멈췄습니다(%[2]s). 리스가 언제 끝나는지 아무도 알려주지 않습니다.",
	"%s carries on exactly where it stopped, as if no time had passed.":                                                             "%s은(는) 아무 시간도 흐르지 않은 듯 멈췄던 바로 그 자리에서 이어갑니다.",
	"%s carries on exactly where it stopped, sure that its claim on %s is still its own — it has no way to know the claim ran out.": "%s은(는) 멈췄던 바로 그 자리에서 이어가며, %s에 대한 클레임이 여전히 자기 것이라고 확신합니다. 클레임이 만료된 것을 알 방법이 없습니다.",
	"%s carries on exactly where it stopped, sure that token %d is still the newest — it has no way to know otherwise.":             "%s은(는) 멈춘 바로 그 자리에서 계속합니다. 토큰 %d이(가) 여전히 가장 최신이라고 확신하며 — 그렇지 않다는 것을 알 길이 없습니다.",
	"%s passes; nothing in Redis expires.":                                                                                          "%s이(가) 흐릅니다. Redis에서 만료되는 키는 없습니다.",
	"Time passes and Redis drops %d expired key(s); whoever held them is not told.":                                                 "시간이 흐르고 Redis가 만료된 키 %d개를 지웁니다. 그 키를 가졌던 쪽은 아무 통보도 받지 못합니다.",
	"Invariant %d broke: %s — %s.":                                                                                                  "불변식 %d이(가) 깨졌습니다: %s — %s.",

	// What a worker believes, and the truth beside it.
	"lease free":                       "리스 비어 있음",
	"lease held by %s, token %d":       "%s이(가) 토큰 %d(으)로 리스 보유",
	"reused %s":                        "%s 재사용",
	"job %s":                           "잡 %s",
	"%s: provider said %s":             "%s: 제공자의 답 %s",
	"working on %s":                    "%s 처리 중",
	"holds lease, token %d":            "리스 보유, 토큰 %d",
	"released token %d, leads its job": "토큰 %d 반납, 잡을 이끄는 중",
	"leads its job":                    "잡을 이끄는 중",
	"released token %d":                "토큰 %d 반납",
	"holds nothing":                    "가진 것 없음",

	// The catalog: each scenario's title and story.
	"Counter loss: Redis forgets the fencing counter":                                                                                                  "카운터 유실: Redis가 펜싱 카운터를 잊는다",
	"Owner reuse: a retry on the same worker, and the first run's late release":                                                                        "소유자 재사용: 같은 워커에서의 재시도와 첫 실행의 늦은 반납",
	"A1 takes 41 on worker-A and stalls past its lease; the retry A2 takes 42 on worker-A; A1 wakes and releases; B wants the lease while A2 holds it": "A1이 worker-A로 41을 받고 리스가 끝나도록 멈춘다. 재시도 A2가 worker-A로 42를 받는다. A1이 깨어나 반납한다. A2가 리스를 가진 동안 B가 리스를 원한다",
	"Region failback: the right region at an old epoch":                                                                                                "리전 복귀: 맞는 리전, 낡은 에포크",
	"Claim expiry: a stalled outbox worker's row is reconciled by another":                                                                             "클레임 만료: 멈춘 아웃박스 워커의 행을 다른 워커가 조정한다",
	"B commits 42 and 43; OUT's call for 42 times out and OUT stalls past its claim; OUT2 delivers 43 and reconciles 42; OUT's late record is refused": "B가 42와 43을 커밋한다. 42에 대한 OUT의 호출이 타임아웃되고 OUT은 클레임이 끝나도록 멈춘다. OUT2가 43을 전달하고 42를 조정한다. OUT의 늦은 기록은 거부된다",
	"region-a is authoritative again at epoch 3 after a failover and back; A, which last saw epoch 2, takes 41 and writes; B takes 42 and writes":      "region-a가 페일오버와 복귀 뒤 에포크 3으로 다시 권한을 가진다. 에포크 2를 마지막으로 본 A가 41을 받아 쓴다. B가 42를 받아 쓴다",
	"Token reuse: the same token number in two namespace epochs":                                                                                       "토큰 재사용: 두 네임스페이스 에포크의 같은 토큰 번호",
	"A takes token 1 and commits; Redis restarts and loses the counter; the operator opens epoch 3; B takes token 1 again and commits":                 "A가 토큰 1을 받아 커밋한다. Redis가 재시작하며 카운터를 잃는다. 운영자가 에포크 3을 연다. B가 다시 토큰 1을 받아 커밋한다",
	"A takes 41 and pauses; B takes 42 and commits; Redis restarts without persistence; C wants to commit 43; A resumes":                               "A가 41을 받고 멈춘다. B가 42를 받고 커밋한다. Redis가 영속성 없이 재시작한다. C가 43을 커밋하려 한다. A가 다시 움직인다",
	"Cross-job collision: two jobs, one resource":                                                                                                      "잡 간 충돌: 두 잡, 하나의 리소스",
	"jobs daily-summary (+10) and backfill-summary (+20) change the same resource":                                                                     "잡 daily-summary(+10)와 backfill-summary(+20)가 같은 리소스를 바꾼다",
	"Dynamic tenant: the tenant moves while its job runs":                                                                                              "동적 테넌트: 잡이 도는 동안 테넌트가 옮겨진다",
	"triggered at membership revision 7; the operator removes the tenant (revision 8) before the write":                                                "멤버십 리비전 7에서 시작된 잡. 쓰기 전에 운영자가 테넌트를 제거한다(리비전 8)",
	"Async job acquire: two requests, one target":                                                                                                      "비동기 잡 획득: 두 요청, 하나의 대상",
	"two requests for one target both look for a running job before either creates one":                                                                "한 대상에 대한 두 요청이, 어느 쪽도 만들기 전에 둘 다 실행 중인 잡을 찾는다",
	"Terminal transition: SUCCESS after FAILED":                                                                                                        "종료 상태 전이: FAILED 뒤의 SUCCESS",
	"a status poll marks a job FAILED at its absolute 10-minute deadline; its worker then finishes":                                                    "상태 폴링이 절대 10분 마감에 잡을 FAILED로 표시한다. 그 뒤 워커가 끝난다",
	"Pointer ownership: a late worker and a newer job":                                                                                                 "포인터 소유권: 늦은 워커와 더 새로운 잡",
	"job 1 lost the running key (failed, then job 2 acquired); job 1's worker finishes late":                                                           "잡 1이 running 키를 잃었다(실패 후 잡 2가 획득). 잡 1의 워커가 늦게 끝난다",
	"Worker start failure: a RUNNING job nobody runs":                                                                                                  "워커 시작 실패: 아무도 실행하지 않는 RUNNING 잡",
	"the process dies right after writing the running key, before the worker starts":                                                                   "running 키를 쓴 직후, 워커가 시작하기 전에 프로세스가 죽는다",
	"Lease overrun: a paused worker comes back with an old token":                                                                                      "리스 초과: 멈췄던 워커가 옛 토큰을 들고 돌아온다",
	"A takes token 41, pauses (GC), its lease expires, B takes 42 and commits 42, A resumes and writes 41":                                             "A가 토큰 41을 받고 멈추고(GC), 리스가 만료되고, B가 42를 받아 42를 커밋하고, A가 다시 움직여 41을 쓴다",
	"Mixed-version rollout: an old writer after the deploy":                                                                                            "혼합 버전 롤아웃: 배포 뒤의 옛 쓰는 쪽",
	"the deploy raises checkpoint schema to 2 and minimum writer to 2; an old writer (contract 1, token 1) writes":                                     "배포가 체크포인트 스키마와 최소 쓰기 버전을 2로 올린다. 옛 쓰는 쪽(계약 1, 토큰 1)이 쓴다",
	"Non-fenceable effect: the provider applies it but times out":                                                                                      "펜싱할 수 없는 효과: 제공자가 적용하지만 타임아웃된다",
	"commit with outbox (token 42); the provider applies the effect but times out":                                                                     "아웃박스와 함께 커밋(토큰 42). 제공자가 효과를 적용하지만 타임아웃된다",
	"Region partition: a cut-off region with its own tokens":                                                                                           "리전 파티션: 자기 토큰을 가진 고립된 리전",
	"region-a epoch 3 is authoritative; a partitioned region-b worker with local token 100 writes":                                                     "region-a 에포크 3이 권한을 가진다. 분리된 region-b 워커가 로컬 토큰 100으로 쓴다",
	"Stale read: a fenced write built on an old read":                                                                                                  "낡은 읽기: 옛 읽기 위에 세운 펜싱된 쓰기",
	"A reads 0 with token 41 and pauses; B takes 42 and reads 0; both commit through the fence and A's +10 is lost — the seed's design misses it":      "A가 토큰 41로 0을 읽고 멈춘다. B가 42를 받아 0을 읽는다. 둘 다 펜스를 통과해 커밋하고 A의 +10은 사라진다 — 시드의 설계가 놓친 부분이다",

	// The actors' steps, as the workers pane names the next one.
	"GET running key":                       "running 키 GET",
	"HSET job hash":                         "잡 해시 HSET",
	"HSET status SUCCESS":                   "상태 SUCCESS로 HSET",
	"SET running key":                       "running 키 SET",
	"acquire leader lease daily-summary":    "daily-summary 리더 리스 획득",
	"acquire leader lease backfill-summary": "backfill-summary 리더 리스 획득",
	"acquire resource lease":                "리소스 리스 획득",
	"acquireJob (Lua)":                      "acquireJob (Lua)",
	"apply results":                         "결과 반영",
	"bump namespace epoch in PostgreSQL":    "PostgreSQL의 네임스페이스 에포크 올리기",
	"bump namespace epoch in Redis":         "Redis의 네임스페이스 에포크 올리기",
	"call the provider":                     "제공자 호출",
	"claim the oldest due outbox row":       "가장 오래된 아웃박스 행 클레임",
	"crash the process":                     "프로세스 중단",
	"deploy (rollout)":                      "배포 (롤아웃)",
	"find rows to reconcile":                "조정할 행 찾기",
	"mark SUCCESS (Lua)":                    "SUCCESS 표시 (Lua)",
	"partition region-b":                    "region-b 분리",
	"poll status (deadline)":                "상태 폴링 (마감)",
	"poll status (heartbeat)":               "상태 폴링 (하트비트)",
	"process items":                         "항목 처리",
	"read summary":                          "요약 읽기",
	"record the outcome":                    "결과 기록",
	"release leader lease":                  "리더 리스 반납",
	"release resource lease":                "리소스 리스 반납",
	"remove tenant-a":                       "tenant-a 제거",
	"restart Redis (no persistence)":        "Redis 재시작 (영속성 없음)",
	"retry with a new OperationId":          "새 OperationId로 재시도",
	"release the running key":               "running 키 반납",
	"DEL running key":                       "running 키 DEL",
	"write summary":                         "요약 쓰기",

	// The invariants of DESIGN §7.
	"a committed write carries a token above every token accepted before it":                                                                                                                                 "커밋된 쓰기는 그 전에 받아들여진 모든 토큰보다 큰 토큰을 가진다",
	"a write happens only under the current membership, region, version and namespace":                                                                                                                       "쓰기는 현재의 멤버십, 리전, 버전, 네임스페이스 아래에서만 일어난다",
	"a write changes its own row, checkpoint, execution and outbox together, or nothing":                                                                                                                     "쓰기는 자기 행, 체크포인트, 실행 기록, 아웃박스를 함께 바꾸거나 아무것도 바꾸지 않는다",
	"%s's row is gone: no step of this scenario is for it":                                                                                                                                                   "%s의 행이 사라졌습니다: 이 시나리오의 어떤 단계도 그 행을 대상으로 하지 않습니다",
	"%s's row changed (summary %d → %d, fence %s → %s), and no step of this scenario is for it: a write changed a row it was not for":                                                                        "%s의 행이 바뀌었습니다 (요약 %d → %d, 펜스 %s → %s). 이 시나리오의 어떤 단계도 그 행을 대상으로 하지 않습니다: 쓰기가 자기 대상이 아닌 행을 바꿨습니다",
	"an OperationId is applied at most once, its outbox row is claimed by one worker at a time, and its final answer is on record":                                                                           "하나의 OperationId는 최대 한 번만 적용되고, 그 아웃박스 행은 한 번에 한 워커만 클레임하며, 그 최종 응답은 기록에 남는다",
	"a terminal job state (SUCCESS, FAILED) never changes":                                                                                                                                                   "잡의 종료 상태(SUCCESS, FAILED)는 절대 바뀌지 않는다",
	"every job hash is reachable from its running key while RUNNING; one running job per target; the job an acquire names is the one running, and a job becomes SUCCESS only while its running key names it": "RUNNING인 잡 해시는 모두 running 키로 찾을 수 있다. 대상마다 실행 중인 잡은 하나다. 획득이 알려 준 잡은 실행 중인 그 잡이고, 잡은 running 키가 자기를 가리킬 때만 SUCCESS가 된다",
	"%s became SUCCESS though its running key named %s":                                                                                                                                                      "%s이(가) SUCCESS가 되었지만 그 running 키는 %s을(를) 가리키고 있었습니다",
	"every committed read-modify-write was computed from the value current at its commit":                                                                                                                    "커밋된 읽기-수정-쓰기는 모두 커밋 시점의 현재 값으로 계산되었다",

	// The explorer's status lines and pane titles.
	"there is no actor %d here": "여기에는 액터 %d이(가) 없습니다",
	"UNSAFE writes naive code paths into --pg's server; start fencelab with --allow-unsafe to allow it": "UNSAFE는 --pg 서버에 순진한 코드 경로로 씁니다. 허용하려면 fencelab을 --allow-unsafe로 시작하세요",
	"autoplay stopped": "자동 재생 멈춤",
	"autoplay: a guided step every %s — a stops, < > change the pace": "자동 재생: %s마다 안내 순서 한 단계 — a로 멈춤, < >로 속도 조절",
	"autoplay pace: a guided step every %s":                           "자동 재생 속도: %s마다 안내 순서 한 단계",
	"could not open the lab: %s":                                      "랩을 열 수 없습니다: %s",
	"autoplay stopped: that step left the guided order":               "자동 재생 멈춤: 그 단계가 안내 순서를 벗어났습니다",
	" · all %d lines":                                                 " · 전체 %d행",
	" · line %d of %d · ↑/↓":                                          " · %d행 / %d · ↑/↓",
	" · lines %d–%d of %d · ↑/↓":                                      " · %d–%d행 / %d · ↑/↓",
	" · f next · esc":                                                 " · f 다음 · esc",
	" · scrolled up %d (↓ to follow)":                                 " · %d개 위로 (↓ 최신으로)",
	"+%d line (f)":                                                    "+%d행 (f)",
	"+%d lines (f)":                                                   "+%d행 (f)",
	"+%d earlier row (f)":                                             "+앞의 %d행 (f)",
	"+%d earlier rows (f)":                                            "+앞의 %d행 (f)",
	"%d event":                                                        "사건 %d개",
	"%d events":                                                       "사건 %d개",
	"  +%d more":                                                      "  +%d개 더",
	"  … %d more":                                                     "  … %d개 더",

	"r starts it again, u takes back your last action": "r로 처음부터, u로 마지막 동작 되돌리기",
	"guard  not evaluated yet":                         "가드  아직 평가되지 않음",
	"%s: nothing applied":                              "%s: 적용된 것 없음",
	"none":                                             "없음",
	"step %s":                                          "%s 진행",
	"pause %s":                                         "%s 멈춤",
	"resume %s":                                        "%s 재개",
	"advance clock %s":                                 "시계 %s 진행",
	"advance clock to the next lease expiry":           "다음 리스 만료까지 시계 진행",
	"nothing has happened yet — press n to take the first guided step":             "아직 아무 일도 없습니다 — n으로 안내 순서의 첫 단계를 진행하세요",
	"the guided order is over — r reset · m mode · s scenario · 1–9 step · ? help": "안내 순서가 끝났습니다 — r 처음부터 · m 모드 · s 시나리오 · 1–9 진행 · ? 도움말",
	"backend error, the step did not complete: %s":                                 "백엔드 오류, 단계가 끝나지 않았습니다: %s",

	// A PostgreSQL connection of the lab lost, and made again.
	"PostgreSQL connection lost; the next key reconnects: %s":                                                      "PostgreSQL 연결이 끊겼습니다. 다음 키에서 다시 연결합니다: %s",
	"PostgreSQL connection lost: reconnected; the step was not taken — the lab is as it was after its last action": "PostgreSQL 연결이 끊겨 다시 연결했습니다. 단계는 진행하지 않았습니다 — 랩은 마지막 동작 직후 그대로입니다",

	// The explorer's keys and help.
	"next guided step (PgDn too)": "안내 순서의 다음 단계 (PgDn도)",
	"select actor":                "액터 선택",
	"pause/resume selected":       "선택한 액터 멈춤/재개",
	"clock to next expiry":        "다음 만료까지 시계 진행",
	"clock +1s":                   "시계 +1초",
	"SAFE/UNSAFE":                 "SAFE/UNSAFE",
	"scenarios":                   "시나리오",
	"reset":                       "처음부터",
	"undo":                        "되돌리기",
	"write the run as a trace":    "실행을 트레이스로 저장",
	"scroll the focused pane (timeline: by entries, PgUp 5)": "포커스된 창 스크롤 (타임라인: 항목 단위, PgUp 5)",
	"focus the next pane, whole / the timeline":              "다음 창에 포커스(전체 보기) / 타임라인으로",
	"open the timeline's last shown entry whole":             "타임라인의 마지막 항목을 전체로 열기",
	"back/forward through recorded steps":                    "기록된 단계 뒤로/앞으로",
	"autoplay the guided order on/off":                       "안내 순서 자동 재생 켜기/끄기",
	"autoplay slower/faster":                                 "자동 재생 느리게/빠르게",
	"quit":                                                   "끝내기",
	"fencelab keys":                                          "fencelab 키",
	"Invariants checked after every step:":                   "매 단계 뒤에 검사하는 불변식:",
	"SAFE's guards (g takes one out):":                       "SAFE의 가드 (g로 하나를 뺍니다):",
	"a file's SQL names its parameters ($token, $read): $1, $2 … have no value here": "파일의 SQL은 매개변수를 이름으로 씁니다 ($token, $read): $1, $2 …에는 여기서 값이 없습니다",
	"%s (taken out)": "%s (뺌)",
	"step %s has {{%s}}, which its guards do not define (did you mean {{%s}}?)": "스텝 %s에 {{%s}}가 있지만 그 가드에는 정의되어 있지 않습니다 ({{%s}}를 뜻했나요?)",
	"--without %s: %s has no guards (its steps define none)":                    "--without %s: %s에는 가드가 없습니다 (스텝이 정의한 것이 없습니다)",
	"--without: %s has no guard %q (did you mean %s?); its guards: %s":          "--without: %s에는 %q 가드가 없습니다 (%s를 뜻했나요?). 그 파일의 가드: %s",
	"--without: %s has no guard %q; its guards: %s":                             "--without: %s에는 %q 가드가 없습니다. 그 파일의 가드: %s",
	"  NOT as its file predicts: the guided order ended %s, predicted %s\n":     "  파일의 예측과 다릅니다: 안내된 순서는 %s로 끝났고, 예측은 %s입니다\n",
	"  — NOT as %s (%s)\n": "  — %s와 다릅니다 (%s)\n",
	"  — SAFE's promise kept without %s: every invariant held, every actor finished\n": "  — %s 없이도 SAFE의 약속이 지켜졌습니다: 모든 불변식이 유지되고, 모든 액터가 끝났습니다\n",
	"fence %s": "펜스 %s",
	"final %d": "최종 %d",
	"the guided order ended %s, predicted %s": "안내된 순서는 %s로 끝났고, 예측은 %s",
	"guard %q: a guard's name is text a reader sees as it is: no control character, invisible or direction mark": "가드 %q: 가드 이름은 보이는 그대로의 글자여야 합니다: 제어 문자, 보이지 않는 문자, 방향 표시는 쓸 수 없습니다",
	"DEADLOCK": "교착",
	"%s and %s wait for each other's locks, a deadlock: PostgreSQL fails one of the two statements":                                   "%s와 %s가 서로의 잠금을 기다립니다. 교착 상태입니다: PostgreSQL이 두 문장 중 하나를 실패시킵니다",
	"%s %w: %s's statement waits for one of %s's, a deadlock (PostgreSQL fails one of the two statements after its deadlock_timeout)": "%s %w: %s의 문장이 %s의 잠금을 기다립니다. 교착 상태입니다 (PostgreSQL이 deadlock_timeout 뒤에 두 문장 중 하나를 실패시킵니다)",
	"none: the file names no invariant": "없음: 파일이 불변식을 정하지 않았습니다",
	"  progress: %s of %s complete schedules ended with every value as expected; %s ended with an actor left waiting; the guided order %s\n": "  진행: 완결된 스케줄 %[2]s개 중 %[1]s개가 모든 값을 기대대로 끝냈고, %[3]s개는 기다리는 액터를 남긴 채 끝났습니다. 안내된 순서는 %[4]s\n",
	"%s · verdict %s":          "%s · 판정 %s",
	"%sexpected %d · final %d": "%s기대값 %d · 최종 %d",
	"\n**verdict %s**\n\n":     "\n**판정 %s**\n\n",
	"expected as a list names 2 to 8 values, each { name = \"…\", value = 2, sql = \"SELECT …\" }": "목록인 expected는 값을 2개에서 8개까지 정합니다. 각각 { name = \"…\", value = 2, sql = \"SELECT …\" }",
	"left %d values short of what they should be (%s)":                                             "값 %d개가 기대에 못 미친 채 끝났습니다 (%s)",
	"result  %s · verdict %s":  "결과  %s · 판정 %s",
	"result · %s · verdict %s": "결과 · %s · 판정 %s",
	"the file names several expected values, each with what it should be: a prediction names its verdict, not a final": "파일이 기대값을 여러 개 정했으므로, 예측은 final이 아니라 판정을 씁니다",
	"two of expected's values are named %s: name each its own way":                                                     "expected의 두 값이 모두 %s라는 이름입니다: 각각 다른 이름을 주세요",
	"value name %q: at most 40 characters on one line, no blank at either end":                                         "값 이름 %q: 한 줄에 최대 40자, 양 끝에 공백 없이",
	"verdict %s · %s": "판정 %s · %s",
	"| value | expected | final |\n|---|---:|---:|\n": "| 값 | 기대값 | 최종 |\n|---|---:|---:|\n",
	"the script did not end within %s; the server now runs another client's script, which fencelab leaves alone (fencelab's has ended, or waits behind it)":                                       "스크립트가 %s 안에 끝나지 않았습니다. 서버는 지금 다른 클라이언트의 스크립트를 실행 중이며, fencelab은 그것을 건드리지 않습니다 (fencelab의 스크립트는 끝났거나 그 뒤에서 기다립니다)",
	"the file's tables, read after every action, could not be read within fencelab's limits (%s): too many rows, or a lock of the file's that keeps readers out (LOCK TABLE … ACCESS EXCLUSIVE?)": "매 동작 뒤에 읽는 파일의 테이블을 fencelab의 한도 안에서 읽지 못했습니다 (%s): 행이 너무 많거나, 파일의 잠금이 읽기를 막고 있습니다 (LOCK TABLE … ACCESS EXCLUSIVE?)",
	"… (cut: %d bytes in all)":                         "… (잘림: 전체 %d바이트)",
	"left %d actors short of their programs' end (%s)": "액터 %d개가 프로그램을 끝내지 못한 채 끝났습니다 (%s)",
	"  progress: %s of %s complete schedules ended with every actor's program done; %s ended with an actor left waiting; the guided order %s\n": "  진행: 완결된 스케줄 %[2]s개 중 %[1]s개가 모든 액터의 프로그램을 끝냈고, %[3]s개는 기다리는 액터를 남긴 채 끝났습니다. 안내된 순서는 %[4]s\n",
	"verdict %s":           "판정 %s",
	"| verdict |\n|---|\n": "| 판정 |\n|---|\n",
	"result · verdict %s":  "결과 · 판정 %s",
	"the file names no expected value, so a run has no final one to predict: leave final out, or give expected": "파일이 expected 값을 정하지 않았으므로 예측할 최종 값이 없습니다: final을 빼거나 expected를 주세요",
	"result  verdict %s": "결과  판정 %s",
	"any key to go back": "아무 키나 누르면 돌아갑니다",
	"the server's reply passed 64 MiB, more than fencelab reads of one reply (a result, key or row that large?)":                                                                                                                                  "서버의 응답이 64 MiB를 넘었습니다. fencelab은 응답 하나를 그 이상 읽지 않습니다 (그만큼 큰 결과, 키, 행?)",
	"the script did not end within %s, and the embedded Redis cannot stop a script: the run ends here":                                                                                                                                            "스크립트가 %s 안에 끝나지 않았고, 내장 Redis는 스크립트를 멈출 수 없습니다: 실행을 여기서 끝냅니다",
	"the script did not end within %s; until it does, the server serves no client: `redis-cli SCRIPT KILL` stops a script that has not written (fencelab may not load functions there, so it cannot prove the script is its own, and kills none)": "스크립트가 %s 안에 끝나지 않았습니다. 끝날 때까지 서버는 어떤 클라이언트에도 응답하지 않습니다: 아직 쓰지 않은 스크립트는 `redis-cli SCRIPT KILL`로 멈출 수 있습니다 (그 서버에서 fencelab은 함수를 올릴 수 없어 스크립트가 자기 것임을 증명할 수 없으므로, 아무것도 멈추지 않습니다)",
	"the script did not end within %s: fencelab stopped it with FUNCTION KILL (the server named this call as the script it ran)":                                                                                                                  "스크립트가 %s 안에 끝나지 않았습니다: fencelab이 FUNCTION KILL로 멈췄습니다 (서버가 실행 중인 스크립트로 이 호출을 가리켰습니다)",
	"the script did not end within %s (it has ended since)":                                                                                                                                                                                       "스크립트가 %s 안에 끝나지 않았습니다 (그 뒤에 끝났습니다)",
	"the script did not end within %s, and it has written, so Redis will not stop it: until it ends the server serves no client (SHUTDOWN NOSAVE would end it, which fencelab leaves to you)":                                                     "스크립트가 %s 안에 끝나지 않았고 이미 썼기 때문에 Redis가 멈추지 않습니다: 끝날 때까지 서버는 어떤 클라이언트에도 응답하지 않습니다 (SHUTDOWN NOSAVE로 끝낼 수 있지만, 그 판단은 당신에게 맡깁니다)",
	"the script did not end within %s, and the server answered nothing while it ran (one long call of Lua's, a pattern match?): until it ends the server serves no client, and fencelab killed nothing":                                           "스크립트가 %s 안에 끝나지 않았고, 실행 중에 서버가 아무 응답도 하지 않았습니다 (Lua의 긴 호출 하나, 패턴 매칭?): 끝날 때까지 서버는 어떤 클라이언트에도 응답하지 않으며, fencelab은 아무것도 멈추지 않았습니다",
	"a file's SQL may not use %s: it reaches past the file's schema":                                                                                                                                                                              "파일의 SQL은 %s를 쓸 수 없습니다: 파일의 스키마 밖에 닿습니다",
	"a file's SQL may not create a function or procedure: its body is a string, which fencelab cannot hold to these rules (write its statements in the steps)":                                                                                    "파일의 SQL은 함수나 프로시저를 만들 수 없습니다: 그 본문은 문자열이라 fencelab이 이 규칙으로 붙들 수 없습니다 (그 문장들은 스텝에 쓰세요)",
	"race on %s: the GET -> SET line is the naive path (UNSAFE), whose duplicates are the point; the invariants are the SAFE paths' (Lua acquire, terminal transition, pointer ownership)":                                                        "%s에서 race: GET -> SET 줄은 단순한 경로(UNSAFE)로, 그 중복이 요점입니다; 불변식은 SAFE 경로들의 것입니다 (Lua acquire, terminal transition, pointer ownership)",
	"▶ trace %s": "▶ 트레이스 %s",
	"%s of %s":   "%s / %s",
	"before: %s": "이전: %s",
	"a file's SQL may not use U& escapes: write names as they are": "파일의 SQL은 U& 이스케이프를 쓸 수 없습니다: 이름은 그대로 쓰세요",
	"unknown command or scenario %q (did you mean %s?)":            "알 수 없는 명령이나 시나리오 %q (%s 말인가요?)",
	"undone: back to after action %d":                              "되돌림: 동작 %d 뒤로 돌아왔습니다",
	"every message so far, whole":                                  "지금까지의 메시지 전부, 잘리지 않게",
	"no message yet":                                               "아직 메시지가 없습니다",
	"messages":                                                     "메시지",
	"the status line's, oldest first":                              "상태 줄에 나온 것, 오래된 것부터",
	"L shows it whole":                                             "L로 전부 보기",
	"lines %d–%d of %d · ↑/↓ scroll · any other key goes back":     "%d–%d행 / %d · ↑/↓ 스크롤 · 다른 키는 돌아가기",

	// Talks.
	"on":                                "다음",
	"back":                              "뒤로",
	"blank":                             "화면 가리기",
	"talk · scene %d/%d · action %d/%d": "발표 · 장면 %d/%d · 동작 %d/%d",
	"space/→ on · ← back · b blank":     "space/→ 다음 · ← 뒤로 · b 화면 가리기",
	"turn to the room":                  "청중에게 질문",
	"space goes on · ← back":            "space로 계속 · ← 뒤로",
	"end of scene %d/%d — space goes on to %s (%s)":                  "장면 %d/%d 끝 — space: 다음 장면 %s (%s)",
	"end of the last scene — the talk is over; ← goes back, q quits": "마지막 장면 끝 — 발표가 끝났습니다. ←로 뒤로, q로 끝내기",
	"the end of the talk — ← goes back, q quits":                     "발표 끝 — ←로 뒤로, q로 끝내기",
	"scene %d/%d: %s in %s mode — space starts it":                   "장면 %d/%d: %s, %s 모드 — space로 시작",

	// export: the Markdown page.
	"Recorded by `fencelab export` on %s and %s; every value below was read from them.\n\n": "`fencelab export`가 %s과(와) %s에서 기록했습니다. 아래의 모든 값은 그곳에서 읽은 것입니다.\n\n",
	"## Timeline\n\n": "## 타임라인\n\n",
	"| Step | # | At | Actor | Layer | Code | State | What happened | Narration | Guard |\n": "| 단계 | # | 시각 | 액터 | 계층 | 코드 | 상태 | 일어난 일 | 설명 | 가드 |\n",
	"| %s | | | | | | | (nothing happened) | | |\n":                                          "| %s | | | | | | | (아무 일도 없음) | | |\n",
	"\n## Result\n\n": "\n## 결과\n\n",
	"| expected (%s) | final | verdict |\n|---:|---:|---|\n":                            "| 기대값 (%s) | 최종 | 판정 |\n|---:|---:|---|\n",
	"| expected (%s) | final | last accepted fence | verdict |\n|---:|---:|---:|---|\n": "| 기대값 (%s) | 최종 | 마지막으로 받아들인 펜스 | 판정 |\n|---:|---:|---:|---|\n",
	"## Invariants\n\n":                                                  "## 불변식\n\n",
	"%d. ✗ **broken at #%d** — %s: %s\n":                                 "%d. ✗ **#%d에서 깨짐** — %s: %s\n",
	"%d. ✓ held — %s\n":                                                  "%d. ✓ 지켜짐 — %s\n",
	"\n## Run it yourself\n\n```sh\n":                                    "\n## 직접 실행하기\n\n```sh\n",
	"fencelab run %s --mode %s   # headless: this timeline and result\n": "fencelab run %s --mode %s   # 화면 없이: 이 타임라인과 결과\n",
	"fencelab --mode %s                 # the explorer; s picks %s, n steps the guided order\n": "fencelab --mode %s                 # 탐색기. s로 %s 선택, n으로 안내 순서 진행\n",
	"fencelab replay %s   # headless: runs it again and compares\n":                             "fencelab replay %s   # 화면 없이: 다시 실행해 비교\n",
	"fencelab --trace %s  # the explorer; n steps this schedule\n":                              "fencelab --trace %s  # 탐색기. n으로 이 스케줄 진행\n",

	"value": "값",
	"# in the explorer, w writes this run as a trace; then:\n":              "# 탐색기에서 w로 이 실행을 트레이스로 저장한 뒤:\n",
	"fencelab replay TRACE.json   # headless: runs it again and compares\n": "fencelab replay TRACE.json   # 화면 없이: 다시 실행해 비교\n",

	// run and replay.
	"result  %sexpected %d · final %d · last accepted fence %s · verdict %s": "결과  %s기대값 %d · 최종 %d · 마지막으로 받아들인 펜스 %s · 판정 %s",
	"  — as %s\n": "  — %s 그대로\n",
	"broken  invariant %d at step %d: %s (%s)\n": "깨짐  불변식 %d, 단계 %d: %s (%s)\n",
	"the catalog predicts":                       "카탈로그의 예측",
	"the trace recorded":                         "트레이스의 기록",

	// The explorer.
	"fencelab needs at least %d×%d;":                      "fencelab은(는) 최소 %d×%d이(가) 필요합니다.",
	"this terminal is %d×%d.":                             "이 터미널은 %d×%d입니다.",
	"Enlarge it, or q to quit.":                           "창을 키우거나, q로 끝내세요.",
	"fencelab could not start its backends:":              "fencelab이 백엔드를 시작하지 못했습니다:",
	"q to quit":                                           "q: 끝내기",
	"opening %s…":                                         "%s 여는 중…",
	"clock %s":                                            "시계 %s",
	"guided %d/%d":                                        "안내 순서 %d/%d",
	"free · guided order left at %d/%d":                   "자유 진행 · 안내 순서를 %d/%d에서 벗어남",
	"▶ autoplay %s · ":                                    "▶ 자동 재생 %s · ",
	"◀ recorded after action %d of %d":                    "◀ 동작 %d/%d 뒤의 기록",
	"◀ the seeded state, before action 1 of %d":           "◀ 초기 상태, 동작 1/%d 전",
	"this is the first recorded state: nothing before it": "처음 기록된 상태입니다. 그 앞은 없습니다",
	"this is the live state: → goes no further":           "지금의 실제 상태입니다. →로 더 갈 곳이 없습니다",
	"invariants":                                          "불변식",
	"%s ✗ at #%d":                                         "%s ✗ #%d에서",
	"%s: warning: guard %s is the file's own, not fencelab's %s (a typo? fencelab's names mean fencelab's guards)": "%s: 경고: 가드 %s는 fencelab의 %s가 아니라 파일 자신의 가드입니다 (오타인가요? fencelab의 이름은 fencelab의 가드를 뜻합니다)",
	"Timeline":          "타임라인",
	"%s: f shows":       "%s: f로 보기",
	"ready":             "준비",
	"done":              "끝남",
	"waits":             "기다림",
	"next:":             "다음:",
	"believes:":         "믿음:",
	"saved:":            "저장:",
	"stale belief:":     "낡은 믿음:",
	"truth:":            "사실:",
	"%s holds %d":       "%s이(가) %d 보유",
	"Workers":           "워커",
	"Outbox & provider": "아웃박스와 제공자",
	"no lab keys":       "랩 키 없음",
	"no executions yet": "아직 실행 기록 없음",
	"no outbox rows":    "아웃박스 행 없음",
	"Press n to follow the seed's timeline, or step the actors yourself with 1–9.": "n으로 시드의 타임라인을 따라가거나, 1–9로 직접 액터를 진행하세요.",
	"pending":             "진행 중",
	"last accepted fence": "마지막으로 받아들인 펜스",
	"fence":               "펜스",
	"result  %sexpected %d · final %d%s · verdict %s":                               "결과  %s기대값 %d · 최종 %d%s · 판정 %s",
	"verdict %s · %sexpected %d · final %d%s":                                       "판정 %s · %s기대값 %d · 최종 %d%s",
	"guided order complete — r reset · m other mode · s another scenario":           "안내 순서 끝 — r 처음부터 · m 다른 모드 · s 다른 시나리오",
	"%s in %s mode, from its seeded state":                                          "%s, %s 모드, 초기 상태에서",
	"export as: m Markdown · d Mermaid · c cast · t VHS tape · g GIF · v SVG · esc": "내보내기: m Markdown · d Mermaid · c 캐스트 · t VHS 테이프 · g GIF · v SVG · esc",
	"trace written: %s": "트레이스 저장: %s",
	"%s written: %s":    "%s 저장: %s",
	"export cancelled":  "내보내기 취소",
	"help":              "도움말",
	"working…":          "처리 중…",

	// Workers, leases and the fenced write.
	"%s must wait: %s already leads %s.": "%s은(는) 기다려야 합니다. %s이(가) 이미 %s을(를) 이끌고 있습니다.",
	"%s now leads %s: the leader lease says who runs the job, but not in what order writers come.":                                                                                   "이제 %s이(가) %s을(를) 이끕니다. 리더 리스는 누가 잡을 실행하는지는 말해주지만, 쓰는 쪽이 어떤 순서로 오는지는 말해주지 않습니다.",
	"%s is done with %s and gives up leading it.":                                                                                                                                    "%s이(가) %s을(를) 마치고 리더 자리를 내려놓습니다.",
	"%s finds it no longer led %s: the lease ran out while it worked.":                                                                                                               "%s은(는) 더 이상 %s을(를) 이끌고 있지 않았음을 알게 됩니다. 일하는 동안 리스가 끝났습니다.",
	"The namespace moved on: %s adopts epoch %d, a token space that starts over, so its tokens cannot be confused with old ones.":                                                    "네임스페이스가 넘어갔습니다. %s은(는) 에포크 %d을(를) 받아들입니다. 처음부터 다시 시작하는 토큰 공간이므로, 그 토큰은 옛 토큰과 헷갈릴 수 없습니다.",
	"Redis lost its fencing history, so the script refuses to hand out tokens from zero again: an operator must start a new namespace epoch.":                                        "Redis가 펜싱 이력을 잃었으므로, 스크립트는 0부터 다시 토큰을 나눠주기를 거부합니다. 운영자가 새 네임스페이스 에포크를 시작해야 합니다.",
	"%s has to wait: the lease is on the resource itself, so any job that touches this summary takes its turn.":                                                                      "%s은(는) 기다려야 합니다. 리스가 리소스 자체에 걸려 있으므로, 이 요약을 건드리는 잡은 모두 차례를 기다립니다.",
	"Redis hands %s fencing token %d under namespace epoch %d: a token space that started over, which PostgreSQL orders after every token of epoch %d.":                              "Redis가 %s에게 네임스페이스 에포크 %[3]d의 펜싱 토큰 %[2]d을(를) 줍니다. 처음부터 다시 시작한 토큰 공간이고, PostgreSQL은 이것을 에포크 %[4]d의 모든 토큰 뒤에 둡니다.",
	"Redis hands %s fencing token %d, smaller than the tokens it handed out before (they were past %d): the restart lost the counter, and with it the order fencing tokens promise.": "Redis가 %s에게 펜싱 토큰 %d을(를) 줍니다. 전에 나눠준 토큰(%d을(를) 넘었던)보다 작습니다. 재시작으로 카운터를 잃었고, 그와 함께 펜싱 토큰이 약속하던 순서도 잃었습니다.",
	"Redis hands %s fencing token %d: every new holder gets a bigger number than the one before.":                                                                                    "Redis가 %s에게 펜싱 토큰 %d을(를) 줍니다. 새로 리스를 가진 쪽은 언제나 이전보다 큰 번호를 받습니다.",
	"%s lets the resource go; the counter keeps its value, so the next holder's token is bigger still.":                                                                              "%s이(가) 리소스를 놓아줍니다. 카운터는 값을 유지하므로 다음에 가질 쪽의 토큰은 더 큽니다.",
	"%s goes to release a lease that is no longer its own; the script leaves the other holder's lease alone.":                                                                        "%s이(가) 더 이상 자기 것이 아닌 리스를 놓으려 합니다. 스크립트는 다른 쪽의 리스를 건드리지 않습니다.",
	"%s's token belongs to an old namespace epoch, so there is nothing of its own left to release.":                                                                                  "%s의 토큰은 옛 네임스페이스 에포크에 속하므로, 놓아줄 자기 것이 남아 있지 않습니다.",
	"%s reads %d and will add to it; whatever it writes later is built on this read.":                                                                                                "%s이(가) %d을(를) 읽고 거기에 더할 것입니다. 나중에 무엇을 쓰든 이 읽기 위에 세워집니다.",
	"%s's UPDATE goes through unconditionally: nothing re-checks its token, tenant, region, version or namespace.":                                                                   "%s의 UPDATE가 무조건 통과합니다. 토큰도, 테넌트도, 리전도, 버전도, 네임스페이스도 다시 검사하지 않습니다.",
	"%s read %d earlier, but under the row lock the summary is %d: it adds %d to that, so no update is lost (%s).":                                                                   "%s은(는) 앞서 %d을(를) 읽었지만, 행 잠금 아래에서 요약은 %d입니다. 거기에 %d을(를) 더하므로 잃어버리는 갱신은 없습니다(%s).",
	"PostgreSQL accepts %s (%s); it added %d to the %d it found under the row lock.":                                                                                                 "PostgreSQL이 %s을(를) 받아들입니다(%s). 행 잠금 아래에서 찾은 %[4]d에 %[3]d을(를) 더했습니다.",
	"PostgreSQL accepts %s: %s. The fence orders writes, not reads: %d was computed from the %d it read before.":                                                                     "PostgreSQL이 %s을(를) 받아들입니다: %s. 펜스는 쓰기의 순서를 정할 뿐 읽기의 순서는 정하지 않습니다. %d은(는) 전에 읽은 %d에서 계산되었습니다.",
	"PostgreSQL accepts %s: %s, so this is the newest writer it has seen.":                                                                                                           "PostgreSQL이 %s을(를) 받아들입니다: %s. 지금까지 본 가장 새로운 쓰는 쪽이기 때문입니다.",
	"PostgreSQL refuses %s (%s): the check in the same transaction as the write is what stops a stale worker.":                                                                       "PostgreSQL이 %s을(를) 거절합니다(%s). 오래된 워커를 막는 것은 쓰기와 같은 트랜잭션 안의 검사입니다.",

	// The operator.
	"The operator moves %s away while a job for it is under way; the job still carries revision %d.":                                        "운영자가 %s을(를) 옮깁니다. 그 테넌트의 잡은 아직 진행 중이고, 여전히 리비전 %d을(를) 들고 있습니다.",
	"A partition: region-b goes on alone and hands out its own, bigger tokens — a big token from the wrong region is still wrong.":          "파티션: region-b가 혼자 계속하며 자기만의 더 큰 토큰을 나눠줍니다 — 잘못된 리전의 큰 토큰은 여전히 잘못된 것입니다.",
	"The deploy changes the checkpoint format; a writer still running the old version does not know.":                                       "배포가 체크포인트 형식을 바꿉니다. 옛 버전으로 돌고 있는 쓰는 쪽은 그것을 모릅니다.",
	"Redis comes back empty: the counter that made every token bigger than the last is gone.":                                               "Redis가 빈 채로 돌아옵니다. 모든 토큰을 이전보다 크게 만들던 카운터가 사라졌습니다.",
	"Rather than guess the lost counter, the operator opens namespace epoch %d: tokens start over, and (epoch, token) is what is compared.": "잃어버린 카운터를 짐작하는 대신, 운영자가 네임스페이스 에포크 %d을(를) 엽니다. 토큰은 처음부터 다시 시작하고, 비교되는 것은 (에포크, 토큰)입니다.",
	"PostgreSQL follows: from now on a write must carry epoch %d, whatever its token.":                                                      "PostgreSQL도 따라갑니다. 이제부터 쓰기는 토큰이 무엇이든 에포크 %d을(를) 가져야 합니다.",

	// The outbox and the provider.
	"The claim is committed before the provider is called: no transaction stays open across a network call.":                 "제공자를 호출하기 전에 클레임을 커밋합니다. 네트워크 호출 동안 열려 있는 트랜잭션은 없습니다.",
	"The provider timed out: the effect may or may not have happened. Guessing either way is the bug.":                       "제공자가 타임아웃되었습니다. 효과는 일어났을 수도, 아닐 수도 있습니다. 어느 쪽으로든 짐작하는 것이 버그입니다.",
	"The row is marked for reconciliation: someone must ask the provider what became of %s.":                                 "행이 조정 대상으로 표시됩니다. 누군가 제공자에게 %s이(가) 어떻게 되었는지 물어야 합니다.",
	"The outbox says CONFIRMED, and it is — twice over: the provider's ledger shows the same effect under two OperationIds.": "아웃박스는 CONFIRMED라고 말하고, 실제로도 그렇습니다 — 두 번이나. 제공자의 원장에는 같은 효과가 두 OperationId로 올라 있습니다.",
	"Recorded %s with its receipt: the effect happened once, and the outbox knows it.":                                       "영수증과 함께 %s을(를) 기록했습니다. 효과는 한 번 일어났고, 아웃박스가 그것을 압니다.",
	"The reconciler claims %s: before anything is sent again, it asks the provider what became of it.":                       "조정자가 %s을(를) 클레임합니다. 무엇이든 다시 보내기 전에, 그것이 어떻게 되었는지 제공자에게 묻습니다.",
	"Instead of sending it again, the worker asks about the original OperationId: the provider did apply it, once.":          "다시 보내는 대신, 워커는 원래 OperationId에 대해 묻습니다. 제공자는 그것을 한 번 적용했습니다.",
	"A new OperationId looks like a new payment to the provider: the effect is applied a second time.":                       "새 OperationId는 제공자에게 새 결제처럼 보입니다. 효과가 두 번째로 적용됩니다.",

	// The async jobs of the second seed.
	"One script looked for the running job and would have created it in the same step, so the second request can only find the first one's job.":           "하나의 스크립트가 실행 중인 잡을 찾고 같은 단계에서 만들었을 것이므로, 두 번째 요청은 첫 번째 요청의 잡만 찾을 수 있습니다.",
	"%s creates %s and points the running key at it in one script: no other request can slip in between.":                                                  "%s이(가) 하나의 스크립트로 %s을(를) 만들고 running 키가 그것을 가리키게 합니다. 그 사이에 다른 요청이 끼어들 수 없습니다.",
	"%s finds %s running and hands it back instead of starting another — even if nobody is working on it.":                                                 "%s은(는) %s이(가) 실행 중인 것을 보고, 다른 잡을 시작하는 대신 그것을 돌려줍니다 — 아무도 그 일을 하고 있지 않더라도.",
	"%s saw no running job. Nothing stops another request from seeing the same before either writes.":                                                      "%s은(는) 실행 중인 잡을 보지 못했습니다. 둘 중 누가 쓰기 전에 다른 요청이 같은 것을 보는 것을 막을 방법이 없습니다.",
	"%s writes %s as RUNNING, but the running key does not point at it yet: for a moment nobody can find it.":                                              "%s이(가) %s을(를) RUNNING으로 쓰지만, running 키는 아직 그것을 가리키지 않습니다. 잠시 동안 아무도 그것을 찾을 수 없습니다.",
	"%s points the running key at %s — whatever it pointed at before is now unreachable.":                                                                  "%s이(가) running 키가 %s을(를) 가리키게 합니다 — 전에 가리키던 것은 이제 찾을 수 없습니다.",
	"%s has nothing to do: %s reused a job that was already running.":                                                                                      "%s은(는) 할 일이 없습니다. %s이(가) 이미 실행 중인 잡을 재사용했습니다.",
	"%s waits: %s has not started a job yet.":                                                                                                              "%s은(는) 기다립니다. %s이(가) 아직 잡을 시작하지 않았습니다.",
	"%s's job expired from Redis before it began, so it stops.":                                                                                            "%s의 잡이 시작하기도 전에 Redis에서 만료되었으므로, 멈춥니다.",
	"%s does the work of %s and leaves its results in Redis, beating its heartbeat as it goes.":                                                            "%s이(가) %s의 일을 하고 결과를 Redis에 남깁니다. 하는 동안 하트비트를 보냅니다.",
	"%s expired from Redis before its worker finished, so there is nothing left to mark.":                                                                  "%s은(는) 워커가 끝내기 전에 Redis에서 만료되었으므로, 표시할 것이 남아 있지 않습니다.",
	"%s finishes: the script marks it SUCCESS and releases the running key in the same step.":                                                              "%s이(가) 끝납니다. 스크립트가 같은 단계에서 SUCCESS로 표시하고 running 키를 놓아줍니다.",
	"%s lost its running key to a newer job, so the script refuses its SUCCESS: the apply step will never publish a run that lost ownership.":              "%s은(는) 더 새로운 잡에게 running 키를 잃었으므로, 스크립트가 그 SUCCESS를 거절합니다. 반영 단계는 소유권을 잃은 실행을 절대 게시하지 않습니다.",
	"%s already ended as %s; a terminal state never changes, however late the worker finishes.":                                                            "%s은(는) 이미 %s(으)로 끝났습니다. 워커가 아무리 늦게 끝나도 종료 상태는 바뀌지 않습니다.",
	"The plain HSET turns a FAILED job into SUCCESS: RUNNING → FAILED → SUCCESS, and the apply API now believes it.":                                       "단순한 HSET이 FAILED 잡을 SUCCESS로 바꿉니다: RUNNING → FAILED → SUCCESS. 그리고 반영 API는 이제 그것을 믿습니다.",
	"The running key is deleted, though nothing was there to delete.":                                                                                      "지울 것이 없었는데도 running 키가 지워집니다.",
	"The running key that pointed at %s is deleted, so the next request will start afresh.":                                                                "%s을(를) 가리키던 running 키가 지워지므로, 다음 요청은 새로 시작합니다.",
	"An unconditional DEL: the old job's cleanup deletes the running key of %s, the job that is running now.":                                              "무조건적인 DEL: 옛 잡의 정리 작업이 지금 실행 중인 잡 %s의 running 키를 지웁니다.",
	"The poller waits: %s has no job yet.":                                                                                                                 "폴러는 기다립니다. %s에는 아직 잡이 없습니다.",
	"The poller sees %s is already %s and leaves it.":                                                                                                      "폴러는 %s이(가) 이미 %s인 것을 보고 그대로 둡니다.",
	"%s expired from Redis while the poller looked at it.":                                                                                                 "폴러가 보는 동안 %s이(가) Redis에서 만료되었습니다.",
	"The poller could not fail %s: %s.":                                                                                                                    "폴러가 %s을(를) 실패로 만들 수 없었습니다: %s.",
	"The deadline counts from createdAt, not from the last heartbeat: a job whose worker never started still ends, and the next request can start afresh.": "마감 시간은 마지막 하트비트가 아니라 createdAt부터 셉니다. 워커가 시작하지 않은 잡도 끝나고, 다음 요청은 새로 시작할 수 있습니다.",
	"A heartbeat timeout never fires for a job that never beat: the dead job looks like one that is still starting.":                                       "한 번도 하트비트를 보내지 않은 잡에는 하트비트 타임아웃이 절대 울리지 않습니다. 죽은 잡이 아직 시작 중인 잡처럼 보입니다.",
	"After ten minutes without a heartbeat the poller marks %s FAILED with a plain write that nothing guards.":                                             "하트비트 없이 10분이 지나자 폴러가 아무것도 지키지 않는 단순한 쓰기로 %s을(를) FAILED로 표시합니다.",
	"The apply step publishes only a SUCCESS job: %s is %s, so its results stay out of PostgreSQL.":                                                        "반영 단계는 SUCCESS 잡만 게시합니다. %s은(는) %s이므로, 그 결과는 PostgreSQL에 들어가지 않습니다.",
	"The apply step sees SUCCESS and publishes %s's results to PostgreSQL — it cannot tell how that SUCCESS came about.":                                   "반영 단계는 SUCCESS를 보고 %s의 결과를 PostgreSQL에 게시합니다 — 그 SUCCESS가 어떻게 생겼는지는 알 수 없습니다.",
	"The job exists in Redis as RUNNING, but no worker will ever finish it.":                                                                               "잡은 Redis에 RUNNING으로 있지만, 어떤 워커도 그것을 끝내지 않을 것입니다.",
	// The events' details: what each step did, as the timeline, run and the
	// exports say it (a trace keeps the English).
	"paused":                           "멈춤",
	"GC pause":                         "GC 멈춤",
	"paused by you":                    "직접 멈춤",
	"stopped while the clock moves on": "시계가 흐르는 동안 멈춤",
	"%s stops (%s); it still believes what it believed":                               "%s이(가) 멈춥니다(%s). 믿던 것을 여전히 믿습니다",
	"%s wakes up and carries on":                                                      "%s이(가) 깨어나 계속합니다",
	"%s wakes up still believing it holds token %d":                                   "%s이(가) 아직 토큰 %d을(를) 가졌다고 믿으며 깨어납니다",
	"lab clock +%s → %s":                                                              "랩 시계 +%s → %s",
	"lab clock +%s → %s; expired: %s":                                                 "랩 시계 +%s → %s. 만료: %s",
	"leader lease of %s is held by %s; %s waits":                                      "%s의 리더 리스를 %s이(가) 가지고 있습니다. %s은(는) 기다립니다",
	"%s leads job %s for %s (an owner id, no order)":                                  "%[1]s이(가) %[3]s 동안 잡 %[2]s을(를) 이끕니다 (소유자 id일 뿐, 순서는 없음)",
	"%s gives up the leader lease of %s":                                              "%s이(가) %s의 리더 리스를 내려놓습니다",
	"%s no longer held the leader lease of %s":                                        "%s은(는) 더 이상 %s의 리더 리스를 가지고 있지 않았습니다",
	"Redis is at namespace epoch %d, %s had %d; %s moves to epoch %d and tries again": "Redis는 네임스페이스 에포크 %d, %s은(는) %d이었습니다. %s이(가) 에포크 %d(으)로 옮겨 다시 시도합니다",
	"acquire refused: %v":                                                             "획득 거부: %v",
	"the resource lease is held by %s with token %d; %s waits":                        "리소스 리스를 %s이(가) 토큰 %d(으)로 가지고 있습니다. %s은(는) 기다립니다",
	"%s holds the resource lease with fencing token %d for %s":                        "%s이(가) 펜싱 토큰 %d(으)로 %s 동안 리소스 리스를 가집니다",
	"%s releases the lease of token %d; the counter stays":                            "%s이(가) 토큰 %d의 리스를 놓습니다. 카운터는 그대로입니다",
	"token %d's lease was no longer %s's":                                             "토큰 %d의 리스는 더 이상 %s의 것이 아니었습니다",
	"the namespace epoch moved on since token %d":                                     "토큰 %d 이후 네임스페이스 에포크가 넘어갔습니다",
	"%s reads summary = %d":                                                           "%s이(가) summary를 읽습니다: %d",
	"without a fencing token":                                                         "펜싱 토큰 없이",
	"with (epoch %d, token %d)":                                                       "(에포크 %d, 토큰 %d)로",
	"with token %d":                                                                   "토큰 %d(으)로",
	"%d (%d + %d, read under the row lock)":                                           "%d (%d + %d, 행 잠금 아래에서 읽음)",
	"PostgreSQL rejects %s's summary = %d %s: %s":                                     "PostgreSQL이 %[3]s 쓴 %[1]s의 쓰기(summary = %[2]d)를 거절합니다: %[4]s",

	"%s is running for %s: %s returns it and starts no worker":                                                  "%s이(가) %s을(를) 위해 실행 중입니다. %s은(는) 그것을 돌려주고 워커를 시작하지 않습니다",
	"%s created with its running pointer in one script; its worker starts":                                      "%s이(가) running 포인터와 함께 하나의 스크립트로 만들어졌습니다. 워커가 시작합니다",
	"running key → %s (RUNNING): %s returns it":                                                                 "running 키 → %s (RUNNING): %s은(는) 그것을 돌려줍니다",
	"no running job for %s: %s will create one":                                                                 "%s에 실행 중인 잡이 없습니다. %s이(가) 하나 만들 것입니다",
	"%s created RUNNING (0/%d); the running key is not set yet":                                                 "%s이(가) RUNNING (0/%d)으로 만들어졌습니다. running 키는 아직 설정되지 않았습니다",
	"running key → %s; its worker starts":                                                                       "running 키 → %s. 워커가 시작합니다",
	"%s reused %s: no worker of its own was started":                                                            "%s은(는) %s을(를) 재사용했습니다. 자기 워커는 시작되지 않았습니다",
	"%s has started no job yet":                                                                                 "%s은(는) 아직 잡을 시작하지 않았습니다",
	"%s is gone from Redis (its TTL ended); %s stops":                                                           "%s이(가) Redis에서 사라졌습니다(TTL 끝남). %s은(는) 멈춥니다",
	"%s processed %d/%d items of %s; the results wait in Redis":                                                 "%s이(가) %[4]s의 항목 %[2]d/%[3]d개를 처리했습니다. 결과는 Redis에서 기다립니다",
	"%s is gone from Redis (its TTL ended): nothing to mark":                                                    "%s이(가) Redis에서 사라졌습니다(TTL 끝남). 표시할 것이 없습니다",
	"%s RUNNING → SUCCESS; running key released":                                                                "%s RUNNING → SUCCESS. running 키를 놓았습니다",
	"late SUCCESS of %s refused (%s); the job stays %s":                                                         "%s의 늦은 SUCCESS가 거절되었습니다(%s). 잡은 %s 그대로입니다",
	"HSET %s status SUCCESS (it was %s)":                                                                        "HSET %s status SUCCESS (전에는 %s)",
	"DEL running key: there was none":                                                                           "running 키 DEL: 없었습니다",
	"DEL running key (it pointed at %s)":                                                                        "running 키 DEL (%s을(를) 가리키고 있었음)",
	"DEL running key — it pointed at %s, not %s":                                                                "running 키 DEL — %[2]s이(가) 아니라 %[1]s을(를) 가리키고 있었습니다",
	"no job of %s to poll":                                                                                      "폴링할 %s의 잡이 없습니다",
	"%s is %s":                                                                                                  "%s은(는) %s입니다",
	"%s RUNNING %d/%d; deadline in %s":                                                                          "%s RUNNING %d/%d. 마감까지 %s",
	"%s expired while being polled":                                                                             "%s이(가) 폴링 도중 만료되었습니다",
	"%s could not be failed: %s":                                                                                "%s을(를) 실패로 만들 수 없었습니다: %s",
	"the running key was not its own and stays":                                                                 "running 키는 그 잡의 것이 아니었으므로 남습니다",
	"its running key is released":                                                                               "그 잡의 running 키를 놓았습니다",
	"%s RUNNING, no heartbeat yet: still starting":                                                              "%s RUNNING, 아직 하트비트 없음: 시작하는 중",
	"%s RUNNING, last heartbeat %s ago":                                                                         "%s RUNNING, 마지막 하트비트 %s 전",
	"HSET %s status FAILED: no heartbeat for 10m":                                                               "HSET %s status FAILED: 10분 동안 하트비트 없음",
	"%s is %s: its results are not applied":                                                                     "%s은(는) %s입니다. 그 결과는 반영되지 않습니다",
	"%s is SUCCESS: %q written to PostgreSQL":                                                                   "%s은(는) SUCCESS입니다. %q을(를) PostgreSQL에 썼습니다",
	"the process died right after writing the running key; %s never starts":                                     "running 키를 쓴 직후 프로세스가 죽었습니다. %s은(는) 끝내 시작하지 않습니다",
	"%s removed: membership revision %d → %d, inactive":                                                         "%s 제거: 멤버십 리비전 %d → %d, 비활성",
	"region-b is cut off with a token source of its own at 99; region-a epoch 3 stays authoritative":            "region-b가 99에서 시작하는 자기만의 토큰 출처를 가진 채 끊어졌습니다. region-a 에포크 3이 계속 권한을 가집니다",
	"rollout marker: checkpoint schema %d → %d, minimum writer version %d → %d":                                 "롤아웃 마커: 체크포인트 스키마 %d → %d, 최소 쓰기 버전 %d → %d",
	"the embedded Redis restarted without persistence: counter, epoch and lease are gone":                       "내장 Redis가 영속성 없이 재시작했습니다. 카운터, 에포크, 리스가 사라졌습니다",
	"the lab's keys were deleted, standing in for a restart: fencelab does not restart a Redis it does not own": "재시작 대신 랩의 키를 지웠습니다. fencelab은 자기 것이 아닌 Redis를 재시작하지 않습니다",
	"Redis: namespace epoch → %d, counter starts at 0":                                                          "Redis: 네임스페이스 에포크 → %d, 카운터는 0에서 시작",
	"PostgreSQL: rollout marker and resource → namespace epoch %d, fence restarts at none":                      "PostgreSQL: 롤아웃 마커와 리소스 → 네임스페이스 에포크 %d, 펜스는 없음에서 다시 시작",
	"no PENDING outbox row is due; the outbox worker waits":                                                     "때가 된 PENDING 아웃박스 행이 없습니다. 아웃박스 워커는 기다립니다",
	"claimed %s (attempt %d) and committed the claim, until %s":                                                 "%s을(를) 클레임하고(시도 %d) %s까지의 클레임을 커밋했습니다",
	"%s: %s timed out — applied or not, the worker cannot tell":                                                 "%s: %s 타임아웃 — 적용되었는지 아닌지 워커는 알 수 없습니다",
	"%s: %s answered %s (receipt %s)":                                                                           "%s: %s의 답 %s (영수증 %s)",
	"no answer to record":                                                                                       "기록할 답이 없습니다",
	"outbox %s → %s":                                                                                            "아웃박스 %s → %s",
	"no row awaits reconciliation":                                                                              "조정을 기다리는 행이 없습니다",
	"The provider answers %s for %s, with receipt %s: the worker knows what happened, and records it next.":     "제공자가 %[2]s에 대해 %[1]s(으)로 답하고 영수증 %[3]s을(를) 줍니다. 워커는 무슨 일이 있었는지 알고, 다음에 그것을 기록합니다.",
	"There is no answer to record: the worker asked the provider nothing.":                                      "기록할 응답이 없습니다. 워커는 제공자에게 아무것도 묻지 않았습니다.",
	"No row awaits reconciliation: each is settled, or claimed by a worker whose claim still runs.":             "조정을 기다리는 행이 없습니다. 모두 확정되었거나, 클레임이 아직 유효한 워커가 클레임하고 있습니다.",
	"There is nothing to ask the provider about.":                                                               "제공자에게 물어볼 것이 없습니다.",
	"There is nothing to send again.":                                                                           "다시 보낼 것이 없습니다.",
	"%s needs reconciling (%s); claimed it (attempt %d)":                                                        "%s은(는) 조정이 필요합니다(%s). 클레임했습니다(시도 %d)",
	"outbox %s is no longer claimed under attempt %d: %s is not recorded":                                       "아웃박스 %s은(는) 더 이상 시도 %d(으)로 클레임되어 있지 않습니다: %s은(는) 기록되지 않습니다",
	"%s's claim ran out while it was away, and another worker claimed the row since: the claim's attempt fences the record, as a token fences a write.": "%s이(가) 멈춘 사이 클레임이 만료되었고, 그 뒤 다른 워커가 행을 클레임했습니다. 토큰이 쓰기를 펜싱하듯, 클레임의 시도 번호가 기록을 펜싱합니다.",
	"%s claimed outbox row %s while %s's claim on it had %s left: two workers deliver one row at once":                                                  "%s이(가) 아웃박스 행 %s을(를) 클레임했지만 %s의 클레임이 %s 남아 있었습니다: 두 워커가 한 행을 동시에 전달합니다",
	"%s recorded an outcome on outbox row %s while %s's claim on it had %s left: a worker settles a row it no longer holds":                             "%s이(가) 아웃박스 행 %s에 결과를 기록했지만 %s의 클레임이 %s 남아 있었습니다: 워커가 더 이상 갖지 않은 행을 확정합니다",
	"nothing to query":     "조회할 것이 없습니다",
	"%s: query(%s) → %s%s": "%s: query(%s) → %s%s",
	" (receipt %s)":        " (영수증 %s)",
	"nothing to retry":     "재시도할 것이 없습니다",

	// The breaks of the invariants.
	"%s committed token %d after token %d was accepted":                                                              "%s이(가) 토큰 %[3]d이(가) 받아들여진 뒤에 토큰 %[2]d을(를) 커밋했습니다",
	"%s wrote under membership revision %d, current is %s":                                                           "%s이(가) 멤버십 리비전 %d 아래에서 썼습니다. 현재는 %s입니다",
	"%s wrote from %s epoch %d, authoritative is %s epoch %d":                                                        "%s이(가) %s 에포크 %d에서 썼습니다. 권한을 가진 것은 %s 에포크 %d입니다",
	"%s wrote with contract %d, the rollout requires %d":                                                             "%s이(가) 계약 %d(으)로 썼습니다. 롤아웃은 %d을(를) 요구합니다",
	"%s wrote under namespace epoch %d, current is %d":                                                               "%s이(가) 네임스페이스 에포크 %d 아래에서 썼습니다. 현재는 %d입니다",
	"execution %s committed without its outbox row":                                                                  "실행 %s이(가) 아웃박스 행 없이 커밋되었습니다",
	"outbox row %s has no committed execution":                                                                       "아웃박스 행 %s에는 커밋된 실행이 없습니다",
	"checkpoint of %s (%d, token %d) disagrees with the resource (%d, fence %d)":                                     "%s의 체크포인트(%d, 토큰 %d)가 리소스(%d, 펜스 %d)와 다릅니다",
	"%s wrote %d computed from %d, but the summary was %d when it committed: the update(s) that made it %d are lost": "%s이(가) %[3]d에서 계산한 %[2]d을(를) 썼지만, 커밋할 때 요약은 %[4]d이었습니다. 그것을 %[5]d(으)로 만든 갱신이 사라졌습니다",
	"effect %s applied %d times (as %s)":                                                                             "효과 %s이(가) %d번 적용되었습니다 (%s(으)로)",
	"%s went %s → %s after it had ended":                                                                             "%s이(가) 끝난 뒤에 %s → %s(으)로 바뀌었습니다",
	"%d RUNNING jobs for %s: %s":                                                                                     "%[2]s에 RUNNING 잡 %[1]d개: %[3]s",
	"%s is RUNNING but the running key of %s is gone":                                                                "%s은(는) RUNNING인데 %s의 running 키가 사라졌습니다",
	"%s is RUNNING but the running key of %s points at %s":                                                           "%s은(는) RUNNING인데 %s의 running 키는 %s을(를) 가리킵니다",
	"no assignment":  "배정 없음",
	"tenant removed": "테넌트 제거됨",
	"revision %d":    "리비전 %d",

	// export: the cast's markers and Mermaid's labels.
	"start: %s":     "시작: %s",
	"%s (provider)": "%s (제공자)",
	"lab clock %s":  "랩 시계 %s",
	"guard: %s":     "가드: %s",
	"result · expected %d · final %d · fence %s · verdict %s": "결과 · 기대값 %d · 최종 %d · 펜스 %s · 판정 %s",
	"result · expected %d · final %d · verdict %s":            "결과 · 기대값 %d · 최종 %d · 판정 %s",
	// The explorer's store panes.
	"keys under %s": "%s 아래의 키",
	"no ttl":        "ttl 없음",
	"guard":         "가드",
	"%s: summary %s · %s %s · namespace epoch %d": "%s: 요약 %s · %s %s · 네임스페이스 에포크 %d",
	"active":                            "활성",
	"removed":                           "제거됨",
	"%s revision %d · %s epoch %d · %s": "%s 리비전 %d · %s 에포크 %d · %s",
	"rollout: namespace epoch %d · min writer %d · checkpoint schema %d": "롤아웃: 네임스페이스 에포크 %d · 최소 쓰기 %d · 체크포인트 스키마 %d",
	"checkpoint token %s · schema %d · summary %d":                       "체크포인트 token %s · 스키마 %d · 요약 %d",
	"execution %-16s %-9s token %-4s %s":                                 "실행 %-16s %-9s 토큰 %-4s %s",
	"job_results %s of %s: %q %s":                                        "job_results %[2]s의 %[1]s: %[3]q %[4]s",
	"summary %d · fence %s · %d executions · %d job results":             "요약 %d · 펜스 %s · 실행 %d개 · 잡 결과 %d개",
	"%s · schema fencelab":                                               "%s · 스키마 fencelab",
	"%-28s %-15s %s · attempts %d":                                       "%-28s %-15s %s · 시도 %d",
	"receipt %s":                                                         "영수증 %s",
	"%s applied %d: %s":                                                  "%s 적용 %d번: %s",
	"%s applied %d: ":                                                    "%s 적용 %d번: ",
	"%s applied %d, of %s: %s":                                           "%s 적용 %d번, %s: %s",
	"%s, newest %s %s · %s applied %d":                                   "%s, 최신 %s %s · %s 적용 %d번",
	"%d row":                                                             "%d행",
	"%d rows":                                                            "%d행",
	"BROKEN invariant %d":                                                "불변식 %d 깨짐",
	"%s at #%d: %s":                                                      "%s, #%d에서: %s",
	"Scenarios — enter to open, esc to go back":                          "시나리오 — enter로 열기, esc로 돌아가기",
	"could not write the trace: %s":                                      "트레이스를 저장할 수 없습니다: %s",
	"could not export: %d actions but %d recorded screens (r starts again)":    "내보낼 수 없습니다: 동작은 %d개인데 기록된 화면은 %d개입니다 (r로 다시 시작)",
	"could not export: the recorded screens are out of order (r starts again)": "내보낼 수 없습니다: 기록된 화면의 순서가 맞지 않습니다 (r로 다시 시작)",
	"could not export: %s": "내보낼 수 없습니다: %s",
	"# Make the GIF from this file's directory, with fencelab on PATH: vhs %s\n":     "# 이 파일이 있는 디렉터리에서, PATH에 fencelab을 두고 GIF 만들기: vhs %s\n",
	"# Start the explorer out of sight: PostgreSQL takes a moment the first time.\n": "# 보이지 않게 탐색기를 시작합니다. PostgreSQL은 처음에 잠시 걸립니다.\n",

	// The command line's one-line errors.
	"--lease-ttl must be positive, got %s":                         "--lease-ttl은 양수여야 합니다. 받은 값: %s",
	"--lease-ttl %s is below %s, the shortest the lab clock keeps": "--lease-ttl %s은(는) 랩 시계가 지키는 가장 짧은 값 %s보다 작습니다",
	"--lease-ttl %s is too short for a real Redis, whose TTLs run on the wall clock while a call is under way; use at least %s": "--lease-ttl %s: 실제 Redis에는 너무 짧습니다. 호출이 진행되는 동안에는 TTL이 실제 시계로 흐릅니다. %s 이상을 쓰세요",
	"--pg %s: malformed DSN: %s": "--pg %s: 잘못된 DSN: %s",
	"interrupted":                "중단됨",
	"interrupted by %s":          "%s(으)로 중단됨",
	"interrupted by signal %s":   "시그널 %s(으)로 중단됨",
	"%s; fencelab changed nothing (use another database, or drop or rename that schema)": "%s. fencelab은 아무것도 바꾸지 않았습니다 (다른 데이터베이스를 쓰거나, 그 스키마를 지우거나 이름을 바꾸세요)",
	"not as the catalog claims: %s":                                                           "카탈로그의 주장과 다름: %s",
	"not as the catalog predicts: %s":                                                         "카탈로그의 예측과 다름: %s",
	"the explorer needs a terminal: %v; for a headless run: fencelab run ID":                  "탐색기에는 터미널이 필요합니다: %v. 화면 없이 실행하려면: fencelab run ID",
	"export takes one trace file or scenario id, got %d arguments (fencelab export --help)":   "export는 트레이스 파일 하나나 시나리오 id 하나를 받습니다. 받은 인수: %d개 (fencelab export --help)",
	"export needs --to, one of: %s":                                                           "export에는 --to가 필요합니다. 다음 중 하나: %s",
	"export --to %q: want one of %s":                                                          "export --to %q: 다음 중 하나여야 합니다: %s",
	"--size %q: want COLUMNSxROWS, like 100x30":                                               "--size %q: 열x행 형식이어야 합니다. 예: 100x30",
	"--size %s: the explorer draws from 80x24 to 400x200":                                     "--size %s: 탐색기는 80x24부터 400x200까지 그립니다",
	"--mode %q: export records one mode, safe or unsafe":                                      "--mode %q: export는 한 모드만 기록합니다. safe 또는 unsafe",
	"a trace is exported in its own mode; leave out --mode":                                   "트레이스는 자기 모드로 내보냅니다. --mode를 빼세요",
	"no help for %q: there is no such command (want %s)":                                      "%q에 대한 도움말이 없습니다. 그런 명령이 없습니다 (다음 중 하나: %s)",
	"%s does not take %s (fencelab help %s says what it takes)":                               "%s은(는) %s을(를) 받지 않습니다 (fencelab help %s가 받는 것을 보여 줍니다)",
	"--lease-ttl must be positive, got 0 (leave it out for the default)":                      "--lease-ttl은 양수여야 합니다. 받은 값: 0 (기본값을 쓰려면 빼세요)",
	"help takes one command, got %q":                                                          "help는 명령 하나를 받습니다. 받은 값: %q",
	"version takes no arguments, got %q":                                                      "version은 인수를 받지 않습니다. 받은 값: %q",
	"list takes no arguments, got %q":                                                         "list는 인수를 받지 않습니다. 받은 값: %q",
	"--keep keeps fencelab's own PostgreSQL up; the --pg server is yours and stays up anyway": "--keep은 fencelab 자신의 PostgreSQL을 켜 둡니다. --pg 서버는 당신의 것이고 어차피 켜져 있습니다",
	"--save-trace saves one run: give one scenario and --mode safe or unsafe":                 "--save-trace는 실행 하나를 저장합니다. 시나리오 하나와 --mode safe 또는 unsafe를 주세요",
	"--max-schedules must be at least 1, got %d":                                              "--max-schedules는 최소 1이어야 합니다. 받은 값: %d",
	"replay takes one trace file, got %d arguments":                                           "replay는 트레이스 파일 하나를 받습니다. 받은 인수: %d개",
	"talk takes one script file, got %d arguments (fencelab talk --help)":                     "talk는 스크립트 파일 하나를 받습니다. 받은 인수: %d개 (fencelab talk --help)",
	"the talk has UNSAFE scenes, which write naive code paths into --pg's server; pass --allow-unsafe to let them (nothing was written)": "발표에 UNSAFE 장면이 있고, 그 장면은 --pg 서버에 순진한 코드 경로로 씁니다. 허용하려면 --allow-unsafe를 주세요 (아무것도 쓰지 않았습니다)",
	"race needs Redis only; it does not take --pg":                           "race에는 Redis만 필요합니다. --pg를 받지 않습니다",
	"race takes no arguments, got %q":                                        "race는 인수를 받지 않습니다. 받은 값: %q",
	"--trace opens the trace's own mode; leave out --mode":                   "--trace는 트레이스 자신의 모드로 엽니다. --mode를 빼세요",
	"--mode %q: the explorer opens safe or unsafe (m switches between them)": "--mode %q: 탐색기는 safe 또는 unsafe로 열립니다 (m으로 전환)",
	"--n must be between 1 and %d, got %d":                                   "--n은 1과 %d 사이여야 합니다. 받은 값: %d",
	"--free must be between 0 and %d, got %d":                                "--free는 0과 %d 사이여야 합니다. 받은 값: %d",
	"--out %s: not a directory":                                              "--out %s: 디렉터리가 아닙니다",
	"--out %s: %v":                                                           "--out %s: %v",
	"a trace runs with its own lease TTL (%s); leave out --lease-ttl":        "트레이스는 자기 리스 TTL(%s)로 실행됩니다. --lease-ttl을 빼세요",
	"the trace is UNSAFE, which writes naive code paths into --pg's server; pass --allow-unsafe to let it (nothing was written)": "트레이스가 UNSAFE이고, --pg 서버에 순진한 코드 경로로 씁니다. 허용하려면 --allow-unsafe를 주세요 (아무것도 쓰지 않았습니다)",
	"the replay differs from %s in %d place(s)": "재실행이 %s와(과) %d곳에서 다릅니다",
	"%s takes a scenario id or --all, not both": "%s은(는) 시나리오 id나 --all 중 하나만 받습니다",
	"unknown scenario %q (one of: %s)":          "알 수 없는 시나리오 %q (다음 중 하나: %s)",
	"--mode: %v":                                "--mode: %v",
	"UNSAFE runs write naive code paths into --pg's server; pass --allow-unsafe to let them (nothing was written)": "UNSAFE 실행은 --pg 서버에 순진한 코드 경로로 씁니다. 허용하려면 --allow-unsafe를 주세요 (아무것도 쓰지 않았습니다)",
	"talk %s: %v":         "talk %s: %v",
	"%s: no directory %s": "%s: 디렉터리 %s이(가) 없습니다",
	"%s: exists and is not a regular file; not overwritten": "%s: 이미 있고 일반 파일이 아닙니다. 덮어쓰지 않았습니다",
	"%s: exists and is not %s; not overwritten":             "%s: 이미 있고 %s이(가) 아닙니다. 덮어쓰지 않았습니다",
	"trace %s: %v":             "트레이스 %s: %v",
	"a fencelab trace":         "fencelab 트레이스",
	"a file fencelab exported": "fencelab이 내보낸 파일",

	// A run on the --pg of a shared stress resource.
	"the rows of shared resource %s are put aside while this run reseeds the lab's tables; the next stress --shared puts them back": "공유 리소스 %s의 행은 이 실행이 랩의 테이블을 다시 채우는 동안 따로 옮겨 둡니다. 다음 stress --shared가 되돌려 놓습니다",

	// run, check, replay, export and race: their lines.
	"another fencelab run is using this database (%s); waiting for it to end — Ctrl-C to give up": "다른 fencelab 실행이 이 데이터베이스를 쓰고 있습니다(%s). 끝나기를 기다립니다 — 포기하려면 Ctrl-C",
	"every schedule": "모든 스케줄",
	"BOUNDED by --max-schedules: not every schedule": "--max-schedules로 제한됨: 모든 스케줄은 아님",
	"  invariant %d broken on %s: %s\n":              "  불변식 %d이(가) %s에서 깨짐: %s\n",
	"  every invariant held on every schedule run\n": "  실행한 모든 스케줄에서 모든 불변식이 지켜짐\n",
	"  verdicts of complete schedules: %s\n":         "  끝까지 간 스케줄의 판정: %s\n",
	"  (%s: no schedule ran to its end so — each stopped at a state explored already — but the counterexample does)\n":                                                               "  (%s: 그렇게 끝까지 간 스케줄은 없습니다 — 모두 이미 탐색한 상태에서 멈췄습니다 — 하지만 반례가 그렇게 끝납니다)\n",
	"  (%s: a verdict, not a break — schedules that kept every invariant and ended with a value\n   other than the expected one, higher or lower, with no guard refusing a write)\n": "  (%s: 위반이 아니라 판정 — 모든 불변식을 지켰지만 가드가 쓰기를 거절하지 않은 채\n   기대값과 다른 값(더 크든 작든)으로 끝난 스케줄)\n",
	"  (%s: a verdict, not a break — schedules that kept every invariant and ended where the\n   system can no longer make progress, short of the expected value)\n":                 "  (%s: 위반이 아니라 판정 — 모든 불변식을 지켰지만 기대값에 못 미친 채\n   시스템이 더는 진행할 수 없는 곳에서 끝난 스케줄)\n",
	"  (%s: a verdict, not a break — schedules that kept every invariant and ended away from the\n   expected value, which this scenario names %s)\n":                                "  (%s: 위반이 아니라 판정 — 모든 불변식을 지켰지만 기대값과 다르게 끝난 스케줄,\n   이 시나리오는 이를 %[2]s(이)라 부릅니다)\n",
	"  as the catalog claims\n":                              "  카탈로그의 주장대로\n",
	"  NOT as the catalog claims: SAFE broke an invariant\n": "  카탈로그의 주장과 다름: SAFE가 불변식을 깼습니다\n",
	"  NOT as the catalog claims: no schedule ended %s\n":    "  카탈로그의 주장과 다름: %s(으)로 끝난 스케줄이 없습니다\n",
	" (and %d pauses and resumes it implies)":                " (그리고 그에 따르는 멈춤과 재개 %d번)",
	"  counterexample: %d actions%s, verdict %s → %s\n":      "  반례: 동작 %d개%s, 판정 %s → %s\n",
	"  open it:  %s\n":                                       "  열기:  %s\n",
	"connecting to PostgreSQL…":                              "PostgreSQL에 연결하는 중…",
	"starting PostgreSQL %d…":                                "PostgreSQL %d 시작하는 중…",
	"the starting state":                                     "시작 상태",
	"the tape plays %s, written beside it":                   "테이프는 옆에 저장한 %s을(를) 재생합니다",
	"forced key sets":                                        "강제 키 세트",
	"free-running pairs":                                     "자유 실행 쌍",
	"%s records no run to compare with (a schedule only)":    "%s에는 비교할 실행 기록이 없습니다 (스케줄만 있음)",
	"differs: %s":                                            "다름: %s",
	"PostgreSQL keeps the last run's rows: psql %s — Enter (or Ctrl-C) stops it\n":     "PostgreSQL이 마지막 실행의 행을 유지합니다: psql %s — Enter(또는 Ctrl-C)로 멈춤\n",
	"%s (real server; TTLs run on the wall clock)":                                     "%s (실제 서버. TTL은 실제 시계로 흐름)",
	"%s (embedded; keys expire on the lab clock)":                                      "%s (내장. 키는 랩 시계로 만료)",
	"redis     %s, lease TTL %s\n":                                                     "redis     %s, 리스 TTL %s\n",
	"          psql %s   (while fencelab runs)\n":                                      "          psql %s   (fencelab이 도는 동안)\n",
	"          psql %s   (schema fencelab; password as in your --pg, or PGPASSWORD)\n": "          psql %s   (스키마 fencelab. 비밀번호는 --pg에 준 것, 또는 PGPASSWORD)\n",
	"          psql %s   (schema fencelab)\n":                                          "          psql %s   (스키마 fencelab)\n",

	// A trace or a talk script that cannot be read.
	"not a usable trace: %s":                                                               "쓸 수 없는 트레이스: %s",
	"unknown action %q (want %s)":                                                          "알 수 없는 동작 %q (다음 중 하나: %s)",
	"advance needs a positive \"by\" like \"30s\", got %q":                                 "advance에는 \"30s\" 같은 양수 \"by\"가 필요합니다. 받은 값: %q",
	"%s needs an actor":                                                                    "%s에는 액터가 필요합니다",
	"%s takes no actor, got %q":                                                            "%s은(는) 액터를 받지 않습니다. 받은 값: %q",
	"no \"format\" field: want %q":                                                         "\"format\" 필드가 없습니다: %q이어야 합니다",
	"format %q is newer than this fencelab reads (%s): update fencelab":                    "형식 %q은(는) 이 fencelab이 읽는 것(%s)보다 새롭습니다: fencelab을 업데이트하세요",
	"format %q, want %q":                                                                   "형식 %q, %q이어야 합니다",
	"leaseTTL must be positive and at most %s, got %s":                                     "leaseTTL은 양수이고 %s 이하여야 합니다. 받은 값: %s",
	"advance by %q: at most %s at a time":                                                  "advance by %q: 한 번에 최대 %s입니다",
	"schedule entry %d: the schedule would take the lab clock past %s":                     "스케줄 항목 %d: 이 스케줄은 랩 시계를 %s 너머로 옮깁니다",
	"the lab clock advances by more than 0 and at most %s at a time, to at most %s in all": "랩 시계는 한 번에 0보다 크고 %s 이하만큼, 모두 합쳐 %s까지 나아갑니다",
	"--lease-ttl must be at most %s, got %s":                                               "--lease-ttl은 %s 이하여야 합니다. 받은 값: %s",
	"--lease-ttl %s: a stress pause is twice the lease TTL unless --pause says otherwise, and at most %s; give a --lease-ttl of at most %s, or a --pause": "--lease-ttl %s: stress의 멈춤은 --pause가 따로 정하지 않으면 lease TTL의 두 배이고 최대 %s입니다. %s 이하의 --lease-ttl이나 --pause를 주세요",
	"its schedule is empty": "스케줄이 비어 있습니다",
	"schedule entry %d: %v": "스케줄 항목 %d: %v",
	"schedule entry %d: a text of %d characters, more than the %d a caption or note may have": "스케줄 항목 %d: 텍스트가 %d자로, 자막이나 메모에 허용되는 %d자를 넘습니다",
	"schedule entry %d names actor %q, which %s %s does not have (it has %s)":                 "스케줄 항목 %d이(가) 액터 %q을(를) 가리키지만, %s %s에는 그런 액터가 없습니다 (있는 것: %s)",
	"truncated: the JSON ends after %d bytes":                                                 "잘림: JSON이 %d바이트 뒤에 끝납니다",
	"not JSON at byte %d: %v":                                   "%d바이트에서 JSON이 아닙니다: %v",
	"the document is a JSON %s, where a trace is a JSON object": "문서가 JSON %s입니다. 트레이스는 JSON 객체입니다",
	"a JSON value of another kind":                              "다른 종류의 JSON 값",
	"a string":                                                  "문자열",
	"a number":                                                  "숫자",
	"true or false":                                             "true 또는 false",
	"a list":                                                    "목록",
	"an object":                                                 "객체",
	"field %q holds a JSON %s, where the format wants %s": "필드 %q에 JSON %s이(가) 있습니다. 형식은 %s을(를) 원합니다",
	"talk %s:%s":   "talk %s:%s",
	"not TOML: %s": "TOML이 아닙니다: %s",
	"unknown key %q (a script has title, minutes and [[scene]]s)":              "알 수 없는 키 %q (스크립트에는 title, minutes, [[scene]]이 있습니다)",
	"minutes = %#v: want the talk's length, a number of minutes from 1 to 600": "minutes = %#v: 발표 길이를 1에서 600 사이의 분으로 주세요",
	"title: %v":                         "title: %v",
	"larger than %s":                    "%s보다 큽니다",
	"line %d: nested more than %d deep": "%d행: %d단계보다 깊이 중첩되어 있습니다",
	"not a regular file":                "일반 파일이 아닙니다",
	"%q: a path or name with control characters in it is refused":    "%q: 제어 문자가 든 경로나 이름은 받지 않습니다",
	"its schedule has %d actions, more than the %d a trace may have": "스케줄에 동작이 %d개로, 트레이스 하나에 허용되는 %d개를 넘습니다",
	"%d actions, more than the %d a schedule may have":               "동작 %d개로, 스케줄 하나에 허용되는 %d개를 넘습니다",
	"note: %v": "note: %v",
	"%d characters, more than the %d a text may have": "%d자로, 텍스트 하나에 허용되는 %d자를 넘습니다",
	"title: missing":                      "title: 없음",
	"a talk needs at least one [[scene]]": "발표에는 [[scene]]이 하나 이상 필요합니다",
	"scene %d: %s":                        "장면 %d: %s",
	"mode %q: want safe or unsafe":        "mode %q: safe 또는 unsafe여야 합니다",
	"schedule entry %d: want a table like { action = \"step\", actor = \"A\" }":                  "스케줄 항목 %d: { action = \"step\", actor = \"A\" } 같은 테이블이어야 합니다",
	"schedule %q: want \"guided\" or a list of actions":                                          "schedule %q: \"guided\"나 동작 목록이어야 합니다",
	"schedule: want \"guided\" or a list of actions like [{ action = \"step\", actor = \"A\" }]": "schedule: \"guided\"나 [{ action = \"step\", actor = \"A\" }] 같은 동작 목록이어야 합니다",
	"the schedule has no actions":                                                                "스케줄에 동작이 없습니다",
	"step: want [[scene.step]] tables":                                                           "step: [[scene.step]] 테이블이어야 합니다",
	"scene %d, step note %d: %s":                                                                 "장면 %d, 단계 메모 %d: %s",
	"unknown key %q (a step note has at, caption and turn)":                                      "알 수 없는 키 %q (단계 메모에는 at, caption, turn이 있습니다)",
	"at is missing: want the number of an action, 1 to %d":                                       "at이 없습니다: 동작 번호, 1에서 %d 사이여야 합니다",
	"at = %#v: want a number (no quotes), 1 to %d":                                               "at = %#v: 따옴표 없는 숫자, 1에서 %d 사이여야 합니다",
	"at = %d: want the number of an action, 1 to %d":                                             "at = %d: 동작 번호, 1에서 %d 사이여야 합니다",
	"a second note for action %d":                                                                "동작 %d에 대한 두 번째 메모",
	"caption: %v":                                                                                "caption: %v",
	"turn: %v":                                                                                   "turn: %v",
	"want a string, or a table of %s strings; got key %q":                                        "문자열이나 %s 문자열의 테이블이어야 합니다. 받은 키: %q",
	"the table has no en text":                                                                   "테이블에 en 텍스트가 없습니다",
	"want a string, or a table like { en = \"…\", ko = \"…\" }; got %v":                          "문자열이나 { en = \"…\", ko = \"…\" } 같은 테이블이어야 합니다. 받은 값: %v",
	"effects applied":                                                                            "적용된 효과",
	"current pointers preserved":                                                                 "지켜진 현재 포인터",
	"results applied":                                                                            "반영된 결과",
	"job hashes":                                                                                 "잡 해시",

	// The help (help.go): usage, one line a command, and each command's own,
	// then the flags every command takes. A command's lines start with
	// "  fencelab COMMAND" as in English.
	"fencelab — watch why a leader lease alone is not enough\n\nusage:\n  fencelab [ID|FILE] [flags]          the explorer: a scenario step by step\n  fencelab list                       the scenario catalog\n  fencelab run ID|FILE|--all          the guided order, headless: how it ends\n  fencelab check ID|FILE|--all        every schedule, on the real backends\n  fencelab guards [ID|FILE]           SAFE's guards, one sentence each\n  fencelab matrix [ID|FILE…]          each guard removed alone: who needs it\n  fencelab replay TRACE               run a trace again: does anything differ?\n  fencelab diff ID|FILE|TRACE         one schedule in SAFE beside UNSAFE\n  fencelab export TRACE|ID|FILE       a run as Markdown, Mermaid, GIF, SVG…\n  fencelab talk SCRIPT                give a talk from a script of scenes\n  fencelab scenario show|check|steps  scenario files: a start, compile, steps\n  fencelab race                       the job race, forced on many key sets\n  fencelab stress                     many real workers, real pauses, checked\n  fencelab bench                      its cost beside the floor under it\n  fencelab version                    the version and commit this was built from\n  fencelab help COMMAND               its flags and examples (or COMMAND --help;\n                                      the explorer's: fencelab help explorer)\n\nflags every command takes:\n  --redis URL       a real Redis (7+), not the embedded one; a Cluster too\n  --pg DSN          an existing PostgreSQL, not an ephemeral one\n  --allow-unsafe    let UNSAFE runs write to the --pg server\n  --trust-code      run a file's Redis code as fencelab's own --redis user\n  --lease-ttl D     the lease TTL (default 30s on the lab clock; stress: 500ms)\n  --lang en|ko      the language it speaks (default: the locale's, else en)\n  -v, --verbose     with --json, print the backends to stderr\n  -h, --help        this help\n\nA command writes one file with -o FILE, many with --out DIR. More: docs/.\nexit: 0 as expected · 1 otherwise · 2 bad usage · 3 a server unreachable ·\n70 a crash · 128+N ended by signal N (130 Ctrl-C) — docs/exit-codes.md\n": `fencelab — 리더 리스만으로는 왜 부족한지 지켜보기

사용법:
  fencelab [ID|FILE] [flags]          탐색기: 시나리오를 한 단계씩
  fencelab list                       시나리오 카탈로그
  fencelab run ID|FILE|--all          안내 순서를 화면 없이: 어떻게 끝나는지
  fencelab check ID|FILE|--all        모든 스케줄을 실제 백엔드에서
  fencelab guards [ID|FILE]           SAFE의 가드, 하나에 한 문장
  fencelab matrix [ID|FILE…]          가드를 하나씩 빼 보기: 누가 필요로 하나
  fencelab replay TRACE               트레이스 재실행: 달라진 것이 있나
  fencelab diff ID|FILE|TRACE         한 스케줄을 SAFE와 UNSAFE로 나란히
  fencelab export TRACE|ID|FILE       실행을 Markdown, Mermaid, GIF, SVG…로
  fencelab talk SCRIPT                장면 스크립트로 발표하기
  fencelab scenario show|check|steps  시나리오 파일: 출발점, 컴파일, 단계
  fencelab race                       잡 경쟁을 많은 키 세트에서 강제로
  fencelab stress                     많은 실제 워커와 실제 멈춤, 그리고 검사
  fencelab bench                      그 아래 바닥 곁에서 본 비용
  fencelab version                    이 빌드의 버전과 커밋
  fencelab help COMMAND               그 명령의 플래그와 예 (COMMAND --help도
                                      같음. 탐색기는 fencelab help explorer)

모든 명령이 받는 플래그:
  --redis URL       내장 Redis 대신 실제 Redis(7+). Cluster도 됨
  --pg DSN          임시 PostgreSQL 대신 기존 PostgreSQL
  --allow-unsafe    UNSAFE 실행이 --pg 서버에 쓰도록 허용
  --trust-code      파일의 Redis 코드를 fencelab 자신의 --redis 사용자로 실행
  --lease-ttl D     리스 TTL (기본 30s, 랩 시계로. stress는 500ms)
  --lang en|ko      쓰는 언어 (기본: 로캘의 언어, 아니면 en)
  -v, --verbose     --json과 함께, 백엔드를 stderr에 출력
  -h, --help        이 도움말

파일 하나는 -o FILE로, 여럿은 --out DIR로 씁니다. 더 보기: docs/.
종료 코드: 0 예상대로 · 1 그렇지 않음 · 2 잘못된 사용법 · 3 서버에 닿지 않음 ·
70 충돌 · 128+N 시그널 N으로 끝남 (130 Ctrl-C) — docs/exit-codes.md
`,
	"\nflags every command takes:\n  --redis URL                  a real Redis (7+), not the embedded one:\n                               redis://HOST:PORT/DB; a Redis Cluster as\n                               redis://H1:P1,H2:P2,… or any one node's address\n  --pg DSN                     an existing PostgreSQL, not an ephemeral one;\n                               only schema fencelab is touched\n  --allow-unsafe               let UNSAFE runs write to the --pg server\n  --trust-code                 on a --redis where fencelab may make no user\n                               for a file's code, run it as fencelab's own\n                               user (kept to the run's keys by fencelab's\n                               checks alone)\n  --lease-ttl D                the lease TTL (default 30s: a lab's keys expire\n                               on the lab clock, on a real Redis too;\n                               stress: 500ms)\n  --lang en|ko                 the language of the narration, the screens and\n                               a talk's texts (default: the locale's, LC_ALL,\n                               LC_MESSAGES or LANG, else en); identifiers\n                               (STALE_FENCE, keys) stay as they are\n  -v, --verbose                with --json, print the backends to stderr\n  -h, --help                   this help\n\nexit: 0 as expected · 1 a run ended otherwise than predicted, or its output was\nlost · 2 bad usage or configuration · 3 a server could not be reached or stopped\nanswering · 70 a crash of fencelab's own · 128+N ended by signal N (130 Ctrl-C,\n143 SIGTERM) — docs/exit-codes.md\n": `
모든 명령이 받는 플래그:
  --redis URL                  내장 Redis 대신 실제 Redis(7+):
                               redis://HOST:PORT/DB. Redis Cluster는
                               redis://H1:P1,H2:P2,… 또는 아무 노드 하나의 주소
  --pg DSN                     임시 PostgreSQL 대신 기존 PostgreSQL.
                               스키마 fencelab만 건드림
  --allow-unsafe               UNSAFE 실행이 --pg 서버에 쓰도록 허용
  --trust-code                 파일의 코드에 쓸 사용자를 fencelab이 만들 수
                               없는 --redis에서, fencelab 자신의 사용자로
                               실행 (런의 키 안에 묶어 두는 것은 fencelab의
                               검사뿐)
  --lease-ttl D                리스 TTL (기본 30s: 랩의 키는 실제 Redis에서도
                               랩 시계로 만료됨. stress는 500ms)
  --lang en|ko                 설명, 화면, 발표 텍스트의 언어 (기본: 로캘의
                               언어 — LC_ALL, LC_MESSAGES, LANG — 아니면 en).
                               식별자(STALE_FENCE, 키)는 그대로
  -v, --verbose                --json과 함께, 백엔드를 stderr에 출력
  -h, --help                   이 도움말

종료 코드: 0 예상대로 · 1 실행이 예측과 다르게 끝났거나 출력을 잃음 · 2 잘못된
사용법이나 설정 · 3 서버에 닿을 수 없거나 응답이 멈춤 · 70 fencelab 자체의
충돌 · 128+N 시그널 N으로 끝남 (130 Ctrl-C, 143 SIGTERM) — docs/exit-codes.md
`,
	"the explorer — a scenario one step at a time, on a real Redis and PostgreSQL\n\nusage:\n  fencelab [ID|FILE] [flags]\n\nOpens lease-overrun in SAFE unless given a catalog id or a scenario file.\nInside, ? lists every key: n the next step of the guided order, 1-9 an\nactor's next call, p pause, t the clock to the next expiry, m SAFE/UNSAFE,\ng the guards, v the other mode beside, c check, x export, q quit.\n\nflags:\n  --mode safe|unsafe           the code the workers run (default safe; m\n                               switches it)\n  --without GUARD[,GUARD…]     SAFE with those guards taken out of its code\n  --trace FILE                 a trace's scenario, mode and schedule as the\n                               guided order (n steps through it)\n  --watch                      reload the scenario FILE whenever it is saved,\n                               and replay the actions taken on the new one\n  --scenarios DIR              also list DIR's scenario files in the picker\n\nexamples:\n  fencelab\n  fencelab stale-read --mode unsafe\n  fencelab lease-overrun --without fence\n  fencelab --watch mine.toml\n  fencelab --trace traces/stale-read-unsafe.trace.json\n\nmore: docs/explorer.md\n": `탐색기 — 실제 Redis와 PostgreSQL에서 시나리오를 한 단계씩

사용법:
  fencelab [ID|FILE] [flags]

카탈로그 id나 시나리오 파일을 주지 않으면 lease-overrun을 SAFE로 엽니다.
안에서 ?를 누르면 모든 키가 나옵니다: n 안내 순서의 다음 단계, 1-9 액터의
다음 호출, p 멈춤, t 다음 만료까지 시계, m SAFE/UNSAFE, g 가드, v 다른 모드를
옆에, c 검사, x 내보내기, q 끝내기.

플래그:
  --mode safe|unsafe           워커가 실행할 코드 (기본 safe. m으로 바꿈)
  --without GUARD[,GUARD…]     그 가드를 코드에서 뺀 SAFE
  --trace FILE                 트레이스의 시나리오, 모드, 스케줄을 안내
                               순서로 (n으로 진행)
  --watch                      시나리오 FILE이 저장될 때마다 다시 읽고,
                               지금까지의 동작을 새 버전에서 재실행
  --scenarios DIR              DIR의 시나리오 파일도 선택기에 표시

예:
  fencelab
  fencelab stale-read --mode unsafe
  fencelab lease-overrun --without fence
  fencelab --watch mine.toml
  fencelab --trace traces/stale-read-unsafe.trace.json

더 보기: docs/explorer.md
`,
	"fencelab list — the scenario catalog: each id, its title and its story\n\nusage:\n  fencelab list\n\nexamples:\n  fencelab list\n  fencelab list --lang ko\n\nmore: docs/scenarios.md\n": `fencelab list — 시나리오 카탈로그: 각 id와 제목과 이야기

사용법:
  fencelab list

예:
  fencelab list
  fencelab list --lang ko

더 보기: docs/scenarios.md
`,
	"fencelab run — run a scenario's guided order headless, and say how it ended\n\nusage:\n  fencelab run ID|FILE|--all [flags]\n\nPrints each run's timeline and result strip. Exit 0 when every run ended as\nits scenario predicts for the mode (for UNSAFE, its anomaly), 1 when one did\nnot.\n\nflags:\n  --all                        every scenario of the catalog\n  --mode safe|unsafe|both      (default safe)\n  --without GUARD[,GUARD…]     SAFE with those guards taken out of its code\n  --json                       one JSON object per scenario × mode\n  -o FILE                      write the run (one scenario, one mode) as a trace\n  --save-trace FILE            another name for -o\n  --keep                       then keep the ephemeral PostgreSQL up for the\n                               psql line it printed, until Enter or Ctrl-C\n\nexamples:\n  fencelab run lease-overrun --mode both\n  fencelab run --all --mode both --json\n  fencelab run lease-overrun --without fence\n  fencelab run lease-overrun -o overrun.trace.json\n\nmore: docs/traces.md\n": `fencelab run — 시나리오의 안내 순서를 화면 없이 실행하고, 어떻게 끝났는지 말함

사용법:
  fencelab run ID|FILE|--all [flags]

실행마다 타임라인과 결과 줄을 출력합니다. 모든 실행이 시나리오가 그 모드에
예측한 대로(UNSAFE는 그 이상 현상으로) 끝나면 종료 코드 0, 하나라도 아니면 1.

플래그:
  --all                        카탈로그의 모든 시나리오
  --mode safe|unsafe|both      (기본 safe)
  --without GUARD[,GUARD…]     그 가드를 코드에서 뺀 SAFE
  --json                       시나리오 × 모드마다 JSON 객체 하나
  -o FILE                      실행(시나리오 하나, 모드 하나)을 트레이스로 저장
  --save-trace FILE            -o의 다른 이름
  --keep                       그 뒤 출력한 psql 줄을 쓸 수 있도록 임시
                               PostgreSQL을 Enter나 Ctrl-C까지 켜 둠

예:
  fencelab run lease-overrun --mode both
  fencelab run --all --mode both --json
  fencelab run lease-overrun --without fence
  fencelab run lease-overrun -o overrun.trace.json

더 보기: docs/traces.md
`,
	"fencelab check — every schedule of a scenario, on the real backends\n\nusage:\n  fencelab check ID|FILE|--all [flags]\n\nRuns every interleaving of the actors' calls (each round trip to Redis or\nPostgreSQL a step of its own), the clock moved to each expiry between any\ntwo; pausing an actor is not scheduling it. A statement is also sent while\nanother actor's write is open, and an actor whose session holds an\nadvisory lock may crash at any round trip. The invariants are checked\nafter every round trip: among them, a lease a call said is its caller's\nis, an outbox row is claimed by one worker at a time, and every moment a\nstep records is on the lab clock (code that read the host's clock\nrecords one months away). Not explored: two statements\nwaiting at once, nor data the seed does not have (docs/checker.md says\nwhat else). A state reached again is not explored again, and of two calls\nthat touch disjoint parts of the lab one order is taken (sleep sets):\nevery state is still reached. SAFE must also make progress, and its\nguided order end as predicted (a scenario file without [predict.safe] is\njudged on its invariants alone: progress is judged only against a\nprediction). Exit 0 when SAFE did all that and UNSAFE\nreached its anomaly; 1 otherwise, and for a search cut short.\n\nflags:\n  --all                        every scenario of the catalog\n  --mode safe|unsafe|both      (default safe)\n  --without GUARD[,GUARD…]     SAFE with those guards taken out of its code\n  --out DIR                    where the counterexample traces go (default: a\n                               new temp dir)\n  --json                       one JSON object per scenario × mode\n  --why                        every state's share of broken futures: each\n                               step's along the counterexample and the guided\n                               order, and the point of no return\n  --max-schedules N            stop after N schedules per scenario × mode\n  --max-memory SIZE            stop a search whose memory passes SIZE (default\n                               2GiB; 512MiB, 8GiB)\n  --allow-bounded              let a search cut short pass (it proves nothing)\n\nexamples:\n  fencelab check lease-overrun --mode both\n  fencelab check --all --mode both\n  fencelab check stale-read --mode unsafe --why --out traces\n  fencelab check --all --mode safe --without owner\n  fencelab check examples/lock-fence.toml --mode both\n\nmore: docs/checker.md (what it explores and what not yet), docs/why.md\n": `fencelab check — 시나리오의 모든 스케줄을 실제 백엔드에서

사용법:
  fencelab check ID|FILE|--all [flags]

액터 호출(Redis나 PostgreSQL로 가는 왕복 하나하나가 단계)의 모든 인터리빙을
실행하고, 어느 두 호출 사이에서든 시계를 각 만료까지 진행합니다. 액터를
멈추는 것은 그 액터를 스케줄하지 않는 것입니다. 다른 액터의 쓰기가 열려
있는 동안 문장을 보내는 경우도, 세션이 어드바이저리 잠금을 쥔 액터가 어느
왕복에서든 죽는 경우도 탐색합니다. 불변식은 왕복마다 검사합니다. 그중에는,
호출이 호출자의 것이라고 답한 리스는 정말 호출자의 것이고, 아웃박스 행은
한 번에 한 워커만 클레임하며, 단계가 기록하는 모든 시각은 랩 시계 위에
있다는 것도 있습니다(호스트 시계를 읽은 코드는
몇 달 떨어진 시각을 기록합니다). 탐색하지 않는 것: 동시에 기다리는 두
문장, 시드에 없는 데이터(나머지는 docs/checker.md). 다시 도달한 상태는 다시
탐색하지 않고, 랩의 겹치지 않는 부분을 건드리는 두 호출은 한 순서만
탐색합니다(sleep set). 그래도 모든 상태에 도달합니다. SAFE는 진척도 있어야
하고, 안내된 순서가 예측대로 끝나야 합니다([predict.safe]가 없는 시나리오
파일은 불변식만으로 판단합니다: 진척은 예측이 있을 때만 판단합니다). SAFE가
그 모두를 지키고 UNSAFE가
이상 현상에 이르면 종료 코드 0, 아니면 1. 도중에 끊긴 탐색도 1.

플래그:
  --all                        카탈로그의 모든 시나리오
  --mode safe|unsafe|both      (기본 safe)
  --without GUARD[,GUARD…]     그 가드를 코드에서 뺀 SAFE
  --out DIR                    반례 트레이스를 둘 곳 (기본: 새 임시
                               디렉터리)
  --json                       시나리오 × 모드마다 JSON 객체 하나
  --why                        모든 상태의 깨진 미래 비율: 반례와 안내
                               순서를 따라 각 단계의 비율과 돌아올 수 없는
                               지점
  --max-schedules N            시나리오 × 모드마다 N개 스케줄에서 멈춤
  --max-memory SIZE            메모리가 SIZE를 넘는 탐색을 멈춤 (기본
                               2GiB. 512MiB, 8GiB)
  --allow-bounded              도중에 끊긴 탐색도 통과 (아무것도 증명하지 않음)

예:
  fencelab check lease-overrun --mode both
  fencelab check --all --mode both
  fencelab check stale-read --mode unsafe --why --out traces
  fencelab check --all --mode safe --without owner
  fencelab check examples/lock-fence.toml --mode both

더 보기: docs/checker.md (무엇을 탐색하고 무엇을 아직 안 하는지), docs/why.md
`,
	"fencelab guards — SAFE's guards, each with what it checks\n\nusage:\n  fencelab guards [ID|FILE] [flags]\n\nSAFE is fourteen checks, each a named guard with one switch: --without takes\nit out of SAFE's code (run, check, stress, export, replay, diff, and g in the\nexplorer), and the matrix shows which scenario needs each. Given a scenario\nfile, the guards its steps define, in its own words where they are its own.\n\nflags:\n  --json                       the guards as JSON\n\nexamples:\n  fencelab guards\n  fencelab guards examples/lock-fence.toml\n  fencelab guards --json --lang ko\n\nmore: docs/guards.md\n": `fencelab guards — SAFE의 가드와 각 가드가 검사하는 것

사용법:
  fencelab guards [ID|FILE] [flags]

SAFE는 열네 가지 검사이고, 하나하나가 스위치 하나를 가진 이름 있는
가드입니다. --without은 그 가드를 SAFE의 코드에서 빼고(run, check, stress,
export, replay, diff, 탐색기의 g), 매트릭스는 어느 시나리오가 어느 가드를
필요로 하는지 보여 줍니다. 시나리오 파일을 주면, 그 파일의 스텝이 정의한
가드를 보여 주고, 파일 자신의 가드는 파일의 말로 설명합니다.

플래그:
  --json                       가드를 JSON으로

예:
  fencelab guards
  fencelab guards examples/lock-fence.toml
  fencelab guards --json --lang ko

더 보기: docs/guards.md
`,
	"fencelab matrix — every scenario in SAFE with each guard removed alone\n\nusage:\n  fencelab matrix [ID|FILE…] [flags]\n\nA cell is ✓ (still safe), · (no step asks that guard), inv N · K (invariant N\nbroke; the shortest counterexample is K actions long) or progress (safe, but\nno schedule did the work). Exit 1 when a guard is needed by no scenario of\nthe catalog's; for your own files, only with --strict.\n\nflags:\n  -o FILE                      also write the matrix as a Markdown table\n  --md FILE                    another name for -o\n  --out DIR                    where the counterexample traces go (default: a\n                               new temp dir)\n  --json                       the matrix as one JSON object\n  --strict                     exit 1 when a guard is needed by none of the\n                               scenarios, for your own files too\n  --max-memory SIZE            stop a search whose memory passes SIZE (default\n                               2GiB; 512MiB, 8GiB): the matrix then stops\n\nexamples:\n  fencelab matrix\n  fencelab matrix -o matrix.md --out traces\n  fencelab matrix examples/lock-fence.toml --strict\n\nmore: docs/guards.md\n": `fencelab matrix — 모든 시나리오를, 가드를 하나씩 뺀 SAFE로

사용법:
  fencelab matrix [ID|FILE…] [flags]

칸은 ✓(여전히 안전), ·(그 가드를 묻는 단계가 없음), inv N · K(불변식 N이
깨짐. 가장 짧은 반례가 동작 K개) 또는 progress(안전하지만 어떤 스케줄도 일을
마치지 못함)입니다. 카탈로그의 어떤 시나리오도 필요로 하지 않는 가드가
있으면 종료 코드 1. 내 파일은 --strict가 있을 때만.

플래그:
  -o FILE                      매트릭스를 Markdown 표로도 씀
  --md FILE                    -o의 다른 이름
  --out DIR                    반례 트레이스를 둘 곳 (기본: 새 임시
                               디렉터리)
  --json                       매트릭스를 JSON 객체 하나로
  --strict                     어떤 시나리오도 필요로 하지 않는 가드가 있으면
                               종료 코드 1, 내 파일에도
  --max-memory SIZE            메모리가 SIZE를 넘는 탐색을 멈춤 (기본
                               2GiB. 512MiB, 8GiB): 그러면 매트릭스도 멈춤

예:
  fencelab matrix
  fencelab matrix -o matrix.md --out traces
  fencelab matrix examples/lock-fence.toml --strict

더 보기: docs/guards.md
`,
	"fencelab replay — run a trace again, and compare\n\nusage:\n  fencelab replay TRACE [flags]\n\nRuns the trace's schedule in its scenario and mode and compares each event's\nactor, code, state, detail and guard, and the result. Exit 0 when all is the\nsame, 1 when anything differs (each difference is listed).\n\nflags:\n  --json                       the replayed run's result as JSON\n  --without GUARD[,GUARD…]     replay on SAFE without those guards instead of\n                               the trace's own set: the differences are what\n                               they were doing\n\nexamples:\n  fencelab replay traces/stale-read-unsafe.trace.json\n  fencelab replay safe.trace.json --without fence\n\nmore: docs/traces.md\n": `fencelab replay — 트레이스를 다시 실행하고 비교

사용법:
  fencelab replay TRACE [flags]

트레이스의 스케줄을 그 시나리오와 모드로 실행하고, 각 이벤트의 액터, 코드,
상태, 세부 내용, 가드와 결과를 비교합니다. 모두 같으면 종료 코드 0, 다른
것이 있으면 1 (차이를 하나하나 나열).

플래그:
  --json                       다시 실행한 결과를 JSON으로
  --without GUARD[,GUARD…]     트레이스의 가드 집합 대신 그 가드를 뺀
                               SAFE로 재실행: 차이가 곧 그 가드가 하던 일

예:
  fencelab replay traces/stale-read-unsafe.trace.json
  fencelab replay safe.trace.json --without fence

더 보기: docs/traces.md
`,
	"fencelab export — a run as a document, recorded on the backends\n\nusage:\n  fencelab export TRACE|ID|FILE --to FORMAT [flags]\n\nAn ID or a FILE exports its guided order; a trace its own schedule and mode.\nWhat each action did is read from the backends, not from the predictions.\n\nflags:\n  --to md|mermaid|cast|tape|gif|svg\n                               a Markdown page, a Mermaid sequence diagram, an\n                               asciinema cast of the explorer, a VHS tape, the\n                               explorer as a GIF or as an animated SVG\n  -o, --output FILE            where (default: standard output, but never a GIF\n                               to a terminal; a tape of an ID also writes the\n                               trace it plays beside it)\n  --mode safe|unsafe           an ID's guided order in that mode (default safe)\n  --without GUARD[,GUARD…]     SAFE with those guards taken out of its code\n  --size 100x30                the terminal of a cast, tape, GIF or SVG\n\nexamples:\n  fencelab export lease-overrun --to md -o lease-overrun.md\n  fencelab export lease-overrun --mode unsafe --to mermaid\n  fencelab export lease-overrun --to gif -o lease-overrun.gif\n  fencelab export my-run.trace.json --to cast -o my-run.cast\n\nmore: docs/exports.md\n": `fencelab export — 실행을 문서로, 백엔드에서 기록

사용법:
  fencelab export TRACE|ID|FILE --to FORMAT [flags]

ID나 FILE은 그 안내 순서를, 트레이스는 자기 스케줄과 모드를 내보냅니다.
각 동작이 한 일은 예측이 아니라 백엔드에서 읽습니다.

플래그:
  --to md|mermaid|cast|tape|gif|svg
                               Markdown 페이지, Mermaid 시퀀스 다이어그램,
                               탐색기의 asciinema 녹화, VHS 테이프, 탐색기의
                               GIF 또는 움직이는 SVG
  -o, --output FILE            쓸 곳 (기본: 표준 출력. 단 GIF는 터미널로
                               쓰지 않음. ID의 테이프는 재생할 트레이스도
                               옆에 씀)
  --mode safe|unsafe           ID의 안내 순서를 그 모드로 (기본 safe)
  --without GUARD[,GUARD…]     그 가드를 코드에서 뺀 SAFE
  --size 100x30                캐스트, 테이프, GIF, SVG의 터미널 크기

예:
  fencelab export lease-overrun --to md -o lease-overrun.md
  fencelab export lease-overrun --mode unsafe --to mermaid
  fencelab export lease-overrun --to gif -o lease-overrun.gif
  fencelab export my-run.trace.json --to cast -o my-run.cast

더 보기: docs/exports.md
`,
	"fencelab diff — one schedule in SAFE beside UNSAFE, and where they part\n\nusage:\n  fencelab diff ID|FILE|TRACE [flags]\n\nRuns the guided order (or a trace's schedule) in SAFE and in UNSAFE — or in\nSAFE and in SAFE without some guards — and prints the two timelines side by\nside, aligned by action. ▶ marks the first action whose outcome differs, with\nthe guard that decided it (found by running SAFE without each guard).\n\nflags:\n  --mode safe|unsafe           whose guided order (default safe)\n  --without GUARD[,GUARD…]     SAFE beside SAFE without those guards\n  --to md|mermaid              a Markdown page (a two-column table, and a\n                               sequence diagram a side), or one sequence\n                               diagram of both\n  --json                       the two runs as one JSON object\n\nexamples:\n  fencelab diff lease-overrun\n  fencelab diff stale-read --without read-in-tx\n  fencelab diff lease-overrun --to md > lease-overrun-diff.md\n\nmore: docs/why.md\n": `fencelab diff — 한 스케줄을 SAFE와 UNSAFE로 나란히, 그리고 갈라지는 곳

사용법:
  fencelab diff ID|FILE|TRACE [flags]

안내 순서(또는 트레이스의 스케줄)를 SAFE와 UNSAFE로 — 또는 SAFE와 가드를 뺀
SAFE로 — 실행하고, 두 타임라인을 동작별로 맞춰 나란히 출력합니다. ▶는
결과가 처음 달라지는 동작과 그것을 가른 가드(가드를 하나씩 뺀 SAFE를 실행해
찾음)를 표시합니다.

플래그:
  --mode safe|unsafe           누구의 안내 순서인지 (기본 safe)
  --without GUARD[,GUARD…]     SAFE와 그 가드를 뺀 SAFE를 나란히
  --to md|mermaid              Markdown 페이지(두 열 표와 쪽마다 시퀀스
                               다이어그램), 또는 둘을 한 시퀀스 다이어그램으로
  --json                       두 실행을 JSON 객체 하나로

예:
  fencelab diff lease-overrun
  fencelab diff stale-read --without read-in-tx
  fencelab diff lease-overrun --to md > lease-overrun-diff.md

더 보기: docs/why.md
`,
	"fencelab talk — give a talk from a script of scenes\n\nusage:\n  fencelab talk SCRIPT\n\nThe script's scenes play in order on the real backends, its captions large\nwhere the narration goes. Space, ., → and PgDn go on, ← and PgUp go back, b\nblanks the screen; every other key is the explorer's. A Korean --lang (or\nlocale) shows the script's Korean texts.\n\nexamples:\n  fencelab talk talks/fencing.toml\n  fencelab talk talks/fencing.toml --lang ko\n\nmore: docs/talks.md\n": `fencelab talk — 장면 스크립트로 발표하기

사용법:
  fencelab talk SCRIPT

스크립트의 장면이 실제 백엔드에서 차례로 재생되고, 자막은 설명 자리에 크게
나옵니다. space, ., →, PgDn은 다음, ←와 PgUp은 뒤로, b는 화면 가리기.
나머지 키는 탐색기의 키입니다. 한국어 --lang(또는 로캘)이면 스크립트의
한국어 텍스트를 보여 줍니다.

예:
  fencelab talk talks/fencing.toml
  fencelab talk talks/fencing.toml --lang ko

더 보기: docs/talks.md
`,
	"fencelab scenario — scenario files: start one, compile it, name its steps\n\nusage:\n  fencelab scenario show ID           print a catalog scenario's file (a start\n                                      for your own)\n  fencelab scenario check FILE…       compile scenario files; each mistake is\n                                      one line, FILE:LINE: what, exit 2\n  fencelab scenario steps             every step a file's programs can name\n\nA file goes wherever an id goes: the explorer, run, check, matrix, export,\ndiff, and a talk's scene. check compiles its Lua, and where it has SQL sets\nup its schema on PostgreSQL (the ephemeral server, or --pg) and has the\nserver parse every statement of its steps: a typo or an unknown column is\nfound before anything runs.\n\nexamples:\n  fencelab scenario show lease-overrun > mine.toml\n  fencelab scenario check mine.toml\n  fencelab scenario steps\n\nmore: docs/scenarios.md, docs/code.md\n": `fencelab scenario — 시나리오 파일: 시작하고, 컴파일하고, 단계를 고르기

사용법:
  fencelab scenario show ID           카탈로그 시나리오의 파일 출력 (내
                                      시나리오의 출발점)
  fencelab scenario check FILE…       시나리오 파일 컴파일. 실수마다 한 줄:
                                      FILE:LINE: 무엇, 종료 코드 2
  fencelab scenario steps             파일의 프로그램에 쓸 수 있는 모든 단계

파일은 id가 가는 곳 어디에나 갑니다: 탐색기, run, check, matrix, export,
diff, 발표의 장면. check는 Lua를 컴파일하고, SQL이 있으면 PostgreSQL(임시
서버 또는 --pg)에 스키마를 만들어 스텝의 모든 문장을 서버가 파싱하게
합니다: 오타나 없는 컬럼은 아무것도 실행하기 전에 드러납니다.

예:
  fencelab scenario show lease-overrun > mine.toml
  fencelab scenario check mine.toml
  fencelab scenario steps

더 보기: docs/scenarios.md, docs/code.md
`,
	"fencelab race — the job race of two requests, forced, on Redis alone\n\nusage:\n  fencelab race [flags]\n\nTwo requests for one target both look for a running job before either makes\none. The race is forced on N key sets, then K truly concurrent pairs run\nfree; every figure is counted from the Redis keys afterwards. Exit 1 when an\ninvariant of the Lua side did not hold. It takes no --pg.\n\nflags:\n  --n N                        key sets for the forced interleaving (default\n                               100, at most 10,000)\n  --free K                     also K free-running pairs (default 0)\n\nexamples:\n  fencelab race\n  fencelab race --n 7 --free 200\n\nmore: docs/stress.md\n": `fencelab race — 두 요청의 잡 경쟁을 Redis만으로 강제로

사용법:
  fencelab race [flags]

한 대상에 대한 두 요청이, 어느 쪽도 만들기 전에 둘 다 실행 중인 잡을
찾습니다. 경쟁을 N개 키 세트에서 강제하고, 이어서 진짜로 동시에 도는 쌍
K개를 풀어 둡니다. 모든 수치는 끝난 뒤 Redis 키에서 셉니다. Lua 쪽의
불변식이 지켜지지 않으면 종료 코드 1. --pg는 받지 않습니다.

플래그:
  --n N                        강제 인터리빙의 키 세트 수 (기본 100,
                               최대 10,000)
  --free K                     자유 실행 쌍 K개도 (기본 0)

예:
  fencelab race
  fencelab race --n 7 --free 200

더 보기: docs/stress.md
`,
	"fencelab stress — many real workers contend for one resource\n\nusage:\n  fencelab stress [flags]\n\nReal TTLs on the wall clock and real pauses: every --pause-every one worker\nfreezes right after it takes the lease. The rows and keys are checked, and\nthe history for linearizability.\nThe lease TTL is 500ms unless --lease-ttl says; exit 0 when SAFE held or\nUNSAFE broke, 1 if not.\n\nflags:\n  --workers N                  how many (default 8, at most 200)\n  --duration D                 how long (default 10s)\n  --ops N                      or how many writes\n  --pause-every D              how often a worker freezes (default 2s; 0: never)\n  --pause D                    how long (default: twice the lease TTL, so 1s)\n  --mode safe|unsafe           (default safe)\n  --without GUARD[,GUARD…]     SAFE without those guards (fence, read-in-tx,\n                               owner, … — those a stress worker asks)\n  --procs                      every worker a process, frozen with SIGSTOP\n  -o FILE                      write Porcupine's view of the history (a page)\n  --html FILE                  another name for -o\n  --json                       the report as one JSON object\n  --shared NAME                contend for one resource with every run of\n                               --shared NAME, on any machine (--redis, --pg)\n\nexamples:\n  fencelab stress\n  fencelab stress --mode unsafe --pause-every 1s\n  fencelab stress --procs --workers 16 -o history.html\n\nmore: docs/stress.md\n": `fencelab stress — 많은 실제 워커가 하나의 리소스를 두고 다툼

사용법:
  fencelab stress [flags]

실제 시계의 실제 TTL과 실제 멈춤: --pause-every마다 워커 하나가 리스를 받은
직후 멈춥니다. 행과 키를 검사하고, 이력의 선형화 가능성을 검사합니다.
리스 TTL은 --lease-ttl이 없으면 500ms. 종료 코드 0: SAFE가 지켜짐 또는
UNSAFE가 깨짐, 아니면 1.

플래그:
  --workers N                  몇 개 (기본 8, 최대 200)
  --duration D                 얼마 동안 (기본 10s)
  --ops N                      또는 쓰기 몇 번
  --pause-every D              워커를 얼마나 자주 멈출지 (기본 2s.
                               0: 멈추지 않음)
  --pause D                    얼마 동안 (기본: 리스 TTL의 두 배, 즉 1s)
  --mode safe|unsafe           (기본 safe)
  --without GUARD[,GUARD…]     그 가드를 뺀 SAFE (fence, read-in-tx, owner, …
                               — 스트레스 워커가 묻는 것)
  --procs                      워커마다 프로세스 하나, SIGSTOP으로 멈춤
  -o FILE                      이력을 Porcupine으로 본 페이지를 씀
  --html FILE                  -o의 다른 이름
  --json                       보고서를 JSON 객체 하나로
  --shared NAME                --shared NAME인 모든 실행과, 어느 머신에서든,
                               하나의 리소스를 두고 다툼 (--redis, --pg)

예:
  fencelab stress
  fencelab stress --mode unsafe --pause-every 1s
  fencelab stress --procs --workers 16 -o history.html

더 보기: docs/stress.md
`,
	"fencelab bench — what fencelab costs beside the floor under it\n\nusage:\n  fencelab bench [flags]\n\nEach figure beside its floor, the two run one after the other, medians, and\nthe ratio, which is what to read: the start, the explorer's first frame,\nfirst step and step, check's states a second, and stress's commits beside\npgbench and a lease loop (at 1 worker also beside a bare loop of its own\ncalls). It takes a few minutes, on fencelab's own backends only.\n\nflags:\n  --runs N                     how often each side of a pair runs (default 5)\n  --json                       the pairs as JSON\n\nexamples:\n  fencelab bench\n  fencelab bench --runs 3 --json\n\nmore: docs/performance.md\n": `fencelab bench — fencelab이 그 아래 바닥에 더하는 비용

사용법:
  fencelab bench [flags]

수치마다 그 바닥을 곁에 두고, 둘을 번갈아 실행해 중앙값과 비율을 냅니다.
읽을 것은 비율입니다: 시작, 탐색기의 첫 화면과 첫 단계와 한 단계, check의
초당 상태 수, pgbench와 리스 루프 곁의 stress 커밋 수(워커 1개일 때는 같은
호출만 도는 맨 루프 곁에서도). 몇 분 걸리고, fencelab 자체의 백엔드에서만
돕니다.

플래그:
  --runs N                     짝의 각 쪽을 몇 번 실행할지 (기본 5)
  --json                       짝들을 JSON으로

예:
  fencelab bench
  fencelab bench --runs 3 --json

더 보기: docs/performance.md
`,
	"fencelab version — the version and commit this was built from\n\nusage:\n  fencelab version\n\nexamples:\n  fencelab version\n  fencelab --version\n": `fencelab version — 이 빌드의 버전과 커밋

사용법:
  fencelab version

예:
  fencelab version
  fencelab --version
`,
	"-o and --%s both name the file to write: give one": "-o와 --%s는 둘 다 쓸 파일을 가리킵니다: 하나만 주세요",

	// stress: many workers, one resource.
	"%v (fencelab --help)":                                 "%v (fencelab --help)",
	"SAFE did not hold under stress: see the checks above": "SAFE가 부하에서 지켜지지 않았습니다: 위의 검사를 보세요",
	"goroutines":                                                                       "고루틴",
	"processes, paused with SIGSTOP":                                                   "프로세스, SIGSTOP으로 멈춤",
	"no pauses":                                                                        "멈춤 없음",
	"a %s pause every %s":                                                              "%[2]s마다 %[1]s 멈춤",
	"%s (embedded, its TTLs on the wall clock)":                                        "%s (내장. TTL은 실제 시계로 흐름)",
	"interrupted after %s: what ran is checked below\n":                                "%s 뒤에 중단됨: 실행된 만큼 아래에서 검사합니다\n",
	"\ninvariants, from the rows and keys:\n":                                          "\n불변식, 행과 키에서 읽은 것:\n",
	"SAFE did NOT hold — not as expected\n":                                            "SAFE가 지켜지지 않았습니다 — 예상과 다름\n",
	"stress takes no arguments, got %q (fencelab stress --help)":                       "stress는 인수를 받지 않습니다. 받은 값: %q (fencelab stress --help)",
	"--workers must be between 1 and %d, got %d":                                       "--workers는 1과 %d 사이여야 합니다. 받은 값: %d",
	"give --duration or --ops, not both":                                               "--duration과 --ops 중 하나만 주세요",
	"--duration must be between 1ms and %s, got %s":                                    "--duration은 1ms와 %s 사이여야 합니다. 받은 값: %s",
	"--ops must be between 1 and %d, got %d":                                           "--ops는 1과 %d 사이여야 합니다. 받은 값: %d",
	"--pause-every must be between 0 (no pauses) and %s, got %s":                       "--pause-every는 0(멈춤 없음)과 %s 사이여야 합니다. 받은 값: %s",
	"--mode %q: stress runs safe or unsafe":                                            "--mode %q: stress는 safe 또는 unsafe로 실행합니다",
	"--procs freezes worker processes with SIGSTOP, which this platform does not have": "--procs는 SIGSTOP으로 워커 프로세스를 멈추는데, 이 플랫폼에는 그것이 없습니다",
	"--pause must be between 1ms and %s, got %s":                                       "--pause는 1ms와 %s 사이여야 합니다. 받은 값: %s",
	"a page fencelab stress wrote":                                                     "fencelab stress가 쓴 페이지",
	"%s's write with token %d was accepted at %s, though token %d had been accepted before this stretch":        "%s의 토큰 %d 쓰기가 %s에 수락되었습니다. 이 구간 전에 이미 토큰 %d이(가) 수락되었는데도",
	"%s's write with token %d was accepted at %s, after %s's token %d had been accepted at %s":                  "%[1]s의 토큰 %[2]d 쓰기가 %[3]s에 수락되었습니다. %[6]s에 %[4]s의 토큰 %[5]d이(가) 수락된 뒤에",
	"the %d reads and writes between %s and %s have no order a fenced register allows":                          "%[2]s과(와) %[3]s 사이의 읽기와 쓰기 %[1]d개에는 펜싱된 레지스터가 허락하는 순서가 없습니다",
	"tokens accepted strictly increase in commit order":                                                         "수락된 토큰은 커밋 순서대로 엄격히 커진다",
	"stale commits: %d; the first: %s committed token %d after %s's %d":                                         "낡은 커밋 %d건. 첫 번째: %s이(가) %[4]s의 %[5]d 뒤에 토큰 %[3]d을(를) 커밋했습니다",
	"every commit has its one outbox row, no outbox row lacks its commit, and the checkpoint is the resource's": "모든 커밋에는 아웃박스 행이 하나씩 있고, 커밋 없는 아웃박스 행은 없으며, 체크포인트는 리소스와 같다",
	"commits without their outbox row: %d, outbox rows without a commit: %d, the checkpoint disagrees: %t":      "아웃박스 행 없는 커밋 %d건, 커밋 없는 아웃박스 행 %d건, 체크포인트 불일치: %t",
	"no lost update: every commit was computed from the value the row held":                                     "잃어버린 갱신 없음: 모든 커밋은 행이 가진 값으로 계산되었다",
	"lost updates: %d; the first: %s wrote %d computed from %d, but the row held %d":                            "잃어버린 갱신 %d건. 첫 번째: %s이(가) %[4]d에서 계산한 %[3]d을(를) 썼지만, 행에는 %[5]d이(가) 있었습니다",
	"the summary counts the accepted writes":                                                                    "요약은 수락된 쓰기의 수와 같다",
	"Redis's counter is at or above every token accepted, and the lease is free at the end":                     "Redis의 카운터는 수락된 모든 토큰 이상이고, 끝에 리스는 비어 있다",
	"counter %d, last accepted fence %d, lease %q":                                                              "카운터 %d, 마지막으로 받아들인 펜스 %d, 리스 %q",
	"worker is a process of fencelab stress --procs, which starts it; run fencelab stress --procs":              "worker는 fencelab stress --procs가 시작하는 프로세스입니다. fencelab stress --procs를 실행하세요",
	"--shared %q: a name of lowercase letters, digits and dashes, at most 40":                                   "--shared %q: 소문자, 숫자, 대시로 된 이름, 최대 40자",
	"--shared shares a resource with runs on other machines: give the --redis and --pg they all reach":          "--shared는 다른 머신의 실행과 리소스를 나눕니다: 모두가 닿는 --redis와 --pg를 주세요",
	"Redis's counter is at or above every token accepted":                                                       "Redis의 카운터는 수락된 모든 토큰 이상이다",
	"request %s":     "요청 %s",
	"worker of %s":   "%s의 워커",
	"status poller":  "상태 폴러",
	"apply API":      "반영 API",
	"process crash":  "프로세스 중단",
	"operator":       "운영자",
	"outbox worker":  "아웃박스 워커",
	"worker %s (%s)": "워커 %s (%s)",
	" · → forward · an action continues from here and drops the later ones": " · → 앞으로 · 여기서 동작하면 이어서 진행하고 그 뒤의 기록은 버립니다",
	"acquire refused: Redis lost the fencing history (%s)":                  "획득 거부: Redis가 펜싱 이력을 잃었습니다 (%s)",
	"no guard (UNSAFE): unconditional UPDATE":                               "가드 없음 (UNSAFE): 무조건 UPDATE",
	"postgres %d (ephemeral)":                                               "postgres %d (임시)",
	"%s worker":                                                             "워커 %s개",
	"%s workers":                                                            "워커 %s개",
	"%s write":                                                              "쓰기 %s번",
	"%s writes":                                                             "쓰기 %s번",
	"%s read":                                                               "읽기 %s번",
	"%s reads":                                                              "읽기 %s번",
	"%s segment":                                                            "구간 %s개",
	"%s segments":                                                           "구간 %s개",
	"stress · %s · %s (%s) · %s\n":                                          "stress · %s · %s (%s) · %s\n",
	"          lease TTL %s · %s\n":                                         "          리스 TTL %s · %s\n",
	"          rejected %s: %s":                                             "          거절 %s번: %s",
	"pauses    %s · leases that ran out under their holder %s\n":                     "멈춤      %s번 · 가진 쪽 아래에서 끝난 리스 %s개\n",
	"          tries at a lease another worker held %s\n":                            "          다른 워커가 가진 리스를 노린 시도 %s번\n",
	"commit    p50 %s · p99 %s (an accepted write's transaction)\n":                  "커밋      p50 %s · p99 %s (수락된 쓰기의 트랜잭션)\n",
	"\nlinearizability (Porcupine, a fenced register):\n":                            "\n선형화 가능성 (Porcupine, 펜싱된 레지스터):\n",
	"  ✗ NOT linearizable: %s of %s, with no order a fenced register allows":         "  ✗ 선형화할 수 없음: %[2]s 중 %[1]s개에 펜싱된 레지스터가 허락하는 순서가 없음",
	"  ? undecided: Porcupine ran out of time on %s of %s":                           "  ? 판정 못 함: Porcupine이 %[2]s 중 %[1]s개에서 시간을 다 씀",
	"  ✓ linearizable: %s, each reading under its row lock, in %s":                   "  ✓ 선형화 가능: %s, 각각 행 잠금 아래에서 읽음, %s",
	"  ✓ linearizable: %s and %s, in %s":                                             "  ✓ 선형화 가능: %s, %s, %s",
	"UNSAFE showed no violation — not as expected\n":                                 "UNSAFE에서 위반이 없었습니다 — 예상과 다름\n",
	"--redis %s: %v (want redis://HOST:PORT/DB, or a cluster's redis://H1:P1,H2:P2)": "--redis %s: %v (redis://HOST:PORT/DB, 클러스터는 redis://H1:P1,H2:P2 형식이어야 합니다)",
	"unknown flag %s (fencelab --help)":                                              "알 수 없는 플래그 %s (fencelab --help)",
	"unknown flag -%s in %s (fencelab --help)":                                       "알 수 없는 플래그 -%s, %s 안에서 (fencelab --help)",
	"%s needs a value (fencelab --help)":                                             "%s에는 값이 필요합니다 (fencelab --help)",
	"%s %q: %s (fencelab --help)":                                                    "%s %q: %s (fencelab --help)",
	"an empty address in %q":                                                         "%q 안에 빈 주소가 있습니다",
	"a Redis Cluster has database 0 only":                                            "Redis Cluster에는 데이터베이스 0만 있습니다",
	"a Redis Cluster's nodes are HOST:PORT addresses":                                "Redis Cluster의 노드는 HOST:PORT 주소입니다",
	"PostgreSQL refused the connection: %s: %s (SQLSTATE %s)":                        "PostgreSQL이 연결을 거부했습니다: %s: %s (SQLSTATE %s)",
	"%w at %d/%d":                 "%w (%d/%d에서)",
	"is paused":                   "멈춰 있습니다",
	"%s %w (%s): resume it first": "%s은(는) %w (%s). 먼저 재개하세요",
	"has finished its program":    "프로그램을 마쳤습니다",
	"not predicted":               "예측하지 않음",
	"\nrun: %d scenario × mode in %.1fs: %d as predicted, %d not\n":                                              "\nrun: 시나리오 × 모드 %d개, %.1f초: 예측대로 %d개, 아님 %d개\n",
	"check: %d scenario × mode in %.1fs, %s states: %d as claimed, %d not; invariants held in %d, broke in %d\n": "check: 시나리오 × 모드 %d개, %.1f초, 상태 %s개: 주장대로 %d개, 아님 %d개; 불변식 유지 %d개, 깨짐 %d개\n",
	"waits for a lock another actor's transaction holds":                                                         "다른 액터의 트랜잭션이 쥔 잠금을 기다리는 중입니다",
	"inside its call; next: %s":                         "호출 도중, 다음 왕복: %s",
	"%s waits for a lock another transaction holds: %s": "%s은(는) 다른 트랜잭션이 쥔 잠금을 기다립니다: %s",
	"no such actor":                                     "그런 액터가 없습니다",
	"the guided order is over":                          "안내 순서가 끝났습니다",
	"nothing to undo":                                   "되돌릴 것이 없습니다",
	"no key in Redis has a TTL":                         "Redis에 TTL이 있는 키가 없습니다",
	"you left the guided order":                         "안내 순서를 벗어났습니다",
	"unknown mode %q (want safe, unsafe or both — both for run and check only)": "알 수 없는 모드 %q (safe, unsafe, both 중 하나 — both는 run과 check에서만)",
	"redisstore: reach %s: %w":  "redisstore: %s에 닿기: %w",
	"Redis refused":             "Redis가 거부했습니다",
	"node %s: %w":               "노드 %s: %w",
	"Redis did not answer":      "Redis가 응답하지 않았습니다",
	"PostgreSQL did not answer": "PostgreSQL이 응답하지 않았습니다",
	"fencelab: warning: --without %s: no step asked for it in %s, so SAFE ran as it does with it\n": "fencelab: 경고: --without %s: %s에서 이 가드를 묻는 단계가 없었으므로, SAFE는 가드가 있을 때와 똑같이 실행되었습니다\n",
	"the guided order": "안내 순서",
	"any schedule":     "어떤 스케줄",
	"the run's keys %s* are left on %s (a fencelab run there deletes them once %s have passed): %w": "이 실행의 키 %s*가 %s에 남았습니다 (%s가 지난 뒤 그곳의 fencelab 실행이 지웁니다): %w",
	"Redis went away":                               "Redis와의 연결이 끊겼습니다",
	"%w (stopped or restarted?)":                    "%w (멈췄거나 다시 시작됐나요?)",
	"%w within %s (stopped, frozen or overloaded?)": "%[2]s 안에 %[1]w (멈췄거나, 얼었거나, 과부하?)",
	"it hung up without an answer (%w): not a Redis server's socket, or one with no room for another client":                        "응답 없이 연결을 끊었습니다 (%w): Redis 서버의 소켓이 아니거나, 클라이언트를 더 받을 수 없는 서버입니다",
	"it hung up without an answer (%w): not a Redis server, one that does not speak TLS, or one with no room for another client":    "응답 없이 연결을 끊었습니다 (%w): Redis 서버가 아니거나, TLS를 쓰지 않는 서버이거나, 클라이언트를 더 받을 수 없는 서버입니다",
	"it hung up without an answer (%w): not a Redis server, one that wants TLS (rediss://), or one with no room for another client": "응답 없이 연결을 끊었습니다 (%w): Redis 서버가 아니거나, TLS를 요구하는 서버이거나(rediss://), 클라이언트를 더 받을 수 없는 서버입니다",
	"%w: %s is not a Redis Cluster node (cluster support is off)":                                                                   "%w: %s은(는) Redis Cluster 노드가 아닙니다 (클러스터 기능이 꺼져 있음)",
	"%w: the server is a Redis Cluster node, and a cluster has database 0 only":                                                     "%w: 서버가 Redis Cluster 노드이고, 클러스터에는 데이터베이스 0만 있습니다",
	"%s · %s: %s, %s, %s pruned (%s, %.1fs, %s states/s)\n":                                                                         "%s · %s: %s, %s, 가지치기 %s개 (%s, %.1f초, 초당 상태 %s개)\n",
	"%s schedule":        "스케줄 %s개",
	"%s schedules":       "스케줄 %s개",
	"%s distinct state":  "서로 다른 상태 %s개",
	"%s distinct states": "서로 다른 상태 %s개",
	"stress %s · %s accepted/s · %s accepted · rejected %s · pauses %d": "stress %s · 초당 %s 수락 · %s 수락 · 거절 %s · 멈춤 %d번",
	"%s written: Porcupine's view of %s of the history":                 "%s 저장: 이력의 %s을(를) Porcupine으로 본 화면",
	"UNSAFE showed no violation: without pauses longer than the lease, the lease alone kept the writers apart (try --pause-every 1s, and a --pause above the lease TTL, %s)": "UNSAFE에서 위반이 없었습니다: 리스보다 긴 멈춤이 없으면 리스만으로도 쓰는 쪽들이 갈라집니다 (--pause-every 1s와, 리스 TTL %s보다 긴 --pause를 써 보세요)",
	"UNSAFE showed no violation: no worker overtook a paused one (try more --workers, or a longer --duration)":                                                               "UNSAFE에서 위반이 없었습니다: 멈춘 워커를 앞지른 워커가 없었습니다 (--workers를 늘리거나 --duration을 길게 해 보세요)",
	"shared    resource stress:%s, with every run of --shared %s: the rows are all the runs', the history only this run's":                                                   "공유      리소스 stress:%s, --shared %s인 모든 실행과 함께: 행은 모든 실행의 것, 이력은 이 실행의 것만",
	"redis     %s": "redis     %s",
	"writes    %s in %s: %s accepted (%s a second)\n":      "쓰기      %[2]s 동안 %[1]s번: %[3]s번 수락 (초당 %[4]s)\n",
	"summary %s, accepted writes %s":                       "요약 %s, 수락된 쓰기 %s",
	"want a duration with its unit, like 30s, 500ms or 5m": "단위가 있는 시간이어야 합니다. 예: 30s, 500ms, 5m",
	"want a whole number":                                  "정수여야 합니다",

	// Guards, the matrix, progress, calls, and the scenarios that need each guard.

	"  %s broke an invariant: this scenario needs what was removed\n":                                                             "  %s이(가) 불변식을 깼습니다: 이 시나리오에는 뺀 것이 필요합니다\n",
	"  %s kept every invariant but made no progress: no complete schedule, or not the guided order, did the work\n":               "  %s은(는) 모든 불변식을 지켰지만 진척이 없습니다: 완료된 스케줄이나 안내 순서가 일을 끝내지 못했습니다\n",
	"  %s still held: this scenario does not need what was removed\n":                                                             "  %s도 여전히 지켜졌습니다: 이 시나리오에는 뺀 것이 필요 없습니다\n",
	"  NOT as the catalog claims: SAFE made no progress — no complete schedule, or not the guided order, did the work\n":          "  카탈로그의 주장과 다름: SAFE에 진척이 없음 — 완료된 스케줄이나 안내 순서가 일을 끝내지 못했습니다\n",
	"  no break found in %s (bounded): not a proof%s\n":                                                                           "  %s에서 깨짐을 찾지 못함 (제한된 탐색): 증명이 아닙니다%s\n",
	"  progress: %s of %s complete schedules reached the expected %d; %s ended with an actor left waiting; the guided order %s\n": "  진척: 완료된 스케줄 %[2]s개 중 %[1]s개가 기대값 %[3]d에 이르렀고, %[4]s개는 기다리는 액터를 남긴 채 끝남. 안내 순서는 %[5]s\n",
	"  — SAFE's promise broken without %s: an invariant broke\n":                                                                  "  — %s 없이 SAFE의 약속이 깨짐: 불변식이 깨졌습니다\n",
	"  — SAFE's promise broken without %s: the expected value was not reached\n":                                                  "  — %s 없이 SAFE의 약속이 깨짐: 기대값에 이르지 못했습니다\n",
	"  — SAFE's promise kept without %s: every invariant held, the expected value reached\n":                                      "  — %s 없이도 SAFE의 약속이 지켜짐: 모든 불변식이 지켜지고 기대값에 이르렀습니다\n",
	" and its outbox row": "과 아웃박스 행",
	"%s RUNNING past its deadline (createdAt + 10m = %s): the poller fails it next":                                                        "%s이(가) 마감(createdAt + 10m = %s)을 넘기고 RUNNING: 폴러가 다음 호출에서 실패 처리합니다",
	"%s RUNNING past its deadline: nothing fails it (the deadline guard is removed)":                                                       "%s이(가) 마감을 넘기고 RUNNING: 아무도 실패 처리하지 않습니다 (deadline 가드를 뺌)",
	"%s RUNNING, no heartbeat for 10m: the poller fails it next":                                                                           "%s RUNNING, 10분 동안 하트비트 없음: 폴러가 다음 호출에서 실패 처리합니다",
	"%s back: the %d actions so far replayed with it":                                                                                      "%s 복귀: 지금까지의 동작 %d개를 가드와 함께 다시 실행했습니다",
	"%s commits summary = %s %s, %s":                                                                                                       "%s이(가) %[3]s 커밋합니다: summary = %[2]s. %[4]s",
	"%s committed token %d a second time":                                                                                                  "%s이(가) 토큰 %d을(를) 두 번째로 커밋했습니다",
	"%s did NOT hold: the run needed what was removed\n":                                                                                   "%s은(는) 지켜지지 않았습니다: 이 실행에는 뺀 것이 필요했습니다\n",
	"%s did not hold under stress: see the checks above":                                                                                   "%s은(는) 스트레스에서 지켜지지 않았습니다: 위의 검사를 보세요",
	"%s finds the running key pointing at %s; whether that job still runs is a second read, and anything can happen in between.":           "%s은(는) 실행 키가 %s을(를) 가리키는 것을 봅니다. 그 잡이 아직 도는지는 두 번째 읽기이고, 그 사이에 무슨 일이든 일어날 수 있습니다.",
	"%s has fence %d but no committed execution: its business row changed without one":                                                     "%s의 펜스는 %d인데 커밋된 실행이 없습니다: 비즈니스 행이 실행 없이 바뀌었습니다",
	"%s held: every invariant, progress, and the history is linearizable — the run did not need what was removed\n":                        "%s이(가) 지켜짐: 모든 불변식, 진척, 이력의 선형화 가능성 — 이 실행에는 뺀 것이 필요 없었습니다\n",
	"%s is %s: %s will create a job of its own":                                                                                            "%s은(는) %s: %s이(가) 자기 잡을 만듭니다",
	"%s is marked SUCCESS although it no longer holds the running key: nothing checked whose run this was.":                                "%s은(는) 더 이상 실행 키를 갖지 않는데도 SUCCESS가 됩니다: 누구의 실행인지 아무것도 확인하지 않았습니다.",
	"%s records the execution of %s (%s)%s, in a transaction of its own":                                                                   "%s이(가) %s의 실행(%s)%s을(를) 별도의 트랜잭션으로 기록합니다",
	"%s removed: the %d actions so far replayed without it":                                                                                "%s 제거: 지금까지의 동작 %d개를 가드 없이 다시 실행했습니다",
	"%s renews its lease of token %d for %s":                                                                                               "%s이(가) 토큰 %d의 리스를 %s 동안 갱신합니다",
	"%s sees %s is %s, so it will start a job of its own.":                                                                                 "%s은(는) %s이(가) %s임을 보고, 자기 잡을 시작합니다.",
	"%s succeeds late and deletes the running key, which named %s: the newer job is running with nothing pointing at it.":                  "%s이(가) 늦게 성공하며 %s을(를) 가리키던 실행 키를 지웁니다: 더 새로운 잡이 아무도 가리키지 않는 채 돌고 있습니다.",
	"%s → FAILED at its deadline; %s":                                                                                                      "%s → 마감에 FAILED. %s",
	"%s → SUCCESS, and it deleted the running key of %s":                                                                                   "%s → SUCCESS, 그리고 %s의 실행 키를 지웠습니다",
	"%s → SUCCESS; it held no running key":                                                                                                 "%s → SUCCESS. 실행 키를 갖고 있지 않았습니다",
	"%s's lease of token %d was ended by %s's release of token %d, another run's: the release asked whose lease it was, not which token's": "%s의 토큰 %d 리스가 %s의 토큰 %d 반납으로 끝났습니다. 다른 실행의 것입니다: 반납이 누구의 리스인지만 묻고 어느 토큰의 것인지는 묻지 않았습니다",
	"%s's lease (%s) was ended by a step of %s, which does not hold it: neither its holder's release nor its TTL":                          "%s의 리스(%s)가 그것을 갖지 않은 %s의 단계로 끝났습니다: 보유자의 반납도, TTL도 아닙니다",
	"its renew answered that token %d's lease is its own":                                                                                  "갱신이 토큰 %d의 리스가 자기 것이라고 답했습니다",
	"its acquire granted it token %d":                                                                                                      "획득이 토큰 %d을(를) 내주었습니다",
	"its acquire granted it the leader lease":                                                                                              "획득이 리더 리스를 내주었습니다",
	"%s: %s, but no such lease is held, and %s goes on as if it were":                                                                      "%s: %s. 그러나 그런 리스는 없으며, %s은(는) 리스가 있는 것처럼 계속합니다",
	"%s: %s, but the lease is %s's (token %d), and %s goes on with a lease it does not hold":                                               "%s: %s. 그러나 리스는 %s의 것(토큰 %d)이며, %s은(는) 갖지 않은 리스로 계속합니다",
	"%s's lease (%s) was extended by a step of %s, which does not hold it":                                                                 "%s의 리스(%s)가 그것을 갖지 않은 %s의 단계로 연장되었습니다",
	"%s's renew went through, so it carries on sure that the lease, and token %d, are still its own.":                                      "%s의 갱신이 통과했으므로, 리스와 토큰 %d이(가) 여전히 자기 것이라 확신하며 계속합니다.",
	"%s, %d actions taken": "%s, 동작 %d개 실행함",
	"(call %d of %d: %s)":  "(호출 %[2]d개 중 %[1]d번째: %[3]s)",
	"--without %s: a stress worker never asks it (stress can remove %s)":        "--without %s: 스트레스 워커는 그것을 묻지 않습니다 (stress가 뺄 수 있는 것: %s)",
	"--without names no guard (fencelab guards lists them)":                     "--without에 가드가 없습니다 (fencelab guards가 목록을 보여 줍니다)",
	"--without removes guards from SAFE; UNSAFE is the naive code and has none": "--without은 SAFE에서 가드를 뺍니다. UNSAFE는 순진한 코드라 가드가 없습니다",
	"--without: %v":                           "--without: %v",
	"; --allow-bounded lets it pass":          ". --allow-bounded로 통과시킴",
	"; exit 1 (--allow-bounded lets it pass)": ". 종료 코드 1 (--allow-bounded로 통과시킬 수 있음)",
	"A commits +10 with token 41 but the reply is lost (a client-side timeout); A sends the same write again with the same token": "A가 토큰 41로 +10을 커밋하지만 응답을 잃는다(클라이언트 쪽 타임아웃). A가 같은 토큰으로 같은 쓰기를 다시 보낸다",
	"A takes 41 and pauses past its lease; B takes 42; A wakes, renews and releases; C wants the lease while B still holds it":    "A가 41을 받고 리스가 끝나도록 멈춘다. B가 42를 받는다. A가 깨어나 갱신하고 반납한다. B가 아직 리스를 가진 동안 C가 리스를 원한다",
	"HSET status FAILED": "HSET status FAILED",
	"NO":                 "아니요",
	"Only now do the execution and outbox row follow the business row: between the two transactions the database said one thing and its log another.": "이제서야 실행과 아웃박스 행이 비즈니스 행을 따라옵니다: 두 트랜잭션 사이에는 데이터베이스와 그 기록이 서로 다른 말을 했습니다.",
	"Pointer split: the running key expires before its job does":                                                                                      "포인터 분리: 실행 키가 그 잡보다 먼저 만료된다",
	"Retry with the same token: a commit whose reply was lost":                                                                                        "같은 토큰으로 재시도: 응답을 잃은 커밋",
	"SAFE held: every invariant, progress, and the history is linearizable — as expected\n":                                                           "SAFE가 지켜짐: 모든 불변식, 진척, 이력의 선형화 가능성 — 예상대로\n",
	"SAFE itself did not hold in %s": "%s에서 SAFE 자체가 지켜지지 않았습니다",
	"SAFE's guards":                  "SAFE의 가드",
	"SAFE's guards: take one out, and the run so far replays without it":                                                                         "SAFE의 가드: 하나를 빼면 지금까지의 실행이 그것 없이 다시 실행됨",
	"Stale release: a paused worker renews and releases a lease that is no longer its own":                                                       "낡은 반납: 멈췄던 워커가 더 이상 자기 것이 아닌 리스를 갱신하고 반납한다",
	"The commit reached PostgreSQL, but its reply never reached %s: all %s knows is that it timed out, so it will try again.":                    "커밋은 PostgreSQL에 닿았지만 그 응답은 %s에게 닿지 못했습니다: %s이(가) 아는 것은 시간이 초과됐다는 것뿐이라 다시 시도합니다.",
	"The poller reads %s RUNNING before its deadline and leaves it: running slowly is not failing.":                                              "폴러가 마감 전에 %s을(를) RUNNING으로 읽고 그대로 둡니다: 느리게 도는 것은 실패가 아닙니다.",
	"The poller reads %s RUNNING and past its deadline; it fails it in its next call, whatever happens to the job in between.":                   "폴러는 %s이(가) 마감을 넘긴 RUNNING임을 읽습니다. 그 사이 잡에 무슨 일이 생기든 다음 호출에서 실패 처리합니다.",
	"The poller reads %s RUNNING with no heartbeat for ten minutes; it fails it in its next call.":                                               "폴러는 %s이(가) 10분 동안 하트비트 없는 RUNNING임을 읽습니다. 다음 호출에서 실패 처리합니다.",
	"The renew script finds another holder's lease and leaves it alone; %s learns it lost the lease and stops before doing any harm.":            "갱신 스크립트는 다른 보유자의 리스를 보고 건드리지 않습니다. %s은(는) 리스를 잃었음을 알고 해를 끼치기 전에 멈춥니다.",
	"The retry carries the token the first attempt already used: %s. The database recognises the write it already has and refuses a second one.": "재시도는 첫 시도가 이미 쓴 토큰을 갖고 있습니다: %s. 데이터베이스는 이미 가진 쓰기임을 알아보고 두 번째 쓰기를 거부합니다.",
	"The retry goes through as a second write: the same change is applied twice, and nothing in the database can tell the two apart.":            "재시도가 두 번째 쓰기로 통과합니다: 같은 변경이 두 번 적용되고, 데이터베이스의 어떤 것도 둘을 구별하지 못합니다.",
	"UNSAFE broke fencing: violations %s (stale commits %s, lost updates %s, stale releases %s, illegal segments %s) — as expected":              "UNSAFE가 펜싱을 깸: 위반 %s (낡은 커밋 %s, 잃은 갱신 %s, 낡은 반납 %s, 허용되지 않는 구간 %s) — 예상대로",
	"UNSAFE is the naive code: it has no guards to remove":                                                                                       "UNSAFE는 순진한 코드라 뺄 가드가 없습니다",
	"UNSAFE is the naive code: it has no guards to remove (m switches to SAFE)":                                                                  "UNSAFE는 순진한 코드라 뺄 가드가 없습니다 (m으로 SAFE로 전환)",
	"Without the deadline, a job nobody runs stays RUNNING, and every request that comes reuses it.":                                             "마감이 없으면 아무도 돌리지 않는 잡이 RUNNING으로 남고, 오는 요청마다 그것을 재사용합니다.",
	"a Markdown matrix fencelab wrote":                                            "fencelab이 쓴 Markdown 매트릭스",
	"a job is looked up and created with its running pointer in one Lua script":   "잡의 조회와 생성이 실행 포인터와 함께 Lua 스크립트 하나에서 일어남",
	"a job past its absolute deadline is failed and its running pointer released": "절대 마감을 넘긴 잡은 실패 처리되고 실행 포인터가 풀림",
	"a job's status moves only from RUNNING: SUCCESS and FAILED never change":     "잡의 상태는 RUNNING에서만 바뀜: SUCCESS와 FAILED는 바뀌지 않음",
	"a lease ends only by its holder's release or its TTL, and only its holder extends it: no worker gets a lease while another's is live, and a worker told it holds a lease holds it": "리스는 보유자의 반납이나 TTL로만 끝나고, 보유자만 연장한다: 다른 워커의 리스가 살아 있는 동안 리스를 받는 워커는 없으며, 리스를 가졌다고 들은 워커는 그 리스를 가지고 있다",
	"a lease is ended only by its holder or its TTL: no release deletes another worker's lease":                                                                                         "리스는 보유자나 TTL로만 끝남: 어떤 반납도 다른 워커의 리스를 지우지 않음",
	"a read-modify-write reads the value under the row lock, in the write's own transaction":                                                                                            "읽고-고치고-쓰기가 쓰기 자신의 트랜잭션 안에서, 행 잠금 아래에서 값을 읽음",
	"a stress worker never asks %s: stress can remove %s":                                                                                                                               "스트레스 워커는 %s을(를) 묻지 않습니다: stress가 뺄 수 있는 것은 %s",
	"acquire job": "잡 획득",
	"acquire refuses to hand out tokens when Redis lost the counter or the epoch":                             "Redis가 카운터나 에포크를 잃었으면 획득이 토큰을 내주지 않음",
	"an unknown outcome is reconciled by querying the original OperationId, never sent again under a new one": "알 수 없는 결과는 원래 OperationId를 조회해 조정하고, 새 OperationId로 다시 보내지 않음",
	"business row, checkpoint, execution and outbox row commit in one transaction":                            "비즈니스 행, 체크포인트, 실행, 아웃박스 행이 한 트랜잭션에서 커밋됨",
	"could not be followed: %s":                 "따라갈 수 없었음: %s",
	"counterexamples: %s\n":                     "반례: %s\n",
	"ended at %d (%s)":                          "%d에서 끝남 (%s)",
	"guards takes one scenario at most, got %q": "guards는 시나리오를 하나까지만 받습니다. 받은 것: %q",
	"job 1's running key, a lease with the lease TTL, expires while its hash (1h) still says RUNNING; R2 starts job 2; job 1's worker finishes late": "리스 TTL을 가진 리스인 잡 1의 실행 키가, 그 해시(1h)가 아직 RUNNING인 동안 만료된다. R2가 잡 2를 시작한다. 잡 1의 워커가 늦게 끝난다",
	"leader lease":      "리더 리스",
	"mark FAILED (Lua)": "FAILED로 표시 (Lua)",
	"needed":            "필요",
	"no scenario needs %s: the catalog cannot show why it exists":                                    "%s이(가) 필요한 시나리오가 없습니다: 카탈로그가 그것이 왜 있는지 보여 줄 수 없습니다",
	"none of these scenarios needs %s":                                                               "이 시나리오들 중 %s이(가) 필요한 것은 없습니다",
	"one call of %s":                                                                                 "%s의 호출 하나",
	"only %s of %s rounds of workers that were not frozen were accepted: %s":                         "멈추지 않은 워커의 라운드 %[2]s개 중 %[1]s개만 받아들여졌습니다: %[3]s",
	"only the job the running pointer names may succeed, and only it may clear the pointer":          "실행 포인터가 가리키는 잡만 성공할 수 있고, 그 잡만 포인터를 지울 수 있음",
	"progress: at least half of the rounds of workers that were not frozen were accepted (%s of %s)": "진척: 멈추지 않은 워커의 라운드 중 적어도 절반이 받아들여짐 (%[2]s개 중 %[1]s개)",
	"reached it":                      "기대값에 이름",
	"read the job":                    "잡 읽기",
	"read the job's status":           "잡 상태 읽기",
	"read the running job":            "실행 중인 잡 읽기",
	"record execution and outbox row": "실행과 아웃박스 행 기록",
	"releases that deleted another worker's lease: %d; the first: %s released %s after its own lease of token %d had run out": "다른 워커의 리스를 지운 반납: %d. 첫째: %s이(가) 토큰 %[4]d의 자기 리스가 끝나고 %[3]s 뒤에 반납함",
	"renew and release change a lease only when it still holds the caller's owner and token":                                  "갱신과 반납은 리스가 아직 호출자의 소유자와 토큰을 가질 때만 리스를 바꿈",
	"renew resource lease":                      "리소스 리스 갱신",
	"resolve the unknown outcome":               "알 수 없는 결과 해결",
	"retry the write":                           "쓰기 재시도",
	"running key → %s: %s will read its status": "실행 키 → %s: %s이(가) 그 상태를 읽습니다",
	"scenario": "시나리오",
	"that actor's next call (one round trip)":                                                                                  "그 액터의 다음 호출 (왕복 한 번)",
	"the namespace epoch matches in Redis (acquire, renew, release) and in PostgreSQL (the write)":                             "네임스페이스 에포크가 Redis(획득, 갱신, 반납)와 PostgreSQL(쓰기)에서 맞음",
	"the reply to %s's commit is lost: a client-side timeout, and %s cannot tell whether the write landed":                     "%s의 커밋에 대한 응답을 잃음: 클라이언트 쪽 타임아웃이라 %s은(는) 쓰기가 닿았는지 알 수 없음",
	"the running key of %s is deleted":                                                                                         "%s의 실행 키가 지워짐",
	"the summary is %d, but its last committed execution (%s) wrote %d: the business row changed without its execution":        "summary는 %d인데 마지막으로 커밋된 실행(%s)은 %d을(를) 썼습니다: 비즈니스 행이 실행 없이 바뀌었습니다",
	"the summary is %d, but token %d's committed write made it %d: the same token wrote again without an execution of its own": "summary는 %d인데 토큰 %d의 커밋된 쓰기는 %d(으)로 만들었습니다: 같은 토큰이 자기 실행 없이 다시 썼습니다",
	"the tenant is still assigned and active at the write's membership revision":                                               "쓰기의 멤버십 리비전에서 테넌트가 아직 배정되어 활성임",
	"the write comes from the authoritative region at its current region epoch":                                                "쓰기가 권한 있는 리전의 현재 리전 에포크에서 옴",
	"the write's fencing token is above the last accepted one (<, never <=), in the write's own statement":                     "쓰기의 펜싱 토큰이 마지막으로 받아들인 것보다 큼(<, <=가 아님), 쓰기 자신의 문장 안에서",
	"the writer's contract is at least the minimum writer and checkpoint schema versions":                                      "쓰는 쪽의 계약이 최소 writer 버전과 체크포인트 스키마 버전 이상임",
	"token %d": "토큰 %d",
	"token %d's lease is no longer %s's: the renew changes nothing and %s stops": "토큰 %d의 리스는 더 이상 %s의 것이 아닙니다: 갱신은 아무것도 바꾸지 않고 %s은(는) 멈춥니다",
	"unknown guard %q (did you mean %s?); the guards: %s":                        "알 수 없는 가드 %q (%s을(를) 뜻했나요?). 가드: %s",
	"unknown guard %q; the guards: %s":                                           "알 수 없는 가드 %q. 가드: %s",
	"with its checkpoint, execution and outbox row":                              "체크포인트, 실행 기록, 아웃박스 행과 함께",
	"with its checkpoint; its execution and outbox row are not written yet":      "체크포인트와 함께. 실행 기록과 아웃박스 행은 아직 쓰지 않음",
	"schema fencelab in %s was damaged (%s): fencelab made it again, empty":      "%s의 fencelab 스키마가 손상되어 있었습니다 (%s): fencelab이 빈 스키마로 다시 만들었습니다",
	"--pg's database":              "--pg의 데이터베이스",
	"fencelab's cached PostgreSQL": "fencelab이 캐시에 둔 PostgreSQL",
	"Redis would not let fencelab make the user a file's code runs as": "Redis가 파일의 코드를 실행할 사용자를 fencelab이 만들도록 허락하지 않았습니다",
	"%w (%s): a file's code runs on a Redis of yours only as a user of its own; let fencelab's user run ACL SETUSER and ACL DELUSER, or pass --trust-code to run it as fencelab's own user": "%w (%s): 파일의 코드는 당신의 Redis에서 그 파일만의 사용자로만 실행됩니다. fencelab의 사용자에게 ACL SETUSER와 ACL DELUSER를 허락하거나, --trust-code를 주어 fencelab 자신의 사용자로 실행하세요",
	"fencelab's cached PostgreSQL in %s did not start (%s): fencelab made it again, empty":                                                                                                  "%s에 캐시된 fencelab의 PostgreSQL이 시작되지 않았습니다 (%s): fencelab이 빈 클러스터로 다시 만들었습니다",
	"a session of the file's holds an advisory lock taken more than %d times, more than a lab keeps":                                                                                        "파일의 세션이 advisory 락 하나를 %d번 넘게 잡고 있습니다. 랩이 기억하는 것보다 많습니다",
	"a file's SQL does not name fencelab's own schema or objects ($fencelab…)":                                                                                                              "파일의 SQL은 fencelab 자신의 스키마나 객체를 이름으로 부르지 않습니다 ($fencelab…)",
	"a step changes rows, not tables: SELECT … INTO makes one, and belongs in [setup]":                                                                                                      "단계는 테이블이 아니라 행을 바꿉니다: SELECT … INTO는 테이블을 만들므로 [setup]에 둡니다",
	"%s: expected's query answered %s, not a whole number":                                                                                                                                  "%s: expected의 쿼리가 정수가 아닌 %s를 답했습니다",
	"the script does not compile: %s": "스크립트가 컴파일되지 않습니다: %s",
	"%s: warning: guard %s has no place in step %s: it is not used (write {{%s}} where its fragment goes, or take the entry out)":          "%s: 경고: 가드 %s는 단계 %s에 자리가 없어 쓰이지 않습니다 (조각이 들어갈 곳에 {{%s}}를 쓰거나, 항목을 빼세요)",
	"%s: expected's key %s holds %s, not a whole number":                                                                                   "%s: expected의 키 %s에 정수가 아닌 %s가 들어 있습니다",
	"a file's SQL may not use EXPLAIN: ANALYZE runs the statement it explains":                                                             "파일의 SQL은 EXPLAIN을 쓸 수 없습니다: ANALYZE는 설명하는 문장을 실행합니다",
	"a file's SQL may not use 'now', 'today' and their kin: they read the server's clock, which is the host's: use $now_ms, the lab clock": "파일의 SQL은 'now', 'today' 같은 것을 쓸 수 없습니다: 서버의 시계, 곧 호스트의 시계를 읽습니다. 랩 시계인 $now_ms를 쓰세요",
	"PostgreSQL would not let fencelab make the role a file's SQL runs as":                                                                 "PostgreSQL이 파일의 SQL을 실행할 역할을 fencelab이 만들도록 허락하지 않았습니다",
	"%w (%s): a file's SQL runs only as a role of its own; give %s CREATEROLE, or leave out --pg to use fencelab's own PostgreSQL":         "%w (%s): 파일의 SQL은 그 파일만의 역할로만 실행됩니다. %s에게 CREATEROLE을 주거나, --pg를 빼고 fencelab 자신의 PostgreSQL을 쓰세요",
	"crash %s": "%s 프로세스 중단",
	"a file's SQL may not use %s: large objects live outside the file's schema, where a check does not see them":                                                 "파일의 SQL은 %s를 쓸 수 없습니다: 라지 오브젝트는 파일의 스키마 밖에 있어 검사가 보지 못합니다",
	"a file's SQL may not use %s: it reads tables it is given by name in a string":                                                                               "파일의 SQL은 %s를 쓸 수 없습니다: 문자열로 이름을 받은 테이블을 읽습니다",
	"split screen: %s beside %s, each on its own guided order while you follow yours, else the same actions — v closes it":                                       "화면 나누기: %s를 %s 옆에, 안내 순서를 따르는 동안은 각자 자기 안내 순서로, 아니면 같은 동작으로 — v로 닫습니다",
	"%s:%d: step %s of %s: the script failed at its line %d: %s — in: %s":                                                                                        "%s:%d: %[4]s의 단계 %[3]s: 스크립트가 %[5]d번째 줄에서 실패했습니다: %[6]s — 보낸 것: %[7]s",
	"the file's tables are in schema %s\n":                                                                                                                       "파일의 테이블은 스키마 %s에 있습니다\n",
	"%s's process crashed: PostgreSQL ended its session, rolling back any open transaction":                                                                      "%s의 프로세스가 죽었습니다: PostgreSQL이 세션을 끝내며 열린 트랜잭션을 롤백했습니다",
	"%s's process crashed: PostgreSQL ended its session, rolling back any open transaction and letting go of its advisory locks (%s), which it never unlocked":   "%s의 프로세스가 죽었습니다: PostgreSQL이 세션을 끝내며 열린 트랜잭션을 롤백하고, 한 번도 풀지 않은 어드바이저리 잠금(%s)을 놓았습니다",
	"but OperationId %s is on record already: no execution or outbox row of its own":                                                                             "그러나 OperationId %s가 이미 기록되어 있음: 자신의 실행 기록도 아웃박스 행도 없음",
	"Redis hands %s fencing token %d, a number a write of epoch %d carried already: the restart lost the counter, and with it the order fencing tokens promise.": "Redis가 %s에게 펜싱 토큰 %d번을 줍니다. 에포크 %d의 쓰기가 이미 가졌던 번호입니다: 재시작으로 카운터를 잃었고, 펜싱 토큰이 약속하는 순서도 함께 잃었습니다.",
	"without names guards, but UNSAFE has none to remove":                                                                                                        "without에 가드가 있지만 UNSAFE에는 뺄 가드가 없습니다",
	"without: %v":       "without: %v",
	"write the results": "결과 쓰기",
	"yes":               "예",
	"↑/↓ choose · space/enter takes it out or puts it back, and the actions so far replay · any other key goes back":                                                                              "↑/↓ 고르기 · space/enter로 빼거나 되돌리면 지금까지의 동작이 다시 실행됨 · 다른 키로 돌아감",
	"✓ still safe without the guard;  ·  the scenario never asks it;  inv N · K  invariant N broke,\nthe shortest counterexample K actions long;  progress  safe, but no schedule did the work\n": "✓ 가드 없이도 안전;  ·  시나리오가 묻지 않음;  inv N · K  불변식 N이 깨짐,\n가장 짧은 반례는 동작 K개;  progress  안전하지만 어떤 스케줄도 일을 끝내지 못함\n",
	"The plain HSET marks %s SUCCESS without asking whether it still holds the running key; the apply API will believe it.":                                                                       "단순한 HSET은 %s이(가) 아직 실행 키를 가졌는지 묻지 않고 SUCCESS로 표시합니다. apply API는 그것을 믿을 것입니다.",
	"no %s":                  "%s 없음",
	"invariant %s":           "불변식 %s",
	"progress":               "진척",
	"bounded":                "제한됨",
	"--md needs a file name": "--md에는 파일 이름이 필요합니다",
	"\nSAFE makes every check; --without GUARD[,GUARD…] takes them out of its code (run, check,\nstress, export, the explorer), and fencelab matrix shows which scenario needs each.\n": "\nSAFE는 모든 검사를 합니다. --without GUARD[,GUARD…]는 그 검사를 코드에서 빼고(run, check,\nstress, export, 탐색기), fencelab matrix는 어느 시나리오에 어느 가드가 필요한지 보여 줍니다.\n",
	"not what SAFE promises (an invariant broke, or the expected value was not reached): %s":                                                                                            "SAFE가 약속한 결과가 아님(불변식이 깨졌거나 기대값에 이르지 못함): %s",
	"%s held, but no frozen worker's lease ran out: the guards removed were never put to the test":                                                                                      "%s이(가) 지켜졌지만 멈춘 워커의 임대가 한 번도 만료되지 않았습니다: 뺀 가드는 시험되지 않았습니다",
	"%s held, but no frozen worker's lease ran out: the guards removed were never put to the test (a longer --duration, or --pause-every)":                                              "%s이(가) 지켜졌지만 멈춘 워커의 임대가 한 번도 만료되지 않았습니다: 뺀 가드는 시험되지 않았습니다(더 긴 --duration, 또는 --pause-every)",
	"%s's release deletes %s's lease of token %d: nothing checks it is token %d's":                                                                                                      "%s의 해제가 %s의 토큰 %d 임대를 지웁니다: 그것이 토큰 %d의 것인지 아무도 확인하지 않습니다",
	"The release no longer asks whose lease it is: it deletes %s's, and the next worker can take a lease %s still believes it holds.":                                                   "해제는 더 이상 누구의 임대인지 묻지 않습니다: %s의 임대를 지우고, 다음 워커는 %s이(가) 아직 가졌다고 믿는 임대를 가져갈 수 있습니다.",
	"there was no lease left to delete": "지울 임대가 남아 있지 않았습니다",
	"%s goes to release its lease, and finds none at all: it ran out, or another worker's release deleted it.":                       "%s이(가) 임대를 해제하러 가지만 임대가 아예 없습니다: 만료되었거나 다른 워커의 해제가 지웠습니다.",
	"%s's renew extends %s's lease of token %d for %s: nothing checks it is token %d's":                                              "%s의 갱신이 %s의 토큰 %d 임대를 %s 연장합니다: 그것이 토큰 %d의 것인지 아무도 확인하지 않습니다",
	"The renew no longer asks whose lease it is: it extends %s's, and %s carries on sure that the lease, and token %d, are its own.": "갱신은 더 이상 누구의 임대인지 묻지 않습니다: %s의 임대를 연장하고, %s은(는) 그 임대와 토큰 %d이(가) 자기 것이라 확신하며 계속합니다.",
	"PostgreSQL accepts %s's write only because its %s check is gone: with it, this write would have been refused.":                  "PostgreSQL이 %s의 쓰기를 받아들이는 것은 %s 검사가 빠졌기 때문일 뿐입니다: 검사가 있었다면 이 쓰기는 거부되었을 것입니다.",
	"%s removed: the run starts as %s":                  "%s 제거: 실행이 %s(으)로 시작합니다",
	"%s back: the run starts as %s":                     "%s 복귀: 실행이 %s(으)로 시작합니다",
	"%s removed: the action so far replayed without it": "%s 제거: 지금까지의 동작 1개를 가드 없이 다시 실행했습니다",
	"%s back: the action so far replayed with it":       "%s 복귀: 지금까지의 동작 1개를 가드와 함께 다시 실행했습니다",
	"%s, 1 action taken":                                "%s, 동작 1개 실행함",
	"--without removes guards from SAFE; the trace is UNSAFE, the naive code, which has none":                                 "--without은 SAFE에서 가드를 뺍니다. 이 트레이스는 UNSAFE, 즉 가드가 없는 단순한 코드입니다",
	"the trace recorded SAFE with guards removed: %s; this replay removes %s, so the differences below are what that changes": "트레이스는 가드를 뺀 SAFE를 기록했습니다: %s. 이 재실행은 %s을(를) 빼므로, 아래의 차이는 그 변경이 만든 것입니다",
	"%s (real server; its lab keys expire on the lab clock)":                                                                  "%s (실제 서버. 랩 키는 랩 시계로 만료)",
	"a lab needs its Redis on the lab clock (a real server's: Coordination.FollowLabClock)":                                   "랩은 랩 시계를 따르는 Redis가 필요합니다 (실제 서버라면 Coordination.FollowLabClock)",
	"lab keys vanished from Redis outside the lab clock":                                                                      "랩 키가 랩 시계와 상관없이 Redis에서 사라졌습니다",
	"Redis dropped %s on its own, outside the lab clock: its TTL ran out on the wall clock while fencelab was not there to keep it (stopped or suspended for more than a second), or somebody deleted it. From here on the run is not the lab clock's alone.": "Redis가 랩 시계와 상관없이 스스로 지운 키: %s. fencelab이 TTL을 지켜 주지 못하는 동안(1초 넘게 멈추거나 일시 중단됨) 실제 시계로 TTL이 끝났거나, 누군가 지웠습니다. 여기서부터 이 실행은 랩 시계만의 것이 아닙니다.",
	"gone from Redis outside the lab clock: %s":                                                            "랩 시계와 상관없이 Redis에서 사라짐: %s",
	"Press n to follow the schedule of the trace %s, or step the actors yourself with 1–9.":                "n을 누르면 트레이스 %s의 스케줄을 따라가고, 1–9로 액터를 직접 움직일 수도 있습니다.",
	"%s in %s mode: the schedule of the trace %s, from its seeded state":                                   "%s, %s 모드: 트레이스 %s의 스케줄, 시드 상태에서 시작",
	"%s is paused (%s): selected — p resumes it":                                                           "%s 일시 정지됨 (%s): 선택함 — p로 재개",
	"export --to gif writes a picture, not text for a terminal: give -o FILE, or redirect standard output": "export --to gif는 터미널용 텍스트가 아니라 그림을 씁니다: -o FILE을 주거나 표준 출력을 리디렉션하세요",
	"--redis is empty: give redis://HOST:PORT/DB, or leave it out for the embedded Redis":                  "--redis가 비어 있습니다: redis://HOST:PORT/DB를 주거나, 내장 Redis를 쓰려면 빼세요",
	"--pg is empty: give a DSN, or leave it out for an ephemeral PostgreSQL":                               "--pg가 비어 있습니다: DSN을 주거나, 임시 PostgreSQL을 쓰려면 빼세요",
	" · token %d": " · 토큰 %d",
	"  NOT as its file predicts: SAFE broke an invariant\n":                                                             "  파일의 예측과 다릅니다: SAFE가 불변식을 깼습니다\n",
	"  NOT as its file predicts: SAFE made no progress — no complete schedule, or not the guided order, did the work\n": "  파일의 예측과 다릅니다: SAFE가 진척이 없습니다 — 끝까지 간 스케줄도, 안내 순서도 일을 끝내지 못했습니다\n",
	"  NOT as its file predicts: no schedule ended %s\n":                                                                "  파일의 예측과 다릅니다: %s로 끝난 스케줄이 없습니다\n",
	"  SAFE broke an invariant\n":                                                                                       "  SAFE가 불변식을 깼습니다\n",
	"  as its file predicts\n":                                                                                          "  파일의 예측대로입니다\n",
	"  no prediction for SAFE: every invariant held on every schedule (progress is judged only against a prediction)\n": "  SAFE 예측 없음: 모든 스케줄에서 모든 불변식이 지켜졌습니다 (진행은 예측이 있을 때만 판단합니다)\n",
	"  no prediction for UNSAFE: the counts above are what happened\n":                                                  "  UNSAFE 예측 없음: 위의 수가 일어난 일입니다\n",
	"  — no prediction; an invariant broke\n":                                                                           "  — 예측 없음; 불변식이 깨졌습니다\n",
	"  — no prediction; every invariant held\n":                                                                         "  — 예측 없음; 모든 불변식이 지켜졌습니다\n",
	"%d actors: at most %d":                                                                                             "액터 %d개: 최대 %d개입니다",
	"%d guided entries: at most %d":                                                                                     "안내 항목 %d개: 최대 %d개입니다",
	"%d steps: at most %d":                                                                                              "단계 %d개: 최대 %d개입니다",
	"%s %q: no %s actor of that name":                                                                                   "%s %q: 그런 이름의 %s 액터가 없습니다",
	"%s %q: want %s":                                                                                                    "%s %q: %s 중 하나여야 합니다",
	"%s %s: no actor of that name (actors: %s)":                                                                         "%s %s: 그런 이름의 액터가 없습니다 (액터: %s)",
	"%s %s: want a whole number":                                                                                        "%s %s: 정수여야 합니다",
	"%s has %d characters: at most %d":                                                                                  "%s는 %d자입니다: 최대 %d자입니다",
	"%s has no parameter %q (it takes %s)":                                                                              "%s에는 매개변수 %q가 없습니다 (받는 것: %s)",
	"%s is a step of the %s kind; %s is of kind %s":                                                                     "%s는 %s 종류의 단계입니다; %s는 %s 종류입니다",
	"%s is given twice: once at the top and once after the last [[actor]]":                                              "%s가 두 번 주어졌습니다: 맨 위에 한 번, 마지막 [[actor]] 뒤에 한 번",
	"%s is missing":                    "%s가 없습니다",
	"%s must be a list":                "%s는 목록이어야 합니다",
	"%s must be a string":              "%s는 문자열이어야 합니다",
	"%s must be a table":               "%s는 테이블이어야 합니다",
	"%s must be a whole number":        "%s는 정수여야 합니다",
	"%s must be from %d to %d, not %d": "%s는 %d부터 %d까지여야 합니다 (받은 값: %d)",
	"%s must be true or false":         "%s는 true 또는 false여야 합니다",
	"%s needs a scenario id, a scenario file or --all (one of: %s)": "%s에는 시나리오 id, 시나리오 파일 또는 --all이 필요합니다 (가능한 값: %s)",
	"%s needs its parameter %s":                                     "%s에는 매개변수 %s가 필요합니다",
	"%s reloaded":                                                   "%s를 다시 읽었습니다",
	"%s reloaded, but: %s":                                          "%s를 다시 읽었지만: %s",
	"%s reloaded; %d actions replayed":                              "%s를 다시 읽었습니다; 동작 %d개를 재실행했습니다",
	"%s reloaded; %d of %d actions replayed — the next no longer applies: %s": "%s를 다시 읽었습니다; 동작 %d/%d개를 재실행했습니다 — 다음 동작은 더 이상 맞지 않습니다: %s",
	"%s takes no parameter":                                                                          "%s는 매개변수를 받지 않습니다",
	"%s takes no parameter, not %q":                                                                  "%s는 매개변수를 받지 않습니다, %q도 마찬가지입니다",
	"%s: want a whole number from 0 to %d":                                                           "%s: 0부터 %d까지의 정수여야 합니다",
	"--scenarios %s: %s and %s both have id %q":                                                      "--scenarios %s: %s와 %s가 같은 id %q를 가집니다",
	"--scenarios %s: %v":                                                                             "--scenarios %s: %v",
	"--scenarios %s: no scenario file (*.toml) in it":                                                "--scenarios %s: 시나리오 파일(*.toml)이 없습니다",
	"--scenarios %s: not a directory":                                                                "--scenarios %s: 디렉터리가 아닙니다",
	"--trace opens the trace's own scenario; leave out %s":                                           "--trace는 트레이스 자신의 시나리오를 엽니다; %s를 빼세요",
	"--watch %s: %v":                                                                                 "--watch %s: %v",
	"--watch reloads a scenario file: fencelab --watch my-story.toml":                                "--watch는 시나리오 파일을 다시 읽습니다: fencelab --watch my-story.toml",
	"a guard is named by a string":                                                                   "가드는 문자열로 이름을 씁니다",
	"a guided entry is a string: \"A\", \"pause A\", \"expire\", \"advance 30s\"":                    "안내 항목은 문자열입니다: \"A\", \"pause A\", \"expire\", \"advance 30s\"",
	"a step is a name (\"acquire-lease\") or a table ({ step = \"add\", by = 10 })":                  "단계는 이름(\"acquire-lease\")이나 테이블({ step = \"add\", by = 10 })입니다",
	"a step table names its step: { step = \"remove-tenant\", revision = 8 }":                        "단계 테이블에는 단계 이름이 있어야 합니다: { step = \"remove-tenant\", revision = 8 }",
	"a watched scene plays its file's guided order: leave out schedule":                              "감시하는 장면은 파일의 안내 순서를 재생합니다: schedule을 빼세요",
	"actor %s has no program for %s: program = [...], or %s.program":                                 "액터 %s에 %s용 프로그램이 없습니다: program = [...] 또는 %s.program",
	"actor name %q is a word of the guided order":                                                    "액터 이름 %q는 안내 순서에서 쓰는 낱말입니다",
	"actor name %q: a letter, then letters, digits, - or _, at most 8 in all":                        "액터 이름 %q: 글자 하나로 시작하고 글자, 숫자, - 또는 _로, 모두 8자 이하",
	"advance %q: want a duration above 0 and at most %s, like 30s or 10m":                            "advance %q: 0보다 크고 %s 이하인 시간이어야 합니다 (예: 30s, 10m)",
	"expire takes nothing after it: it moves the clock to the next lease expiry":                     "expire 뒤에는 아무것도 오지 않습니다: 시계를 다음 리스 만료로 옮깁니다",
	"export %q: no such scenario (one of: %s), no such scenario file (.toml) and no such trace file": "export %q: 그런 시나리오(가능한 값: %s)도, 시나리오 파일(.toml)도, 트레이스 파일도 없습니다",
	"final is missing: the value the run ends with":                                                  "final이 없습니다: 실행이 끝나는 값",
	"format %q: want %q":                                                                             "format %q: %q여야 합니다",
	"format is missing: a scenario file starts with format = %q":                                     "format이 없습니다: 시나리오 파일은 format = %q로 시작합니다",
	"guided entry %d %q names no actor (actors: %s)":                                                 "안내 항목 %d %q가 가리키는 액터가 없습니다 (액터: %s)",
	"guided entry %d %q names no actor (did you mean %s?)":                                           "안내 항목 %d %q가 가리키는 액터가 없습니다 (%s를 뜻했나요?)",
	"guided entry %d %q: no operator's next step in %s is %s":                                        "안내 항목 %d %q: %s에서 다음 단계가 %s인 운영자가 없습니다",
	"guided entry %d %q: want an actor's name, pause X, resume X, call X, expire or advance D":       "안내 항목 %d %q: 액터 이름, pause X, resume X, call X, expire, advance D 중 하나여야 합니다",
	"guided entry %d pauses %s, which is paused already":                                             "안내 항목 %d: 이미 멈춘 %s를 멈춥니다",
	"guided entry %d resumes %s, which is not paused":                                                "안내 항목 %d: 멈추지 않은 %s를 재개합니다",
	"guided entry %d steps %s past the end of its program (steps in %s: %d)":                         "안내 항목 %d: %s를 프로그램 끝 너머로 진행합니다 (%s의 단계 수: %d)",
	"guided entry %d steps %s, which has no step in %s":                                              "안내 항목 %d: %s를 진행하지만, %s에서 단계가 없습니다",
	"guided entry %d steps %s, which is paused: resume it first":                                     "안내 항목 %d: 멈춘 %s를 진행합니다: 먼저 재개하세요",
	"guided has no entry for %s":                                                                     "%s의 안내 순서에 항목이 없습니다",
	"guided is missing for %s: the order the story takes, guided = [\"A\", \"pause A\", …]":          "%s의 guided가 없습니다: 이야기가 따라가는 순서, guided = [\"A\", \"pause A\", …]",
	"id %q: lower-case letters, digits and dashes, at most 40":                                       "id %q: 소문자, 숫자, 대시로 40자 이하",
	"its file predicts": "파일의 예측",
	"kind = %q":         "kind = %q",
	"measure %q takes nothing after its name":                                                  "measure %q는 이름 뒤에 아무것도 받지 않습니다",
	"measure \"running-key\" needs the job it counts: \"running-key job-2\"":                   "measure \"running-key\"에는 셀 작업이 필요합니다: \"running-key job-2\"",
	"narration %q: want the number of a guided entry, 1 to %d":                                 "narration %q: 안내 항목 번호여야 합니다, 1부터 %d까지",
	"nested more than %d deep":                                                                 "%d단계보다 깊게 중첩되어 있습니다",
	"no actor: a scenario has at least one [[actor]]":                                          "액터가 없습니다: 시나리오에는 [[actor]]가 하나 이상 있어야 합니다",
	"no prediction: run and check report what happened":                                        "예측 없음: run과 check가 일어난 일을 보고합니다",
	"not as claimed: %s":                                                                       "주장과 다릅니다: %s",
	"not as predicted: %s":                                                                     "예측과 다릅니다: %s",
	"predicts %s":                                                                              "예측: %s",
	"provider answer %q: want applied-but-timeout or declined":                                 "제공자 응답 %q: applied-but-timeout 또는 declined여야 합니다",
	"retry-write sends the actor's last write again: write-summary or add must come before it": "retry-write는 액터의 마지막 쓰기를 다시 보냅니다: 앞에 write-summary나 add가 있어야 합니다",
	"scenario %q: want one of %s, or a scenario file (.toml)":                                  "scenario %q: %s 중 하나이거나 시나리오 파일(.toml)이어야 합니다",
	"scenario %q: want show, check or steps":                                                   "scenario %q: show, check, steps 중 하나여야 합니다",
	"scenario %s: %v":                                                                          "시나리오 %s: %v",
	"scenario %s: no such file, and no such scenario in the catalog (fencelab list)":           "시나리오 %s: 그런 파일도, 카탈로그의 그런 시나리오도 없습니다 (fencelab list)",
	"scenario check needs a scenario file":                                                     "scenario check에는 시나리오 파일이 필요합니다",
	"scenario needs show ID, check FILE… or steps (fencelab scenario --help)":                  "scenario에는 show ID, check FILE… 또는 steps가 필요합니다 (fencelab scenario --help)",
	"scenario show takes one scenario id, got %d arguments":                                    "scenario show는 시나리오 id 하나를 받습니다, 인자 %d개를 받았습니다",
	"scenario steps takes no arguments, got %q":                                                "scenario steps는 인자를 받지 않습니다, 받은 것: %q",
	"the explorer opens one scenario, got %q after it":                                         "탐색기는 시나리오 하나를 엽니다, 그 뒤에 %q를 받았습니다",
	"the guided order of %s ends with %s paused: it could never finish its program":            "%s의 안내 순서가 %s를 멈춘 채로 끝납니다: 프로그램을 끝낼 수 없습니다",
	"trace %s: it names scenario %q but carries the file of %q":                                "트레이스 %s: 시나리오 %q를 가리키지만 %q의 파일을 담고 있습니다",
	"two actors are named %q":                                                                  "두 액터의 이름이 %q입니다",
	"unknown actor kind %q (did you mean %s?)":                                                 "알 수 없는 액터 종류 %q (%s를 뜻했나요?)",
	"unknown command %q (want %s, a scenario id or a scenario file; fencelab --help)":          "알 수 없는 명령 %q (%s, 시나리오 id 또는 시나리오 파일; fencelab --help)",
	"unknown guard %q (did you mean %s?)":                                                      "알 수 없는 가드 %q (%s를 뜻했나요?)",
	"unknown guard %q (one of: %s)":                                                            "알 수 없는 가드 %q (가능한 값: %s)",
	"unknown key %q (did you mean %s?)":                                                        "알 수 없는 키 %q (%s를 뜻했나요?)",
	"unknown key %q (known here: %s)":                                                          "알 수 없는 키 %q (여기서 쓰는 키: %s)",
	"unknown measure %q (did you mean %s?)":                                                    "알 수 없는 measure %q (%s를 뜻했나요?)",
	"unknown measure %q (one of: %s)":                                                          "알 수 없는 measure %q (가능한 값: %s)",
	"unknown scenario %q (one of: %s; or a scenario file, like my-story.toml)":                 "알 수 없는 시나리오 %q (가능한 값: %s; 또는 my-story.toml 같은 시나리오 파일)",
	"unknown step %q (did you mean %s?)":                                                       "알 수 없는 단계 %q (%s를 뜻했나요?)",
	"unknown step %q (fencelab scenario steps lists them)":                                     "알 수 없는 단계 %q (fencelab scenario steps가 목록을 보여 줍니다)",
	"value %q: want \"token\" (the run's fencing token) or a whole number":                     "value %q: \"token\"(실행의 펜싱 토큰) 또는 정수여야 합니다",
	"value: want \"token\" (the run's fencing token) or a whole number":                        "value: \"token\"(실행의 펜싱 토큰) 또는 정수여야 합니다",
	"verdict %q is none fencelab knows (did you mean %s?)":                                     "판정 %q는 fencelab이 모르는 판정입니다 (%s를 뜻했나요?)",
	"verdict %q is none fencelab knows (one of: %s)":                                           "판정 %q는 fencelab이 모르는 판정입니다 (가능한 값: %s)",
	"watch = true reloads a scenario file; %s is the catalog's (fencelab scenario show %s > %s.toml makes a file of it)": "watch = true는 시나리오 파일을 다시 읽습니다; %s는 카탈로그의 것입니다 (fencelab scenario show %s > %s.toml로 파일을 만드세요)",
	"watch: want true or false":               "watch: true 또는 false여야 합니다",
	"\n%s runs with its file's lease TTL, %s": "\n%s는 파일의 리스 TTL %s로 실행합니다",
	"job-deadline %q: want a duration from 1s to 1h (a job's hash lives an hour), like 10m":                                                 "job-deadline %q: 1s부터 1h까지의 시간이어야 합니다 (잡의 해시는 한 시간 산다, 예: 10m)",
	"key %q has the shape of one of fencelab's own (its leases, counters, epochs, leaders and jobs): name yours otherwise":                  "키 %q은(는) fencelab 자신의 키(리스, 카운터, 에포크, 리더, 잡) 모양입니다: 다른 이름을 쓰세요",
	"the key %s has the shape of one of fencelab's own (its leases, counters, epochs, leaders and jobs): a file's keys are named otherwise": "키 %s은(는) fencelab 자신의 키(리스, 카운터, 에포크, 리더, 잡) 모양입니다: 파일의 키는 다르게 이름 붙입니다",
	"owner %q: letters, digits, '-' and '_', at most 40, like worker-a":                                                                     "owner %q: 글자, 숫자, '-', '_'로 40자까지여야 합니다 (예: worker-a)",
	"lease-ttl %q: want a duration from %s to %s, like 30s":                                                                                 "lease-ttl %q: %s부터 %s까지의 시간이어야 합니다 (예: 30s)",
	"%s is read here as a key of the [[actor]] above it: write it above the first [[actor]]":                                                "%s는 여기서 바로 위 [[actor]]의 키로 읽힙니다: 첫 [[actor]]보다 위에 쓰세요",
	"[narration] numbers the entries of guided, and there is none: write [%s.narration] for %s.guided":                                      "[narration]은 guided의 항목에 번호를 붙이는데, guided가 없습니다: %[2]s.guided에는 [%[1]s.narration]을 쓰세요",
	"fencelab %s --mode %s   # the explorer; n steps the guided order\n":                                                                    "fencelab %s --mode %s   # 탐색기. n으로 안내 순서를 진행\n",
	"%s — the last good version runs":                                                                                                       "%s — 마지막으로 올바른 버전이 실행 중입니다",
	"%s reloaded; its one action replayed":                                                                                                  "%s를 다시 읽었습니다; 동작 하나를 재실행했습니다",
	"%s: %s · actors: %d · guided entries: %d in SAFE, %d in UNSAFE · %s\n":                                                                 "%s: %s · 액터: %d · 안내 항목: SAFE %d, UNSAFE %d · %s\n",
	"the guided order ended %d %s, predicted %d %s":                                                                                         "안내 순서가 %d %s로 끝났습니다, 예측은 %d %s",
	"  NOT as its file predicts: the guided order ended %d %s, predicted %d %s\n":                                                           "  파일의 예측과 다릅니다: 안내 순서가 %d %s로 끝났습니다, 예측은 %d %s\n",
	"%s: guided entry %d of %s (%s) cannot be taken: %v":                                                                                    "%[1]s: %[3]s의 안내 항목 %[2]d (%[4]s)를 실행할 수 없습니다: %[5]v",
	"%s: %s beside %s, the same %d actions (%s)\n\n":                                                                                        "%s: %s와 %s를 나란히, 같은 동작 %d개 (%s)\n\n",
	"\n  the two runs never part: every action did the same on both sides\n":                                                                "\n  두 실행은 갈라지지 않습니다: 모든 동작이 양쪽에서 같았습니다\n",
	"first divergence: the %s guard decided it — %s":                                                                                        "처음 갈라지는 곳: %s 가드가 갈랐습니다 — %s",
	"first divergence: no single guard decides it — the two modes run different code here":                                                  "처음 갈라지는 곳: 어느 한 가드가 가르지 않습니다 — 여기서 두 모드는 다른 코드를 실행합니다",
	"not taken: %s":      "실행되지 않음: %s",
	"(nothing happened)": "(아무 일도 없었음)",
	"The same %d actions on both sides: %s.\n\n": "양쪽에서 같은 동작 %d개: %s.\n\n",
	"action": "동작",
	"\n| | final | verdict |\n|---|---:|---|\n":                            "\n| | 최종 | 판정 |\n|---|---:|---|\n",
	"\n| | final | last accepted fence | verdict |\n|---|---:|---:|---|\n": "\n| | 최종 | 마지막으로 받아들인 펜스 | 판정 |\n|---|---:|---:|---|\n",
	"diff takes one scenario id, scenario file or trace, got %d arguments": "diff는 시나리오 id, 시나리오 파일 또는 트레이스 하나를 받습니다, 인자 %d개를 받았습니다",
	"a trace is diffed on its own schedule; leave out --mode":              "트레이스는 자신의 스케줄로 비교합니다; --mode를 빼세요",
	"the schedule of the trace %s (%s)":                                    "트레이스 %s의 스케줄 (%s)",
	"--mode %q: diff follows the guided order of safe or unsafe":           "--mode %q: diff는 safe 또는 unsafe의 안내 순서를 따릅니다",
	"the guided order of %s":                                               "%s의 안내 순서",
	"split screen: the other mode beside this one, the same actions":       "화면 나누기: 같은 동작으로 다른 모드를 이 모드 옆에",
	"%s not taken: %w":                     "%s 실행되지 않음: %w",
	"the split screen could not go on: %s": "나눈 화면을 이어갈 수 없습니다: %s",
	"opening %s in %s mode beside it…":     "%s를 %s 모드로 옆에 여는 중…",
	"actions %d · guided %d/%d":            "동작 %d · 안내 %d/%d",
	"split screen closed":                  "화면 나누기를 닫았습니다",
	"the split screen needs backends of its own, which fencelab starts only for itself (not with --pg)":     "나눈 화면에는 자기 백엔드가 필요한데, fencelab은 자기 것에만 그것을 시작합니다 (--pg에서는 안 됨)",
	"the split screen shows UNSAFE beside SAFE: not on your own server without --allow-unsafe":              "나눈 화면은 SAFE 옆에 UNSAFE를 보여 줍니다: --allow-unsafe 없이 내 서버에서는 안 됩니다",
	"split screen: %s beside %s, the same actions — v closes it":                                            "화면 나누기: %s를 %s 옆에, 같은 동작으로 — v로 닫습니다",
	"unknown key %q (a scene has scenario, mode, schedule, caption, watch, split, why and [[scene.step]]s)": "알 수 없는 키 %q (장면에는 scenario, mode, schedule, caption, watch, split, why와 [[scene.step]]이 있습니다)",
	"split: want true or false":                                                                                                  "split: true 또는 false여야 합니다",
	"%sexpected %d · final %d · last accepted fence %s · verdict %s":                                                             "%s예상 %d · 최종 %d · 마지막으로 받아들인 펜스 %s · 판정 %s",
	" — stopped at action %d, the rest not taken":                                                                                " — 동작 %d에서 멈춤, 나머지는 실행되지 않음",
	"(the seeded state)":                                                                                                         "(시드 상태)",
	"point of no return: the seeded state — every schedule breaks invariant %s":                                                  "돌아올 수 없는 지점: 시드 상태 — 모든 스케줄이 불변식 %s을(를) 깸",
	"point of no return: from action %d on, every schedule breaks invariant %s":                                                  "돌아올 수 없는 지점: 동작 %d부터 모든 스케줄이 불변식 %s을(를) 깸",
	"invariant %s broke":                                                                                                         "불변식 %s 깨짐",
	"  why: no shares — %s\n":                                                                                                    "  why: 비율 없음 — %s\n",
	"  (%s is a matter of progress, not of an invariant: the shares count broken invariants only)\n":                             "  (%s은(는) 진행의 문제이지 불변식의 문제가 아님: 비율은 깨진 불변식만 셈)\n",
	"  the guided order could not be followed: %s\n":                                                                             "  안내 순서를 따를 수 없음: %s\n",
	"  the counterexample, with the share of its futures that break an invariant:\n":                                             "  반례와, 각 지점에서 불변식을 깨는 미래의 비율:\n",
	"  the guided order, with the share of its futures that break an invariant:\n":                                               "  안내 순서와, 각 지점에서 불변식을 깨는 미래의 비율:\n",
	"    could not be followed further: %s\n":                                                                                    "    더 따를 수 없음: %s\n",
	"the check was bounded: not every schedule was explored, so no share is exact":                                               "검사가 제한되었음: 모든 스케줄을 탐색하지 않았으므로 정확한 비율이 없음",
	"one action from one state led to two different states: the graph is not a function, so no share is exact":                   "한 상태에서 같은 동작이 서로 다른 두 상태로 이어짐: 그래프가 함수가 아니므로 정확한 비율이 없음",
	"an action that changed nothing found an invariant broken that the way into its state did not: no share is exact":            "아무것도 바꾸지 않은 동작이, 그 상태로 들어오는 길에서는 찾지 못한 깨진 불변식을 찾음: 정확한 비율이 없음",
	"the search recorded no state":                                                                                               "탐색이 상태를 하나도 기록하지 않음",
	"the states form a cycle: some schedules never end, so no share is exact":                                                    "상태가 순환을 이룸: 끝나지 않는 스케줄이 있으므로 정확한 비율이 없음",
	"check every schedule in the background: each action's share of futures that break an invariant, and the point of no return": "모든 스케줄을 백그라운드에서 검사: 각 동작 뒤 불변식을 깨는 미래의 비율과 돌아올 수 없는 지점",
	"checked, but no shares: %s":                                                                                                 "검사했지만 비율 없음: %s",
	"checking… %s states":                                                                                                        "검사 중… 상태 %s개",
	"no future of this state breaks an invariant":                                                                                "이 상태의 어떤 미래도 불변식을 깨지 않음",
	"this state is outside the check's graph":                                                                                    "이 상태는 검사한 그래프 밖에 있음",
	"futures here: %s break":                                                                                                     "여기서의 미래: %s가 깨짐",
	"no return from the seed":                                                                                                    "시드부터 돌아올 수 없음",
	"no return since action %d":                                                                                                  "동작 %d부터 돌아올 수 없음",
	"What can happen next":                                                                                                       "다음에 일어날 수 있는 일",
	"%s, after action %d":                                                                                                        "%s, 동작 %d 뒤",
	"no check yet for %s: c runs it":                                                                                             "%s에 대한 검사가 아직 없음: c로 실행",
	"no shares: %s":                                                                                                              "비율 없음: %s",
	"this state is outside the check's graph (the clock moved by a step the check does not take, say): no shares here": "이 상태는 검사한 그래프 밖에 있음 (예: 검사가 하지 않는 만큼 시계가 움직임): 여기서는 비율 없음",
	"nothing can change any more: this schedule is complete":                                                           "더 바뀔 것이 없음: 이 스케줄은 완전함",
	"share of the ways on that break an invariant, if this happens next:":                                              "이것이 다음에 일어나면, 이어지는 길 중 불변식을 깨는 비율:",
	"(paused now: p resumes it)":     "(지금 일시 정지: p로 재개)",
	"breaks invariant %s right away": "곧바로 불변식 %s을(를) 깸",
	"any key goes back":              "아무 키나 누르면 돌아감",
	"check needs backends of its own, which fencelab starts only for itself (not with --pg): run fencelab check ID --why": "검사에는 자체 백엔드가 필요하며, fencelab은 자기 것만 시작합니다 (--pg에서는 안 됨): fencelab check ID --why를 실행하세요",
	"checking %s %s: every schedule, in the background…":                                                                  "%s %s 검사 중: 모든 스케줄을 백그라운드에서…",
	"why: want true or false": "why: true 또는 false여야 합니다",
	"diff --to %q: want md or mermaid (or leave it out for the terminal)": "diff --to %q: md 또는 mermaid여야 합니다 (터미널에 출력하려면 빼세요)",
	"diff prints JSON or a document, not both":                            "diff는 JSON이나 문서 중 하나만 출력합니다",
	"action %d: %s":             "동작 %d: %s",
	"not taken":                 "실행되지 않음",
	"the explorer's %d actions": "탐색기의 동작 %d개",
	"export as: m Markdown, d Mermaid (both sides, a diff) · c cast · t VHS tape · g GIF · v SVG (this side) · esc": "내보내기 형식: m Markdown, d Mermaid (양쪽, diff) · c cast · t VHS tape · g GIF · v SVG (이쪽) · esc",
	"nothing to export yet: take an action first":                             "아직 내보낼 것이 없음: 먼저 동작을 하나 하세요",
	"no future breaks an invariant":                                           "어떤 미래도 불변식을 깨지 않음",
	"no point of no return: from every step, some way on breaks no invariant": "돌아올 수 없는 지점 없음: 어느 단계에서든 불변식을 깨지 않고 이어지는 길이 있음",
	"  why: none of the %s ways to run it to its end from the seed (every order of calls) breaks an invariant — no future of any state breaks one\n": "  why: 시드에서 끝까지 실행하는 %s가지 길(호출의 모든 순서) 중 불변식을 깨는 것은 없음 — 어느 상태의 미래도 불변식을 깨지 않음\n",
	"  why: of the %s ways to run it to its end from the seed (every order of calls), %s (%s) break an invariant":                                    "  why: 시드에서 끝까지 실행하는 %s가지 길(호출의 모든 순서) 중 %s가지(%s)가 불변식을 깸",
	"invariant %d: %s": "불변식 %d: %s",
	"what can happen next, each with its share of broken futures (after c; o in a talk, where b blanks the screen)": "다음에 일어날 수 있는 일과 각각의 깨진 미래 비율 (c 다음에. 발표에서는 b가 화면을 비우므로 o)",
	"what can happen next":                 "다음에 일어날 수 있는 일",
	"the check of %s could not finish: %s": "%s 검사를 끝낼 수 없음: %s",
	"checked %s: %s states · %s is a matter of progress, not of an invariant: the shares count broken invariants only": "%s 검사 완료: 상태 %s개 · %s은(는) 진행의 문제이지 불변식의 문제가 아님: 비율은 깨진 불변식만 셈",
	"checked %s: %s states · the timeline shows each action's share of broken futures · %s what can happen next":       "%s 검사 완료: 상태 %s개 · 타임라인이 각 동작의 깨진 미래 비율을 보여 줌 · %s 다음에 일어날 수 있는 일",
	"%s, at the seeded state": "%s, 시드 상태",
	"checked already: the shares are beside the timeline's actions · %s what can happen next":                           "이미 검사함: 비율은 타임라인의 동작 옆에 있음 · %s 다음에 일어날 수 있는 일",
	"a check of this is running already; it goes on in the background":                                                  "이것의 검사가 이미 실행 중이며 백그라운드에서 계속됨",
	"queued: %s %s is checked once the check running ends":                                                              "대기열에 넣음: 실행 중인 검사가 끝나면 %s %s을(를) 검사함",
	"bench measures fencelab's own backends: leave out --pg and --redis":                                                "bench는 fencelab 자체 백엔드를 잽니다: --pg와 --redis를 빼세요",
	"each figure beside its floor, medians of runs one after the other (lower is better for ms, higher for a rate)\n\n": "각 수치와 그 바닥, 번갈아 실행한 중앙값 (ms는 낮을수록, 비율은 높을수록 좋음)\n\n",
	"floor: %s":                                      "바닥: %s",
	"bench takes no arguments, got %q":               "bench는 인자를 받지 않습니다. 받은 것: %q",
	"--runs must be 1 to 100, got %d":                "--runs는 1에서 100 사이여야 합니다. 받은 값: %d",
	"pressed: %s — taken as soon as the lab is open": "누른 키: %s — 랩이 열리는 대로 실행됨",
	" · %+.1f ms":                                    " · %+.1f ms",
	"%d invariants: at most %d":                      "불변식 %d개: 최대 %d개",
	"%s %q: a reply, or rows = N":                    "%s %q: 응답, 또는 rows = N",
	"%s is a list of strings":                        "%s은(는) 문자열 목록입니다",
	"%s is not a command a step sends (strings, hashes and keys only: GET, SET, INCR, HSET, DEL, EXPIRE, …); a script can do more": "%s은(는) 스텝이 보내는 명령이 아닙니다(문자열, 해시, 키 명령만: GET, SET, INCR, HSET, DEL, EXPIRE, …). 스크립트는 더 할 수 있습니다",
	"%s must be a string or a list of strings": "%s은(는) 문자열이거나 문자열 목록이어야 합니다",
	"%s must be strings":                       "%s은(는) 문자열이어야 합니다",
	"%s needs its key":                         "%s에는 키가 필요합니다",
	"%s waits: %s answered %s":                 "%s이(가) 기다립니다: %s의 응답은 %s",
	"%s · schema %s":                           "%s · 스키마 %s",
	"%s: %s answered %s — refused":             "%s: %s의 응답은 %s — 거부됨",
	"%s: %s answered %s":                       "%s: %s의 응답은 %s",
	"%s: invariant %s: %w":                     "%s: 불변식 %s: %w",
	"%s: step %s of %s left a transaction open: end it in the step (COMMIT or ROLLBACK)": "%s: %[3]s의 스텝 %[2]s이(가) 트랜잭션을 열어 둔 채 끝났습니다. 스텝 안에서 끝내세요(COMMIT 또는 ROLLBACK)",
	"%s: step %s of %s: %s — in: %s":                                                     "%s: %[3]s의 스텝 %[2]s: %[4]s — 문장: %[5]s",
	"%s: step %s of %s: the server said: %s — in: %s":                                    "%s: %[3]s의 스텝 %[2]s: 서버의 응답: %[4]s — 명령: %[5]s",
	"%sexpected %d · final %d · verdict %s":                                              "%s기대값 %d · 최종 %d · 판정 %s",
	"1 row": "1행",
	"BEGIN comes first in a step's list of statements":                                                                    "BEGIN은 스텝의 문장 목록에서 맨 앞에 옵니다",
	"COMMIT or ROLLBACK comes last in a step's list of statements":                                                        "COMMIT이나 ROLLBACK은 스텝의 문장 목록에서 맨 끝에 옵니다",
	"a code actor runs a file's own steps: the file has no [[step]]":                                                      "code 액터는 파일 자신의 스텝을 실행합니다. 이 파일에는 [[step]]이 없습니다",
	"a code actor's program names the file's steps: [\"acquire\", \"write\"]":                                             "code 액터의 프로그램은 파일의 스텝 이름을 씁니다: [\"acquire\", \"write\"]",
	"a file's SQL does not name fencelab's own schema or objects (%s)":                                                    "파일의 SQL은 fencelab 자신의 스키마나 객체를 가리키지 않습니다(%s)",
	"a file's SQL may not %s %s":                                                                                          "파일의 SQL은 %s %s을(를) 쓸 수 없습니다",
	"%s %w %s: %s's step holds it":                                                                                        "%s은(는) 연결 %[3]s을(를) %[2]w: %[4]s의 단계가 쥐고 있습니다",
	"waits for its connection":                                                                                            "기다리는 중입니다",
	"step %s names a connection, which is PostgreSQL's: only a sql step has one":                                          "단계 %s이(가) 연결을 지정합니다. 연결은 PostgreSQL의 것이라 sql 단계만 가질 수 있습니다",
	"connection %q: lower-case letters, digits and dashes, at most 40 (\"pool-1\")":                                       "연결 %q: 소문자, 숫자, 대시로 40자까지 (\"pool-1\")",
	"a file's SQL may not use %s: it %s":                                                                                  "파일의 SQL은 %s을(를) 쓸 수 없습니다: 이 함수는 %s",
	"a file's SQL may not use %s: it runs a query given to it as text, which fencelab cannot hold to these rules":         "파일의 SQL은 %s를 쓸 수 없습니다: 텍스트로 받은 쿼리를 실행하는데, fencelab은 그 쿼리를 이 규칙으로 붙잡아 둘 수 없습니다",
	"an advisory lock is taken in a step: this SQL runs on the lab's own connection, whose session is no actor's":         "advisory 락은 단계에서 잡습니다. 이 SQL은 랩 자신의 연결에서 돌고, 그 세션은 어느 액터의 것도 아닙니다",
	"a file's SQL may not use %s":                                                                                         "파일의 SQL은 %s을(를) 쓸 수 없습니다",
	"a file's SQL sets nothing of its session but SET TRANSACTION: the lab's connections are shared with fencelab":        "파일의 SQL은 SET TRANSACTION 말고는 세션에 아무것도 설정하지 않습니다. 랩의 연결은 fencelab과 함께 씁니다",
	"a guard is its fragment of code, or { text = \"…\", else = \"…\", says = \"…\" }":                                    "가드는 코드 조각이거나 { text = \"…\", else = \"…\", says = \"…\" }입니다",
	"a check of the file's own (its guards entry says no more: says = \"…\")":                                             "파일 자신의 검사 (guards 항목에 설명이 없습니다: says = \"…\")",
	"more than %d guards of files' own in one run of fencelab":                                                            "fencelab 한 번의 실행에서 파일 자신의 가드가 %d개를 넘습니다",
	"%s is fencelab's guard, which says what it checks itself: name the file's own guard otherwise to give it a sentence": "%s는 fencelab의 가드이며 무엇을 검사하는지 스스로 말합니다: 문장을 붙이려면 파일 자신의 가드에 다른 이름을 주세요",
	"a guard needs a name": "가드에는 이름이 필요합니다",
	"guard %q: a guard's name holds no brace, comma or line break (it goes in {{NAME}} and in --without A,B)": "가드 %q: 가드 이름에는 중괄호, 쉼표, 줄바꿈을 쓸 수 없습니다 ({{NAME}}과 --without A,B에 들어갑니다)",
	"guard %q: at most 40 characters":                                                                         "가드 %q: 최대 40자입니다",
	"the file's steps define no guards: SAFE and UNSAFE run the same code":                                    "파일의 스텝이 정의한 가드가 없습니다: SAFE와 UNSAFE는 같은 코드를 실행합니다",
	"a hash field's value is a string or a whole number":                                                      "해시 필드의 값은 문자열이나 정수입니다",
	"a hash needs a field: Redis keeps no empty hash":                                                         "해시에는 필드가 있어야 합니다. Redis는 빈 해시를 두지 않습니다",
	"a key's value is a string, a whole number, or a table of fields (a hash)":                                "키의 값은 문자열, 정수, 또는 필드의 표(해시)입니다",
	"a script names each command it calls as a string: redis.call(\"GET\", KEYS[1])":                          "스크립트는 호출하는 명령마다 그 이름을 문자열로 씁니다: redis.call(\"GET\", KEYS[1])",
	"a statement is a string, or a table { sql = \"…\", save = \"…\" }":                                       "문장은 문자열이거나 표 { sql = \"…\", save = \"…\" }입니다",
	"a step changes rows, not tables: %s belongs in [setup]":                                                  "스텝은 테이블이 아니라 행을 바꿉니다. %s은(는) [setup]에 씁니다",
	"a step's transaction begins and ends in the step: BEGIN first and COMMIT (or ROLLBACK) last, or neither": "스텝의 트랜잭션은 스텝 안에서 시작하고 끝납니다. 맨 앞에 BEGIN, 맨 끝에 COMMIT(또는 ROLLBACK), 아니면 둘 다 없이",
	"an empty statement": "빈 문장",
	"an invariant's keys are names, without parameters":                                                                                    "불변식의 키는 매개변수 없는 이름입니다",
	"expected as a table says how to read the value: sql = \"SELECT …\" or redis = \"KEY\"":                                                "표로 쓴 expected는 값을 읽는 방법을 말합니다: sql = \"SELECT …\" 또는 redis = \"KEY\"",
	"expected needs its value: expected = { value = 2, sql = \"SELECT …\" }":                                                               "expected에는 값이 필요합니다: expected = { value = 2, sql = \"SELECT …\" }",
	"expected reads the value by sql or from a redis key, not both":                                                                        "expected는 값을 sql이나 redis 키 중 하나로 읽습니다. 둘 다는 안 됩니다",
	"expected.redis reads a file's own key: give the file a [setup] or [[step]]":                                                           "expected.redis는 파일 자신의 키를 읽습니다. 파일에 [setup]이나 [[step]]을 주세요",
	"expected.sql reads a file's own table: give the file a [setup] or [[step]]":                                                           "expected.sql은 파일 자신의 테이블을 읽습니다. 파일에 [setup]이나 [[step]]을 주세요",
	"invariant %s has no check: sql (a query returning one boolean) or lua (a script returning 1 or 0)":                                    "불변식 %s에 검사가 없습니다: sql(불리언 하나를 돌려주는 쿼리) 또는 lua(1이나 0을 돌려주는 스크립트)",
	"invariant %s has sql and lua: one of them":                                                                                            "불변식 %s에 sql과 lua가 모두 있습니다. 하나만 쓰세요",
	"invariant %s: a query (SELECT …) returning one boolean":                                                                               "불변식 %s: 불리언 하나를 돌려주는 쿼리(SELECT …)",
	"invariant name %q: the anomaly it stands for, in at most 40 characters on one line, no blank at either end — DOUBLE_SPEND, edit-lost": "불변식 이름 %q: 그것이 나타내는 이상 현상을 한 줄, 40자 이내, 양 끝에 공백 없이 — DOUBLE_SPEND, edit-lost",
	"invariant name %s is taken: name it otherwise":                                                                                        "불변식 이름 %s은(는) 이미 쓰입니다. 다른 이름을 쓰세요",
	"key %q: a key's name has no spaces or glob characters, and at most 200 bytes":                                                         "키 %q: 키 이름에는 공백이나 glob 문자가 없고, 최대 200바이트입니다",
	"measure and expected as a table both say what to count: keep one":                                                                     "measure와 표로 쓴 expected가 둘 다 무엇을 셀지 말합니다. 하나만 두세요",
	"no rows": "행 없음",
	"one statement per string: a list (sql = [\"…\", \"…\"]) gives several":                                          "문자열 하나에 문장 하나: 여러 개는 목록(sql = [\"…\", \"…\"])으로",
	"redis is a command as a list of words: [\"GET\", \"counter\"]":                                                  "redis는 단어 목록으로 쓴 명령입니다: [\"GET\", \"counter\"]",
	"result  %sexpected %d · final %d · verdict %s":                                                                  "결과  %s기대값 %d · 최종 %d · 판정 %s",
	"returned %s, not 1 or 0":                                                                                        "1이나 0이 아니라 %s을(를) 돌려주었습니다",
	"returned %s, not true or false":                                                                                 "true나 false가 아니라 %s을(를) 돌려주었습니다",
	"save %q: a name of letters, digits and _, and none of %s":                                                       "save %q: 글자, 숫자, _로 된 이름이어야 하고 %s은(는) 안 됩니다",
	"sql has no statement":                                                                                           "sql에 문장이 없습니다",
	"sql is a statement, or a list of them (BEGIN … COMMIT)":                                                         "sql은 문장 하나, 또는 문장 목록(BEGIN … COMMIT)입니다",
	"step %s has %s and %s: one of lua, redis or sql":                                                                "스텝 %s에 %s과(와) %s이(가) 있습니다. lua, redis, sql 중 하나만",
	"step %s has no code: give it lua, redis or sql":                                                                 "스텝 %s에 코드가 없습니다. lua, redis, sql 중 하나를 주세요",
	"step %s has no variant for %s (mode = %q, or one for both)":                                                     "스텝 %s에 %s용 변형이 없습니다(mode = %q, 또는 두 모드 공용)",
	"step %s has {{%s}}, which its guards do not define: guards = { %s = \"…\" }":                                    "스텝 %s에 {{%s}}가 있지만 guards가 정의하지 않습니다: guards = { %s = \"…\" }",
	"step %s is in no actor's program":                                                                               "스텝 %s은(는) 어느 액터의 프로그램에도 없습니다",
	"step %s uses $%s, which no step before it in %s's program (line %d) saves (save = %q), and which is none of %s": "스텝 %s이(가) $%s을(를) 쓰지만, %s의 프로그램(%d행)에서 그 앞의 어떤 스텝도 저장하지 않고(save = %q), %s 중 하나도 아닙니다",
	"step name %q: lower-case letters, digits and dashes, at most 40":                                                "스텝 이름 %q: 소문자, 숫자, 대시로 최대 40자",
	"the check of %s answered false":                                                                                 "%s의 검사가 false를 돌려주었습니다",
	"%s holds advisory lock %s":                                                                                      "%s 세션이 advisory 락 %s을 쥐고 있습니다",
	"waits for connection %s, which %s's step holds":                                                                 "연결 %s을(를) 기다립니다. %s의 단계가 쥐고 있습니다",
	"\nyour design does not need: %s (SAFE held with each taken out alone)\n":                                        "\n이 설계에 필요 없는 가드: %s (하나씩 빼도 SAFE가 지켜졌습니다)\n",
	"lease %s has no TTL: it lives until someone deletes it":                                                         "리스 %s에 TTL이 없습니다. 누군가 지울 때까지 살아 있습니다",
	"lease %s has more time left than the %s it was granted for":                                                     "리스 %s의 남은 시간이 받은 TTL %s보다 깁니다",
	"no lease lives longer than its TTL: after every step, a lease's remaining time on the lab clock is at most the TTL it was granted with, and the fencing history (counter, epoch) never expires": "어떤 리스도 TTL보다 오래 살지 않는다: 매 단계 뒤 랩 시계로 본 리스의 남은 시간은 받은 TTL 이하다, 펜싱 기록(카운터, 에포크)은 만료되지 않는다",
	"%s (the fencing %s) has a TTL: the history it keeps would expire, and its tokens be handed out again":                                                                                           "%s(펜싱 %s)에 TTL이 있습니다: 이 키가 지키는 기록이 만료되면 그 토큰들이 다시 발급됩니다",
	"%s is a reply, a list of replies, or the string \"rows = N\": %s = \"rows = 0\"":                                                                                                                "%s은(는) 응답 하나, 응답 목록, 또는 문자열 \"rows = N\"입니다: %s = \"rows = 0\"",
	"\nrun: %d scenario × mode in %.1fs: %d as predicted, %d with no prediction (SAFE broke no invariant; UNSAFE may end any way), %d not\n":                                                         "\nrun: 시나리오 × 모드 %d개, %.1f초: 예측대로 %d, 예측 없음 %d (SAFE는 불변식을 깨지 않았고 UNSAFE는 어떻게 끝나도 됩니다), 예측과 다름 %d\n",
	"%s was failed %s before its deadline (created + %s)":                                                                                                                                            "%s이(가) 마감(생성 + %[3]s)보다 %[2]s 먼저 실패 처리되었습니다",
	"time is the lab clock's: a job is failed only after its deadline on it, and every moment a step records is on it":                                                                               "시간은 랩 시계의 것이다: 잡은 랩 시계로 마감이 지난 뒤에만 실패 처리되고, 단계가 기록하는 모든 시각은 랩 시계 위에 있다",
	"%s is %s, %s ahead of the lab clock (%s): it was not taken from the lab clock":                                                                                                                  "%s은(는) %s로, 랩 시계(%[4]s)보다 %[3]s 앞서 있습니다: 랩 시계에서 읽은 시각이 아닙니다",
	"%s is %s, %s before the lab clock began (%s): it was not taken from the lab clock":                                                                                                              "%s은(는) %s로, 랩 시계가 시작된 때(%[4]s)보다 %[3]s 앞섭니다: 랩 시계에서 읽은 시각이 아닙니다",
	"  [provider] \"%s\" was sent on no schedule: its scripted answer was never given, so this check shows nothing about it (is the OperationId made otherwise than the scenario expects?)\n":        "  [provider] \"%s\"은(는) 어느 스케줄에서도 보내지지 않았습니다: 스크립트한 응답이 한 번도 주어지지 않았으므로 이 검사는 그에 대해 아무것도 보여 주지 않습니다 (OperationId가 시나리오의 예상과 다르게 만들어지나요?)\n",
	"unsent  [provider] \"%s\" was never sent: its scripted answer was never given, so the run shows nothing about it (is the OperationId made otherwise than the scenario expects?)\n":              "미전송  [provider] \"%s\"은(는) 한 번도 보내지지 않았습니다: 스크립트한 응답이 주어지지 않았으므로 이 실행은 그에 대해 아무것도 보여 주지 않습니다 (OperationId가 시나리오의 예상과 다르게 만들어지나요?)\n",
	"[provider] \"%s\" never sent": "[provider] \"%s\" 미전송",
	"%s's assignment changed (%s), and no step of this scenario is for it: a statement changed a row it was not for":                                                  "%s의 배정이 바뀌었습니다(%s). 이 시나리오의 어느 단계도 그것을 위한 것이 아닙니다: 한 문장이 자기 것이 아닌 행을 바꿨습니다",
	"%s's assignment is gone: no step of this scenario is for it":                                                                                                     "%s의 배정이 사라졌습니다: 이 시나리오의 어느 단계도 그것을 위한 것이 아닙니다",
	"%s: %s for %s, but the lease has %s left":                                                                                                                        "%s: %s(%s 동안). 그러나 리스는 %s 남았습니다",
	"fencelab: Redis would not make the user a file's Redis code runs as (%s): it runs as fencelab's own user, kept to the run's keys by fencelab's refusals alone\n": "fencelab: Redis가 파일의 Redis 코드를 실행할 사용자를 만들지 않았습니다(%s). 코드는 fencelab 자신의 사용자로 실행되며, 실행의 키 안에 머무는 것은 fencelab의 거부에만 달려 있습니다\n",
	"  NOT as its file predicts: a [provider] entry was sent on no schedule\n":                                                                                        "  파일의 예측과 다름: 어느 스케줄에서도 보내지 않은 [provider] 항목이 있습니다\n",
	"  NOT as the catalog claims: a [provider] entry was sent on no schedule\n":                                                                                       "  카탈로그의 주장과 다름: 어느 스케줄에서도 보내지 않은 [provider] 항목이 있습니다\n",
	"  NOT as the catalog claims: the guided order ended %d %s, predicted %d %s\n":                                                                                    "  카탈로그의 주장과 다름: 안내된 순서가 %d %s(으)로 끝났고, 예측은 %d %s입니다\n",
	"%s: its job acquire answered that %s runs for %s, but the running key names %s: %s watches a job that is not the one running":                                    "%s: 잡 획득이 %s이(가) %s에서 실행 중이라고 답했지만, 실행 키는 %s을(를) 가리킵니다: %s은(는) 실행 중이 아닌 잡을 지켜봅니다",
	"no job": "아무 잡도 없음",
	"%s was recorded just now as %s, %s behind the lab clock (%s): it was not taken from the lab clock": "%s이(가) 방금 %s로 기록되었습니다. 랩 시계(%[4]s)보다 %[3]s 뒤입니다: 랩 시계에서 읽은 시각이 아닙니다",
	"%d days": "%d일",
	"%s dropped: %d keys are waiting already": "%s 키는 버려졌습니다: 이미 %d개의 키가 기다리고 있습니다",
	"fencelab crashed (a bug of its own): %s, in %s; the crash log is %s — please report it with the keys you pressed":                     "fencelab이 멈췄습니다(fencelab 자체의 버그): %s, 위치 %s; 충돌 기록은 %s — 누른 키와 함께 알려 주세요",
	"fencelab crashed (a bug of its own): %s, in %s; no crash log could be written: %s":                                                    "fencelab이 멈췄습니다(fencelab 자체의 버그): %s, 위치 %s; 충돌 기록을 쓰지 못했습니다: %s",
	"fencelab crashed (a bug of its own); the panic is printed above":                                                                      "fencelab이 멈췄습니다(fencelab 자체의 버그); panic 내용은 위에 출력되어 있습니다",
	"%s is gone with its directory %s: watched until it is back":                                                                           "%s 파일이 디렉터리 %s와 함께 사라졌습니다: 돌아올 때까지 지켜봅니다",
	"%s is gone (removed or renamed): watched until it is back":                                                                            "%s 파일이 사라졌습니다(삭제되었거나 이름이 바뀜): 돌아올 때까지 지켜봅니다",
	"fencelab: the counterexample found before the stop is in %s":                                                                          "fencelab: 멈추기 전에 찾은 반례는 %s에 있습니다",
	"fencelab: the %d counterexamples found before the stop are in %s":                                                                     "fencelab: 멈추기 전에 찾은 반례 %d개는 %s에 있습니다",
	"fencelab: %s: its %d actors' places alone combine %s ways, more with data and the clock: a long search, bounded by --max-memory %s\n": "fencelab: %s: 액터 %d개의 위치 조합만으로 %s가지이고, 데이터와 시계까지 더하면 더 많습니다: 긴 탐색이며 --max-memory %s로 제한됩니다\n",
	"BOUNDED by --max-memory: not every schedule":                                                                                          "--max-memory로 제한됨: 모든 스케줄은 아님",
	"%s: cut short at %s states, past --max-memory %s: this proves nothing; a larger --max-memory goes further":                            "%s: 상태 %s개에서 중단됨, --max-memory %s 초과: 이것은 아무것도 증명하지 않습니다; 더 큰 --max-memory로 더 나아갈 수 있습니다",
	"  cut short at %s states, past --max-memory %s: this proves nothing; a larger --max-memory goes further\n":                            "  상태 %s개에서 중단됨, --max-memory %s 초과: 이것은 아무것도 증명하지 않습니다; 더 큰 --max-memory로 더 나아갈 수 있습니다\n",
	"--max-memory %q: %v": "--max-memory %q: %v",
	"  (it broke with one statement at a time, so the %s with a statement in flight were left out)\n": "  (한 번에 문장 하나씩으로 이미 깨졌으므로, 문장이 진행 중인 %s은 탐색하지 않았습니다)\n",
	"%s's receipt (%s) is for no outbox row":                                                          "%s의 영수증(%s)에 해당하는 outbox 행이 없습니다",
	"outbox row %s is %s with no receipt":                                                             "outbox 행 %s는 %s인데 영수증이 없습니다",
	"outbox row %s is %s, its receipt %s":                                                             "outbox 행 %s는 %s인데 영수증은 %s입니다",
	"cannot overlap":                                                                                  "겹칠 수 없습니다",
	"%s with %s: %w":                                                                                  "%s와 %s: %w",
	"%s's write has run and holds its row locks; its COMMIT has not gone yet":                         "%s의 쓰기가 실행되어 행 잠금을 쥐고 있습니다. 아직 COMMIT은 보내지 않았습니다",
	"%s's statement is sent while %s's write is open: it waits for %s's locks":                        "%s의 문장이 %s의 쓰기가 열려 있는 동안 보내졌습니다: %s의 잠금을 기다립니다",
	"%s's statement is sent while %s's write is open: it waits for nothing and sees only what was committed before": "%s의 문장이 %s의 쓰기가 열려 있는 동안 보내졌습니다: 아무것도 기다리지 않고, 그 전에 커밋된 것만 봅니다",
	"%s's write, %s's statement before its commit":                                                                  "%s의 쓰기, 그 커밋 전에 %s의 문장",
	"overlap needs the other actor (with)":                                                                          "overlap에는 다른 액터(with)가 필요합니다",
	"%s takes no other actor, got %q":                                                                               "%s는 다른 액터를 받지 않습니다. 받은 값: %q",
	"would send a statement while another actor's statement waits for a lock: one waits at a time":                  "다른 액터의 문장이 잠금을 기다리는 동안 문장을 보내게 됩니다: 한 번에 하나만 기다립니다",
	"%s does nothing here — ? lists the keys":                                                                       "%s 키는 여기서 아무것도 하지 않습니다 — ?가 키를 보여 줍니다",
	"show/hide the DSN": "DSN 보이기/숨기기",
	"export the run: Markdown, Mermaid, cast, tape, GIF, SVG": "실행 내보내기: Markdown, Mermaid, cast, tape, GIF, SVG",
	"suspend to the shell; fg comes back":                     "셸로 잠시 멈춤. fg로 돌아옴",
	"%s: warning: %s's UNSAFE add has no read-summary before it: it writes 0 plus N, whatever the summary holds (put read-summary before it, unless that lost update is the point)": "%s: 경고: %s의 UNSAFE add 앞에 read-summary가 없습니다. 요약값이 무엇이든 0에 N을 더해 씁니다 (그 lost update가 의도가 아니라면 앞에 read-summary를 두세요)",
	"not a TOML file: it holds bytes no text holds (binary data?)":                                            "TOML 파일이 아닙니다: 텍스트에 없는 바이트가 들어 있습니다 (바이너리 데이터?)",
	"unknown scenario %q (did you mean %s?)":                                                                  "알 수 없는 시나리오 %q (%s을(를) 뜻했나요?)",
	"unknown scenario %q: scenario show prints a catalog scenario (one of: %s)":                               "알 수 없는 시나리오 %q: scenario show는 카탈로그 시나리오를 출력합니다 (%s 중 하나)",
	"unknown flag %s (did you mean %s?)":                                                                      "알 수 없는 플래그 %s (%s을(를) 뜻했나요?)",
	"the file has no tables":                                                                                  "파일에 테이블이 없습니다",
	"the script calls %s, which is not a command fencelab lets a script send (strings, hashes and keys only)": "스크립트가 %s을(를) 호출합니다. fencelab이 스크립트에 허용하는 명령이 아닙니다(문자열, 해시, 키 명령만)",
	"the script failed: %s":                                                                                   "스크립트가 실패했습니다: %s",
	"the script uses %s, which a step may not":                                                                "스크립트가 %s을(를) 씁니다. 스텝은 쓸 수 없습니다",
	"two [[step]]s are named %q%s":                                                                            "[[step]] 두 개의 이름이 %q%s입니다",
	"unknown step %q (the file's steps: %s)":                                                                  "알 수 없는 스텝 %q (파일의 스텝: %s)",
}
