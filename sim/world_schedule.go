package sim

// Schedule is how the sleep before retry n (n = 1 for the first retry) grows,
// before jitter, in the backoff study of package contention.
type Schedule uint8

const (
	// ScheduleBaseFirst is rlsim's convention: min(cap, base×2ⁿ⁻¹), base first.
	ScheduleBaseFirst Schedule = iota
	// ScheduleBrooker is min(cap, base×2ⁿ), as `expo(n)` of Marc Brooker's simulator
	// behind the AWS Architecture Blog's "Exponential Backoff And Jitter"
	// (aws-samples/aws-arch-backoff-simulator): the first sleep is 2×base.
	ScheduleBrooker
)
