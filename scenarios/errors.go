package scenarios

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// FieldError is one problem in a scenario file, at Line (1-based; 0 when the
// problem has no one place) in the field Path (e.g. "clients[2].retry.jitter").
type FieldError struct {
	File string
	Line int
	Path string
	Msg  string
}

// Error reads "file:line: field.path: what is wrong".
func (e *FieldError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errors is every problem found in a scenario file, in line order.
type Errors []*FieldError

// Error lists the problems one per line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// maxErrors is the most problems reported for one file; past that, fixing the
// first ones is the next step anyway.
const maxErrors = 50

// errorList collects the problems of one file.
type errorList struct {
	file string
	errs Errors
	more int // problems found beyond maxErrors
}

func (l *errorList) add(line int, path, msg string) {
	if len(l.errs) >= maxErrors {
		l.more++
		return
	}
	l.errs = append(l.errs, &FieldError{File: l.file, Line: line, Path: path, Msg: msg})
}

// count is the number of problems found so far.
func (l *errorList) count() int { return len(l.errs) + l.more }

// err returns the problems sorted by line, or nil if there are none.
func (l *errorList) err() error {
	if len(l.errs) == 0 {
		return nil
	}
	slices.SortStableFunc(l.errs, func(a, b *FieldError) int { return cmp.Compare(a.Line, b.Line) })
	if l.more > 0 {
		errs := append(l.errs[:len(l.errs):len(l.errs)], &FieldError{File: l.file, Msg: fmt.Sprintf("and %d more problems", l.more)})
		return errs
	}
	return l.errs
}

// BudgetError refuses a scenario whose estimated event count exceeds the budget.
type BudgetError struct {
	File     string
	Estimate int64
	Budget   int64
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("%s: about %s events estimated, over the budget of %s", e.File, groupDigits(e.Estimate), groupDigits(e.Budget))
}

// groupDigits writes n with thousands separators: 12,500,000.
func groupDigits(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
