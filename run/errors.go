package run

import "fmt"

// InputError marks an error the user can fix by changing the input: a scenario,
// a flag, an argument or an output path. Commands exit with status 2 on it.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// BadInput marks err as the input's fault; nil stays nil.
func BadInput(err error) error {
	if err == nil {
		return nil
	}
	return &InputError{err}
}

// BadInputf is BadInput of a formatted error.
func BadInputf(format string, args ...any) error { return BadInput(fmt.Errorf(format, args...)) }
