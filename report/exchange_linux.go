package report

import "golang.org/x/sys/unix"

// exchange swaps two paths atomically (renameat2 with RENAME_EXCHANGE); it fails
// on file systems that cannot. A variable, so that tests can take it away.
var exchange = func(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}
