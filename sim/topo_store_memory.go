package sim

import "time"

// storeMemory is a stub until the memory model lands.
type storeMemory struct{}

func newStoreMemory(*fleet) *storeMemory                    { return nil }
func (m *storeMemory) write(int, int32, time.Duration) bool { return true }
func (m *storeMemory) account(int, *ShardResult)            {}
