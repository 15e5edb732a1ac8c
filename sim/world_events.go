package sim

import "github.com/rlsim/rlsim/sim/engine"

// eventKind says what an event does when its time comes: the kinds are sim's,
// the engine carries them and never reads them.
type eventKind = engine.Kind

const (
	evArrival     eventKind = iota // a client's arrival component fires: a new request
	evAttempt                      // a request tries again
	evRelease                      // a delayed request leaves the leaky queue
	evComplete                     // the backend finishes a request
	evChange                       // the backend's capacity or service time changes
	evInject                       // a request a live view added (Simulation.Inject)
	evStudy                        // an event of a study outside sim (Queue)
	evStoreDecide                  // a request's store call reaches the store (topology)
	evStoreWrite                   // the write of a racy check reaches the store
	evStoreReply                   // a request's store call is answered, or times out
	evReplicas                     // the autoscaler changes the fleet's size
	evSync                         // a synced limit syncs with the store
	evProbe                        // the load balancer probes every replica (health check)
	evProbeDecide                  // a probe's store call reaches the store
	evProbeReply                   // a probe's store call is answered, or times out
	evRestart                      // the store restarts empty
	evHear                         // a failed answer reaches its client, a half round trip later
	evTimeout                      // a client gives up waiting for an attempt (ClientGroup.Timeout)
)

// event is one scheduled happening of a lane: A and B are what its kind needs
// (client and component, request, ...).
type event = engine.Event

// eventQueue is a lane's event queue and clock.
type eventQueue = engine.Queue
