package sim

import "fmt"

// enum is the one table of an enumeration's names, by value: its String, its
// Parse and its list of names for error messages all read it, so no name is
// written twice.
type enum[T ~uint8] struct {
	typ   string   // the Go type, for a value outside the table: "KeyKind(9)"
	names []string // names[v] is the name of value v
}

// name is v's name, or typ(v) for a value outside the table.
func (e enum[T]) name(v T) string {
	if int(v) < len(e.names) {
		return e.names[v]
	}
	return fmt.Sprintf("%s(%d)", e.typ, v)
}

// parse is the value named s; ok is false (and the value zero) for an unknown name.
func (e enum[T]) parse(s string) (T, bool) {
	for i, n := range e.names {
		if n == s {
			return T(i), true
		}
	}
	return 0, false
}

// list is a copy of the names in order.
func (e enum[T]) list() []string { return append([]string(nil), e.names...) }

// valid says v is in the table.
func (e enum[T]) valid(v T) bool { return int(v) < len(e.names) }
