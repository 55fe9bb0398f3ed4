package pgcluster_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/store/pgcluster"
)

// serverAccount is the account the server runs as when tests run as root.
// The rows of these tests are about root following what that account
// controls, so they need root.
func serverAccount(t *testing.T) (uid, gid int) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root: this is about what root does in the server account's directories (CI runs as root)")
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		t.Skip("no postgres account")
	}
	uid, _ = strconv.Atoi(u.Uid)
	gid, _ = strconv.Atoi(u.Gid)
	return uid, gid
}

// asServerAccount runs a shell script as the server account, as that
// account's own processes could; it returns what the script printed.
func asServerAccount(t *testing.T, script string) string {
	t.Helper()
	uid, gid := serverAccount(t)
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}}
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// victims are root's things the server account would like root to spoil: a
// private file and a private directory.
type victims struct{ file, dir string }

func newVictims(t *testing.T) victims {
	t.Helper()
	dir := tempDir(t)
	v := victims{file: filepath.Join(dir, "precious"), dir: filepath.Join(dir, "private")}
	require.NoError(t, os.WriteFile(v.file, []byte("root's own\n"), 0o600))
	require.NoError(t, os.Mkdir(v.dir, 0o700))
	return v
}

func (v victims) requireUntouched(t *testing.T) {
	t.Helper()
	data, err := os.ReadFile(v.file)
	require.NoError(t, err)
	require.Equal(t, "root's own\n", string(data), "root wrote into its own file through a symlink")
	info, err := os.Stat(v.dir)
	require.NoError(t, err)
	require.Equal(t, uint32(0), info.Sys().(*syscall.Stat_t).Uid, "root handed its directory to the server account")
	require.Equal(t, os.FileMode(0o700), info.Mode().Perm())
}

// Row 1: the server account replaces what root writes in the slot with
// symlinks to root's things. In a slot of an older fencelab, which that
// account owns, it can; root must still follow none of them.
func TestSymlinksOfTheServerAccountAreNotFollowed(t *testing.T) {
	uid, gid := serverAccount(t)
	ctx := context.Background()
	dir := tempDir(t)
	v := newVictims(t)

	first, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	slot := first.SlotDir
	require.NoError(t, first.Stop())

	// The slot as an older fencelab left it: the server account's.
	require.NoError(t, os.Lchown(slot, uid, gid))
	out := asServerAccount(t, fmt.Sprintf(`cd %[1]s &&
		rm -f server.log database-created slot.lock && rm -rf run data.new &&
		ln -s %[2]s server.log && ln -s %[2]s slot.lock && ln -s %[2]s database-created &&
		ln -s %[3]s run && ln -s %[3]s data.new &&
		rm -f data/postmaster.pid && mkfifo data/postmaster.pid && echo planted`, slot, v.file, v.dir))
	require.Contains(t, out, "planted", out)

	second, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	defer second.Stop()
	require.Equal(t, slot, second.SlotDir)
	v.requireUntouched(t)

	info, err := os.Lstat(slot)
	require.NoError(t, err)
	require.Equal(t, uint32(0), info.Sys().(*syscall.Stat_t).Uid, "the slot is root's again")
	conn, err := pgx.Connect(ctx, second.DSN(pgcluster.Database))
	require.NoError(t, err)
	conn.Close(ctx)
	require.NoError(t, second.Stop())

	// In a slot of this fencelab, the account cannot plant anything at all.
	out = asServerAccount(t, fmt.Sprintf(`cd %s && rm -f server.log; ln -s %s server.log; rm -rf run; ln -s %s run; ls -la`, slot, v.file, v.dir))
	third, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err, out)
	defer third.Stop()
	v.requireUntouched(t)
}

// The data directory itself replaced by a symlink to another server's data
// directory: root neither reads that server's pid file nor removes it.
func TestDataDirectorySymlinkIsReplaced(t *testing.T) {
	uid, gid := serverAccount(t)
	ctx := context.Background()
	other, err := pgcluster.Start(ctx, pgcluster.Options{Dir: tempDir(t)})
	require.NoError(t, err)
	defer other.Stop()
	otherData := filepath.Join(other.SlotDir, "data")

	dir := tempDir(t)
	first, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	slot := first.SlotDir
	require.NoError(t, first.Stop())
	require.NoError(t, os.Lchown(slot, uid, gid))
	asServerAccount(t, fmt.Sprintf(`rm -rf %[1]s/data && ln -s %[2]s %[1]s/data`, slot, otherData))

	second, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	defer second.Stop()
	require.True(t, second.Fresh, "a new cluster in place of the symlink")
	_, err = os.Stat(filepath.Join(otherData, "postmaster.pid"))
	require.NoError(t, err, "the other server's pid file is still there")
	require.True(t, alive(other.PID()), "the other server still runs")
}

// Row 2: a postmaster.pid naming somebody else's running PostgreSQL. The
// next start must not stop it.
func TestStalePIDFileDoesNotStopAnotherServer(t *testing.T) {
	serverAccount(t)
	ctx := context.Background()
	users, err := pgcluster.Start(ctx, pgcluster.Options{Dir: tempDir(t)}) // "the user's own server"
	require.NoError(t, err)
	defer users.Stop()

	dir := tempDir(t)
	first, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	require.NoError(t, first.Stop())
	asServerAccount(t, fmt.Sprintf(`printf '%d\n%s\n' > %s/data/postmaster.pid`, users.PID(), "/elsewhere", first.SlotDir))

	second, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	defer second.Stop()
	time.Sleep(100 * time.Millisecond)
	require.True(t, alive(users.PID()), "the user's server was stopped")
	conn, err := pgx.Connect(ctx, users.DSN(pgcluster.Database))
	require.NoError(t, err, "the user's server no longer answers")
	conn.Close(ctx)
}

// Row 3: interrupting the very first start while initdb runs must not break
// later starts (on main every later start waited 30 s and failed).
func TestInterruptedFirstStartRecovers(t *testing.T) {
	dir := tempDir(t)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// Interrupt as soon as initdb has begun writing.
		for range 2000 {
			if matches, _ := filepath.Glob(filepath.Join(dir, "slot-0", "data.new", "*")); len(matches) > 0 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	_, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.ErrorIs(t, err, context.Canceled, "the interrupt did not land during initdb")
	_, err = os.Stat(filepath.Join(dir, "slot-0", "data"))
	require.ErrorIs(t, err, fs.ErrNotExist, "a half-made cluster became the slot's data")

	started := time.Now()
	c, err := pgcluster.Start(context.Background(), pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	defer c.Stop()
	require.True(t, c.Fresh)
	require.Less(t, time.Since(started), 15*time.Second)
	conn, err := pgx.Connect(context.Background(), c.DSN(pgcluster.Database))
	require.NoError(t, err)
	conn.Close(context.Background())
}

// A socket lock file left in run/ by a server that died, naming a live
// process of the server account (pids are reused after a reboot), does not
// stop the next start, nor cost the kept cluster.
func TestStaleSocketLockFile(t *testing.T) {
	serverAccount(t)
	ctx := context.Background()
	other, err := pgcluster.Start(ctx, pgcluster.Options{Dir: tempDir(t)}) // a live process of that account
	require.NoError(t, err)
	defer other.Stop()
	dir := tempDir(t)
	first, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	require.NoError(t, first.Stop())
	asServerAccount(t, fmt.Sprintf(`printf '%d\n%s\n' > %s/run/.s.PGSQL.5432.lock`, other.PID(), "/elsewhere", first.SlotDir))

	second, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	defer second.Stop()
	require.False(t, second.Fresh, "the kept cluster was thrown away")
	require.True(t, alive(other.PID()))
}

// A cache path through a symlink that another account owns, or into a
// directory another account owns, is refused before anything is made there.
func TestCachePathOfAnotherAccountIsRefused(t *testing.T) {
	uid, gid := serverAccount(t)
	ctx := context.Background()
	base := tempDir(t)
	theirs := filepath.Join(base, "theirs")
	require.NoError(t, os.Mkdir(theirs, 0o755))
	require.NoError(t, os.Chown(theirs, uid, gid))
	rootOwned := filepath.Join(base, "root-owned")
	require.NoError(t, os.Mkdir(rootOwned, 0o755))
	asServerAccount(t, fmt.Sprintf("ln -s %s %s/pg", rootOwned, theirs))

	for _, dir := range []string{filepath.Join(theirs, "pg"), filepath.Join(theirs, "new")} {
		_, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
		require.ErrorIs(t, err, pgcluster.ErrUnsafePath, dir)
	}
	entries, err := os.ReadDir(rootOwned)
	require.NoError(t, err)
	require.Empty(t, entries, "a slot was made where the other account pointed")
	_, err = os.Lstat(filepath.Join(theirs, "new"))
	require.ErrorIs(t, err, fs.ErrNotExist, "root made a directory in the other account's directory")

	// A symlink of root's own to a directory of root's is fine.
	link := filepath.Join(base, "link")
	require.NoError(t, os.Symlink(rootOwned, link))
	c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: link})
	require.NoError(t, err)
	defer c.Stop()
	require.Equal(t, filepath.Join(rootOwned, "slot-0"), c.SlotDir)
}

// A slot file hard-linked to a file of root's (where the kernel allows it)
// is replaced, not written through.
func TestHardLinkedSlotFileIsReplaced(t *testing.T) {
	uid, gid := serverAccount(t)
	ctx := context.Background()
	dir := tempDir(t)
	first, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	require.NoError(t, first.Stop())
	v := newVictims(t)
	require.NoError(t, os.Chmod(filepath.Dir(v.file), 0o755))
	// As an older fencelab left it, the slot is the server account's; root
	// itself makes the link (protected_hardlinks would stop the account).
	require.NoError(t, os.Lchown(first.SlotDir, uid, gid))
	log := filepath.Join(first.SlotDir, "server.log")
	require.NoError(t, os.Remove(log))
	require.NoError(t, os.Link(v.file, log))

	second, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	defer second.Stop()
	v.requireUntouched(t)
}

// A kept cluster broken the way an interrupted initdb of an older fencelab
// left it (database postgres missing) is made anew, at once.
func TestUnusableClusterIsRecreated(t *testing.T) {
	ctx := context.Background()
	dir := tempDir(t)
	first, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	conn, err := pgx.Connect(ctx, first.DSN(pgcluster.Database))
	require.NoError(t, err)
	_, err = conn.Exec(ctx, `DROP DATABASE postgres`)
	require.NoError(t, err)
	conn.Close(ctx)
	require.NoError(t, first.Stop())

	started := time.Now()
	second, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	defer second.Stop()
	require.True(t, second.Fresh, "the broken cluster was made anew")
	require.Contains(t, second.Remade, "postgres", "and says why, for the run to say so")
	require.Less(t, time.Since(started), 15*time.Second)
	require.Empty(t, first.Remade)
}

// A full disk: the error says so, not what initdb did afterwards.
func TestFullDiskSaysWhy(t *testing.T) {
	serverAccount(t)
	dir := tempDir(t)
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=3m,mode=0755", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs here: %s", out)
	}
	defer exec.Command("umount", "-l", dir).Run()
	_, err := pgcluster.Start(context.Background(), pgcluster.Options{Dir: dir})
	require.Error(t, err)
	require.Contains(t, err.Error(), "No space left on device")
	require.NotContains(t, err.Error(), "removing data directory")
}

func TestReasonLine(t *testing.T) {
	initdb := `creating directory /x/data.new ... ok
running bootstrap script ... 2026-11-30 19:32:12.089 UTC [11324] FATAL:  could not write to file "pg_wal/xlogtemp.11324": No space left on device
child process exited with exit code 1
initdb: removing data directory "/x/data.new"`
	require.Equal(t, `running bootstrap script ... 2026-11-30 19:32:12.089 UTC [11324] FATAL:  could not write to file "pg_wal/xlogtemp.11324": No space left on device`,
		pgcluster.ReasonLine([]byte(initdb)))
	server := `2026-11-30 LOG:  starting PostgreSQL 15.18
2026-11-30 FATAL:  could not create lock file "postmaster.pid": No space left on device
2026-11-30 LOG:  database system is shut down`
	require.Contains(t, pgcluster.ReasonLine([]byte(server)), "No space left on device")
	require.Equal(t, "last words", pgcluster.ReasonLine([]byte("first\nlast words\n")))
	require.False(t, strings.Contains(pgcluster.ReasonLine([]byte("ok\n")), "\n"))
}
