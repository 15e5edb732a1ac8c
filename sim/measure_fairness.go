package sim

// share is what one party asked for and got, in requests.
type share struct{ asked, got int64 }

func (s share) ask() int64 { return s.asked }

// ask is what client c asked for: its requests.
func (c clientState) ask() int64 { return c.requests }

// fairness measures how evenly a lane served its clients, against the max-min
// fair split of what it let succeed: each client is owed what it asked, up to
// an even level that spends all the successes (water-filling). It returns
// Jain's index over clients (each client's identity its own key) and over
// classes, each class one party owed the sum of its clients' shares, and sets
// each class's FairShare.
//
// Success fractions alone cannot see a starved party when every party is
// refused at the same rate: a tenant asking 10/s and one asking 120/s, both 40%
// served, look equal, though the small one was owed all it asked. Weighting a
// class by its clients keeps a one-client class (the abuser) from being owed as
// much as three hundred users together.
func fairness(clients []clientState, groupOf []int32, classes []ClassResult) (byClient, byClass float64) {
	for g := range classes {
		classes[g].FairShare = 0
	}
	if len(clients) == 0 {
		return 1, 1
	}
	// One pass for the total and the asks' span, one (or none) for the
	// level, one for the shares and the clients' index.
	total, least, most := int64(0), clients[0].requests, clients[0].requests
	for _, c := range clients {
		total += int64(c.succeeded)
		least, most = min(least, c.requests), max(most, c.requests)
	}
	level := waterLevelIn(clients, total, least, uint64(most)-uint64(least))
	var cx, gx jainSum
	var oneClass float64 // the one class's fair share, summed apart: no group to read per client
	for i, c := range clients {
		f := fairShare(c.requests, level)
		if len(classes) == 1 {
			oneClass += f
		} else {
			classes[groupOf[i]].FairShare += f
		}
		if c.requests > 0 && total > 0 {
			cx.add(float64(c.succeeded) / f)
		}
	}
	if len(classes) == 1 {
		classes[0].FairShare = oneClass
	}
	for _, c := range classes {
		if c.FairShare > 0 {
			gx.add(float64(c.Succeeded) / c.FairShare)
		}
	}
	return cx.index(), gx.index()
}

// keyFairness is Jain's index over the keys of the first limit (keyOf: client →
// key id, of keys keys), each key one party asking what its clients asked,
// measured against the max-min fair split by key of the lane's successes: how
// evenly the limit served the units it counts by. 1 with a single key.
func keyFairness(clients []clientState, keyOf []int32, keys int) float64 {
	if keys < 2 {
		return 1
	}
	shares := make([]share, keys)
	var total int64
	for i, c := range clients {
		shares[keyOf[i]].asked += c.requests
		shares[keyOf[i]].got += int64(c.succeeded)
		total += int64(c.succeeded)
	}
	level := waterLevel(shares, total)
	var xs jainSum
	for _, s := range shares {
		if s.asked > 0 && total > 0 {
			xs.add(float64(s.got) / fairShare(s.asked, level))
		}
	}
	return xs.index()
}

// oneKeyPerClient reports whether client i's key is key i, for every client and
// key: then the keys' fairness is the clients' (fairness's byClient).
func oneKeyPerClient(keyOf []int32, keys int) bool {
	if len(keyOf) != keys {
		return false
	}
	for i, k := range keyOf {
		if k != int32(i) {
			return false
		}
	}
	return true
}

// jainSum gathers the parties' x for Jain's index (Σx)²/(n·Σx²): 1 when every
// x is the same, 1/n when one party has everything; 1 with fewer than two
// parties. It keeps the sums, not the xs, so a million parties cost nothing.
type jainSum struct {
	n          int
	sum, sumSq float64
}

func (j *jainSum) add(x float64) {
	j.n++
	j.sum += x
	j.sumSq += x * x
}

func (j *jainSum) index() float64 {
	if j.n < 2 || j.sumSq == 0 {
		return 1
	}
	return j.sum * j.sum / (float64(j.n) * j.sumSq)
}
