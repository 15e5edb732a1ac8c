// Package sweep runs a scenario at every point of a grid of varied settings,
// each point over several seeds: the engine of rlsim sweep and of rlsim run
// --seeds (a sweep without varied settings).
//
// A Sweep names the scenario, the command line's overrides (run.Overrides), the
// varied paths (Vary, read from --vary by ParseVary; Grid lists the points)
// and the seeds; FromFlags reads one from rlsim sweep's flags. Plan checks it and loads every point before any work,
// reporting every problem at once, and checks the whole sweep's estimated
// events against the budget; Plan.Run runs the points' seeds on a pool of
// workers and measures each run with run.Measure into a Result. Shard splits
// the points between machines: each writes its part as a sealed partial
// result (WritePartial) and MergePartials verifies the parts and combines them
// into the Result one machine gives.
//
// Over the seeds a figure is a Spread, a mean with its 95% interval;
// SpreadChecks holds the scenario's checks to the means. An Objective (--find
// and --where: ParseObjective) picks each lane's recommended point, and
// Result.Command is the command line that runs the sweep again.
//
// Nothing here prints or exits: errors the user can fix by changing the input
// are *run.InputError. Package report/sweep renders a Result.
package sweep
