//go:build unix

package main

import (
	"os"
	"syscall"
)

// lockFile holds an exclusive lock on path+".lock" until unlock is called,
// so that recorders appending to one file (a client that spawns its
// server twice at once) take turns.
func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		_ = f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		_ = f.Close()
		_ = os.Remove(path + ".lock")
	}, nil
}
