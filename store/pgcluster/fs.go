package pgcluster

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// fencelab often runs as root while the server runs as an unprivileged
// account. The rules that keep root from being tricked by that account:
//
//   - Every directory on the way to a slot belongs to root (or to fencelab's
//     own user) and no one else can rename its entries; trustedDir proves
//     that for the cache directory and the path to it, ownDir for the
//     directories fencelab makes itself.
//   - The slot directory belongs to fencelab's user, so the server account
//     cannot put a symlink where fencelab expects a file or a directory.
//   - What fencelab opens in the slot it opens with O_NOFOLLOW and checks
//     with fstat; anything else standing there is removed, not followed.
//   - The only directories the server account owns (data, run) are made by
//     fencelab and handed over through an open descriptor, never by path.
//   - Files in the server's data directory are read with O_NOFOLLOW, only
//     when they are regular files of the server account, and only a few
//     bytes of them.

// noFollow opens a path's last element without following a symlink and
// without blocking on a FIFO.
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC

// ErrUnsafePath is a cache directory, or an entry in a slot, that another
// account could change under fencelab: a configuration to fix, not a fault.
var ErrUnsafePath = errors.New("unsafe path")

// ErrSocketPathTooLong is a cache directory so deep that the server's unix
// socket path in it would not fit in a socket address: a configuration to
// fix (a shorter FENCELAB_CACHE_DIR), not a fault.
var ErrSocketPathTooLong = errors.New("socket path too long")

// ErrCannotEnter is a cache directory the server account may not enter (a
// directory on the way is closed to it): a configuration to fix.
var ErrCannotEnter = errors.New("the server account cannot enter the cache directory")

// trustedDir creates dir where it is missing and proves that no account
// but root and this process's user can change what it names. It walks the
// path as written, from /: every directory on the way belongs to one of
// them, and one that others may write to has the sticky bit (as /tmp
// does), so they cannot rename its entries; a symlink on the way belongs to
// one of them too, and the path it leads to is proven the same way. A
// missing directory is made only inside a proven one, and proven after. dir
// itself must not be writable by anyone else at all. It returns dir with
// its symlinks resolved.
func trustedDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("pgcluster: %s: %w", dir, err)
	}
	cur := "/"
	for _, part := range strings.Split(strings.Trim(abs, "/"), "/") {
		if part == "" {
			continue
		}
		next := filepath.Join(cur, part)
		info, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			if err := makeReachableDir(next); err != nil {
				return "", err
			}
			info, err = os.Lstat(next)
		}
		if err != nil {
			return "", fmt.Errorf("pgcluster: %s: %w", next, err)
		}
		if err := trustedEntry(next, info); err != nil {
			return "", err
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			// The link is proven; now the place it leads to, all the way up.
			if next, err = filepath.EvalSymlinks(next); err != nil {
				return "", fmt.Errorf("pgcluster: %s: %w", next, err)
			}
			for p := next; ; p = filepath.Dir(p) {
				info, err := os.Lstat(p)
				if err != nil {
					return "", fmt.Errorf("pgcluster: %s: %w", p, err)
				}
				if err := trustedEntry(p, info); err != nil {
					return "", err
				}
				if p == filepath.Dir(p) {
					break
				}
			}
		} else if !info.IsDir() {
			return "", fmt.Errorf("pgcluster: %s is not a directory: %w", next, ErrUnsafePath)
		}
		cur = next
	}
	info, err := os.Lstat(cur)
	if err != nil {
		return "", fmt.Errorf("pgcluster: %s: %w", cur, err)
	}
	if info.Mode().Perm()&0o022 != 0 {
		return "", fmt.Errorf("pgcluster: others may write to %s (mode %04o); run chmod go-w on it or choose another FENCELAB_CACHE_DIR: %w",
			cur, info.Mode().Perm(), ErrUnsafePath)
	}
	return cur, nil
}

// makeReachableDir makes a missing directory of the cache path, in one
// proven trusted, with mode 0755 whatever the umask (027 or 077 would keep
// the server account out of its slot). Nobody but root and this user can
// rename entries of the parent, so the path still names the directory
// made when it is chmodded. One that another process made meanwhile is
// left as it is: trustedDir proves it like any other.
func makeReachableDir(path string) error {
	err := os.Mkdir(path, 0o755)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("pgcluster: create %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o755); err != nil {
		return fmt.Errorf("pgcluster: chmod %s: %w", path, err)
	}
	return nil
}

// trustedEntry checks one directory or symlink on a cache path: it belongs
// to root or this user, and a directory others may write to is sticky.
func trustedEntry(path string, info fs.FileInfo) error {
	st := info.Sys().(*syscall.Stat_t)
	euid := uint32(os.Geteuid())
	switch {
	case st.Uid != 0 && st.Uid != euid:
		return fmt.Errorf("pgcluster: %s belongs to uid %d, not to root or you; choose a cache directory of your own with FENCELAB_CACHE_DIR: %w",
			path, st.Uid, ErrUnsafePath)
	case info.IsDir() && info.Mode().Perm()&0o022 != 0 && info.Mode()&fs.ModeSticky == 0:
		return fmt.Errorf("pgcluster: others may rename entries of %s (mode %04o, no sticky bit); choose another FENCELAB_CACHE_DIR: %w",
			path, info.Mode().Perm(), ErrUnsafePath)
	}
	return nil
}

// ownDir makes path (in a directory already proven trusted) a directory of
// this process's user with exactly perm. A directory of the old layout that
// belongs to reclaimFrom (the server account) is taken back; a symlink or a
// file standing there is removed.
func ownDir(path string, perm os.FileMode, reclaimFrom uint32) error {
	f, err := openDir(path, perm)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := statOf(f)
	if err != nil {
		return err
	}
	euid := uint32(os.Geteuid())
	if st.Uid != euid {
		if st.Uid != reclaimFrom {
			return fmt.Errorf("pgcluster: %s belongs to uid %d; remove it or choose another FENCELAB_CACHE_DIR: %w", path, st.Uid, ErrUnsafePath)
		}
		if err := f.Chown(int(euid), os.Getegid()); err != nil {
			return fmt.Errorf("pgcluster: take back %s: %w", path, err)
		}
	}
	if err := f.Chmod(perm); err != nil {
		return fmt.Errorf("pgcluster: chmod %s: %w", path, err)
	}
	return nil
}

// serverDir makes path (in a slot this process owns) a directory of the
// server account with mode 0700, handing it over through the open
// descriptor so no symlink is ever followed.
func serverDir(path string, owner *account) error {
	f, err := openDir(path, 0o700)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := owner.chown(f); err != nil {
		return fmt.Errorf("pgcluster: hand %s to the server account: %w", path, err)
	}
	if err := f.Chmod(0o700); err != nil {
		return fmt.Errorf("pgcluster: chmod %s: %w", path, err)
	}
	return nil
}

// openDir opens the directory at path, creating it when missing; whatever
// else stands there (a symlink, a file) is removed first.
func openDir(path string, perm os.FileMode) (*os.File, error) {
	for attempt := 0; ; attempt++ {
		if err := os.Mkdir(path, perm); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("pgcluster: create %s: %w", path, err)
		}
		f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_DIRECTORY|noFollow, 0)
		if err == nil {
			return f, nil
		}
		if attempt > 0 || !(errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.ENOTDIR)) {
			return nil, fmt.Errorf("pgcluster: open %s: %w", path, err)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("pgcluster: remove what stands at %s: %w", path, err)
		}
	}
}

// ownFile opens a regular file of this process's user in a directory it
// owns, creating it when missing. Anything else at path — a symlink, a FIFO,
// a hard link, another account's file — is removed and replaced. With
// truncate the file is emptied after the checks, not by open.
func ownFile(path string, truncate bool) (*os.File, error) {
	euid := uint32(os.Geteuid())
	for attempt := 0; ; attempt++ {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|noFollow, 0o644)
		if err == nil {
			st, serr := statOf(f)
			if serr == nil && st.Mode&syscall.S_IFMT == syscall.S_IFREG && st.Uid == euid && st.Nlink == 1 {
				if truncate {
					if err := f.Truncate(0); err != nil {
						f.Close()
						return nil, fmt.Errorf("pgcluster: truncate %s: %w", path, err)
					}
				}
				return f, nil
			}
			f.Close()
		} else if !(errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.ENXIO) || errors.Is(err, syscall.EISDIR)) {
			return nil, fmt.Errorf("pgcluster: open %s: %w", path, err)
		}
		if attempt > 0 {
			return nil, fmt.Errorf("pgcluster: %s is not a plain file of yours even after replacing it: %w", path, ErrUnsafePath)
		}
		if err := os.RemoveAll(path); err != nil {
			return nil, fmt.Errorf("pgcluster: remove what stands at %s: %w", path, err)
		}
	}
}

// readServerFile reads at most limit bytes of a regular file that the
// server account owns (postmaster.pid, PG_VERSION), refusing symlinks, FIFOs
// and files of anyone else. A missing file is fs.ErrNotExist.
func readServerFile(path string, owner *account, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := statOf(f)
	if err != nil {
		return nil, err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Uid != owner.uid {
		return nil, fmt.Errorf("pgcluster: %s is not a plain file of the server account: %w", path, ErrUnsafePath)
	}
	return io.ReadAll(io.LimitReader(f, limit))
}

func statOf(f *os.File) (*syscall.Stat_t, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("pgcluster: stat %s: %w", f.Name(), err)
	}
	return info.Sys().(*syscall.Stat_t), nil
}
