package sim

import "testing"

// TestFairnessCountsOneRequestClients: every client that asked counts in the
// clients' index, one that sent a single request too. Two clients of one request
// each, one served and one not, are owed half a success each: ratios 0 and 2,
// Jain's index (0+2)²/(2×(0+4)) = 0.5. A third client that asked nothing is
// owed nothing and left out.
func TestFairnessCountsOneRequestClients(t *testing.T) {
	clients := []clientState{{requests: 1}, {requests: 1, succeeded: 1}, {}}
	classes := []ClassResult{{Name: "a", Succeeded: 0}, {Name: "b", Succeeded: 1}}
	byClient, byClass := fairness(clients, []int32{0, 1, 1}, classes)
	if byClient != 0.5 {
		t.Errorf("fairness over clients asking 1, 1, 0 and served 0, 1, 0: byClient = %v, want 0.5", byClient)
	}
	if byClass != 0.5 || classes[0].FairShare != 0.5 || classes[1].FairShare != 0.5 {
		t.Errorf("byClass = %v, fair shares %v and %v; want 0.5, 0.5 and 0.5", byClass, classes[0].FairShare, classes[1].FairShare)
	}
}
