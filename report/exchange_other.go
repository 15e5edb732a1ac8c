//go:build !linux

package report

import "errors"

// exchange swaps two paths atomically where the system can; here it cannot, and
// swapReport renames file by file instead.
var exchange = func(a, b string) error { return errors.ErrUnsupported }
