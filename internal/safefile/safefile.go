// Package safefile writes the files mcpmock hands its users (reports,
// recordings, HTML pages) so that a failure never leaves a damaged file:
// the new content goes to a temporary file beside the old one, which is
// replaced only once the new one is whole.
package safefile

import (
	"os"
	"path/filepath"
)

// Replace writes data to a temporary file in path's directory and
// renames it over path (through a symbolic link, over the file it names),
// keeping an existing file's permissions (else 0644). On failure the
// temporary file is removed and path is untouched.
func Replace(path string, data []byte) (err error) {
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Chmod(mode); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
