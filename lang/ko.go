package lang

// ko is the Korean catalog: English format → Korean format. The verbs are
// the same as the English ones; %[n]s picks an argument where Korean word
// order puts it elsewhere.
var ko = map[string]string{
	// The narration of the engine's own actions: pauses, resumes, the clock.
	"%s is frozen mid-job (%s): it cannot notice time passing or its lease running out.":                                "%s이(가) 작업 도중 멈췄습니다(%s). 시간이 흐르는 것도, 리스가 끝나는 것도 알아차릴 수 없습니다.",
	"%s is frozen mid-job (%s) while it holds token %d; nothing tells it when its lease runs out.":                      "%s이(가) 토큰 %[3]d을 가진 채 작업 도중 멈췄습니다(%[2]s). 리스가 언제 끝나는지 아무도 알려주지 않습니다.",
	"%s carries on exactly where it stopped, sure that token %d is still the newest — it has no way to know otherwise.": "%s은(는) 멈춘 바로 그 자리에서 계속합니다. 토큰 %d이 여전히 가장 최신이라고 확신하며 — 그렇지 않다는 것을 알 길이 없습니다.",
	"%s passes; nothing in Redis expires.":                                                                 "%s이 흐릅니다. Redis에서 만료되는 키는 없습니다.",
	"Time passes and Redis drops %d expired key(s); whoever held them is not told.":                        "시간이 흐르고 Redis가 만료된 키 %d개를 지웁니다. 그 키를 가졌던 쪽은 아무 통보도 받지 못합니다.",
	"The lease already ran out on the real clock: Redis has dropped it, and whoever held it was not told.": "리스는 실제 시계로 이미 끝났습니다. Redis가 지웠고, 가졌던 쪽은 아무 통보도 받지 못했습니다.",
	"Invariant %d broke: %s — %s.":                                                                         "불변식 %d이(가) 깨졌습니다: %s — %s.",

	// The invariants of DESIGN §7.
	"a committed write carries a token above every token accepted before it":                     "커밋된 쓰기는 그 전에 받아들여진 모든 토큰보다 큰 토큰을 가진다",
	"a write happens only under the current membership, region, version and namespace":           "쓰기는 현재의 멤버십, 리전, 버전, 네임스페이스 아래에서만 일어난다",
	"business state, checkpoint, execution and outbox change together or not at all":             "비즈니스 상태, 체크포인트, 실행 기록, 아웃박스는 함께 바뀌거나 전혀 바뀌지 않는다",
	"an OperationId is applied at most once by the provider":                                     "하나의 OperationId는 제공자에게 최대 한 번만 적용된다",
	"a terminal job state (SUCCESS, FAILED) never changes":                                       "잡의 종료 상태(SUCCESS, FAILED)는 절대 바뀌지 않는다",
	"every job hash is reachable from its running key while RUNNING; one running job per target": "RUNNING인 잡 해시는 모두 running 키로 찾을 수 있다. 대상마다 실행 중인 잡은 하나다",
	"every committed read-modify-write was computed from the value current at its commit":        "커밋된 읽기-수정-쓰기는 모두 커밋 시점의 현재 값으로 계산되었다",

	// Workers, leases and the fenced write.
	"%s must wait: %s already leads %s.": "%s은(는) 기다려야 합니다. %s이(가) 이미 %s을(를) 이끌고 있습니다.",
	"%s now leads %s: the leader lease says who runs the job, but not in what order writers come.":                                                                                   "이제 %s이(가) %s을(를) 이끕니다. 리더 리스는 누가 잡을 실행하는지는 말해주지만, 쓰는 쪽이 어떤 순서로 오는지는 말해주지 않습니다.",
	"%s is done with %s and gives up leading it.":                                                                                                                                    "%s이(가) %s을(를) 마치고 리더 자리를 내려놓습니다.",
	"%s finds it no longer led %s: the lease ran out while it worked.":                                                                                                               "%s은(는) 더 이상 %s을(를) 이끌고 있지 않았음을 알게 됩니다. 일하는 동안 리스가 끝났습니다.",
	"The namespace moved on: %s adopts epoch %d, a token space that starts over, so its tokens cannot be confused with old ones.":                                                    "네임스페이스가 넘어갔습니다. %s은(는) 에포크 %d을 받아들입니다. 처음부터 다시 시작하는 토큰 공간이므로, 그 토큰은 옛 토큰과 헷갈릴 수 없습니다.",
	"Redis lost its fencing history, so the script refuses to hand out tokens from zero again: an operator must start a new namespace epoch.":                                        "Redis가 펜싱 이력을 잃었으므로, 스크립트는 0부터 다시 토큰을 나눠주기를 거부합니다. 운영자가 새 네임스페이스 에포크를 시작해야 합니다.",
	"%s has to wait: the lease is on the resource itself, so any job that touches this summary takes its turn.":                                                                      "%s은(는) 기다려야 합니다. 리스가 리소스 자체에 걸려 있으므로, 이 요약을 건드리는 잡은 모두 차례를 기다립니다.",
	"Redis hands %s fencing token %d under namespace epoch %d: a token space that started over, which PostgreSQL orders after every token of epoch %d.":                              "Redis가 %s에게 네임스페이스 에포크 %[3]d의 펜싱 토큰 %[2]d을 줍니다. 처음부터 다시 시작한 토큰 공간이고, PostgreSQL은 이것을 에포크 %[4]d의 모든 토큰 뒤에 둡니다.",
	"Redis hands %s fencing token %d, smaller than the tokens it handed out before (they were past %d): the restart lost the counter, and with it the order fencing tokens promise.": "Redis가 %s에게 펜싱 토큰 %d을 줍니다. 전에 나눠준 토큰(%d을 넘었던)보다 작습니다. 재시작으로 카운터를 잃었고, 그와 함께 펜싱 토큰이 약속하던 순서도 잃었습니다.",
	"Redis hands %s fencing token %d: every new holder gets a bigger number than the one before.":                                                                                    "Redis가 %s에게 펜싱 토큰 %d을 줍니다. 새로 리스를 가진 쪽은 언제나 이전보다 큰 번호를 받습니다.",
	"%s lets the resource go; the counter keeps its value, so the next holder's token is bigger still.":                                                                              "%s이(가) 리소스를 놓아줍니다. 카운터는 값을 유지하므로 다음에 가질 쪽의 토큰은 더 큽니다.",
	"%s goes to release a lease that is no longer its own; the script leaves the other holder's lease alone.":                                                                        "%s이(가) 더 이상 자기 것이 아닌 리스를 놓으려 합니다. 스크립트는 다른 쪽의 리스를 건드리지 않습니다.",
	"%s's token belongs to an old namespace epoch, so there is nothing of its own left to release.":                                                                                  "%s의 토큰은 옛 네임스페이스 에포크에 속하므로, 놓아줄 자기 것이 남아 있지 않습니다.",
	"%s reads %d and will add to it; whatever it writes later is built on this read.":                                                                                                "%s이(가) %d을 읽고 거기에 더할 것입니다. 나중에 무엇을 쓰든 이 읽기 위에 세워집니다.",
	"%s's UPDATE goes through unconditionally: nothing re-checks its token, tenant, region, version or namespace.":                                                                   "%s의 UPDATE가 무조건 통과합니다. 토큰도, 테넌트도, 리전도, 버전도, 네임스페이스도 다시 검사하지 않습니다.",
	"%s read %d earlier, but under the row lock the summary is %d: it adds %d to that, so no update is lost (%s).":                                                                   "%s은(는) 앞서 %d을 읽었지만, 행 잠금 아래에서 요약은 %d입니다. 거기에 %d을 더하므로 잃어버리는 갱신은 없습니다(%s).",
	"PostgreSQL accepts %s (%s); it added %d to the %d it found under the row lock.":                                                                                                 "PostgreSQL이 %s을(를) 받아들입니다(%s). 행 잠금 아래에서 찾은 %[4]d에 %[3]d을 더했습니다.",
	"PostgreSQL accepts %s: %s. The fence orders writes, not reads: %d was computed from the %d it read before.":                                                                     "PostgreSQL이 %s을(를) 받아들입니다: %s. 펜스는 쓰기의 순서를 정할 뿐 읽기의 순서는 정하지 않습니다. %d은(는) 전에 읽은 %d에서 계산되었습니다.",
	"PostgreSQL accepts %s: %s, so this is the newest writer it has seen.":                                                                                                           "PostgreSQL이 %s을(를) 받아들입니다: %s. 지금까지 본 가장 새로운 쓰는 쪽이기 때문입니다.",
	"PostgreSQL refuses %s (%s): the check in the same transaction as the write is what stops a stale worker.":                                                                       "PostgreSQL이 %s을(를) 거절합니다(%s). 오래된 워커를 막는 것은 쓰기와 같은 트랜잭션 안의 검사입니다.",

	// The operator.
	"The operator moves %s away while a job for it is under way; the job still carries revision %d.":                                        "운영자가 %s을(를) 옮깁니다. 그 테넌트의 잡은 아직 진행 중이고, 여전히 리비전 %d을 들고 있습니다.",
	"A partition: region-b goes on alone and hands out its own, bigger tokens — a big token from the wrong region is still wrong.":          "파티션: region-b가 혼자 계속하며 자기만의 더 큰 토큰을 나눠줍니다 — 잘못된 리전의 큰 토큰은 여전히 잘못된 것입니다.",
	"The deploy changes the checkpoint format; a writer still running the old version does not know.":                                       "배포가 체크포인트 형식을 바꿉니다. 옛 버전으로 돌고 있는 쓰는 쪽은 그것을 모릅니다.",
	"Redis comes back empty: the counter that made every token bigger than the last is gone.":                                               "Redis가 빈 채로 돌아옵니다. 모든 토큰을 이전보다 크게 만들던 카운터가 사라졌습니다.",
	"Rather than guess the lost counter, the operator opens namespace epoch %d: tokens start over, and (epoch, token) is what is compared.": "잃어버린 카운터를 짐작하는 대신, 운영자가 네임스페이스 에포크 %d을 엽니다. 토큰은 처음부터 다시 시작하고, 비교되는 것은 (에포크, 토큰)입니다.",
	"PostgreSQL follows: from now on a write must carry epoch %d, whatever its token.":                                                      "PostgreSQL도 따라갑니다. 이제부터 쓰기는 토큰이 무엇이든 에포크 %d을 가져야 합니다.",

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
}
