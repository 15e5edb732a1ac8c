package run

import (
	"errors"
	"fmt"

	"github.com/rlsim/rlsim/scenarios"
)

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

// IsBadInput reports whether err is the input's fault: an *InputError, or a
// scenario's own problems (scenarios.Errors, a *scenarios.FieldError, a
// *scenarios.BudgetError), wrapped or not.
func IsBadInput(err error) bool {
	var ie *InputError
	var errs scenarios.Errors
	var fe *scenarios.FieldError
	var be *scenarios.BudgetError
	return errors.As(err, &ie) || errors.As(err, &errs) || errors.As(err, &fe) || errors.As(err, &be)
}

// BadInputf is BadInput of a formatted error.
func BadInputf(format string, args ...any) error { return BadInput(fmt.Errorf(format, args...)) }

// UnfinishedError marks a run that could not finish through no fault of its input:
// a server that went away or stopped answering, a dependency that failed. Commands
// exit with status 3 on it, apart from 1 (a check failed, differences found) and 2.
type UnfinishedError struct{ Err error }

func (e *UnfinishedError) Error() string { return e.Err.Error() }
func (e *UnfinishedError) Unwrap() error { return e.Err }

// CouldNotFinish marks err as the reason a run could not finish; nil stays nil.
func CouldNotFinish(err error) error {
	if err == nil {
		return nil
	}
	return &UnfinishedError{err}
}

// CheckFailedError marks a run that finished and whose verdict is a failure:
// a scenario's check or a --fail-on did not hold, or conform found
// differences. Commands exit with status 1 on it, and on nothing else.
type CheckFailedError struct{ Err error }

func (e *CheckFailedError) Error() string { return e.Err.Error() }
func (e *CheckFailedError) Unwrap() error { return e.Err }

// CheckFailed marks err as a finished run's failed verdict; nil stays nil.
func CheckFailed(err error) error {
	if err == nil {
		return nil
	}
	return &CheckFailedError{err}
}

// IsCheckFailed reports whether err is a finished run's failed verdict.
func IsCheckFailed(err error) bool {
	var ce *CheckFailedError
	return errors.As(err, &ce)
}
