package scenarios

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

var yamlBlock = regexp.MustCompile("(?s)```yaml\n(.*?)```")

// TestDocsExamplesParse keeps docs/scenarios.md honest: every example parses, and
// every field of the format is mentioned.
func TestDocsExamplesParse(t *testing.T) {
	doc, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := yamlBlock.FindAllSubmatch(doc, -1)
	if len(blocks) < 10 {
		t.Fatalf("found %d yaml examples, want one per feature", len(blocks))
	}
	for i, b := range blocks {
		s, err := Parse(fmt.Sprintf("docs/scenarios.md example %d", i+1), b[1])
		if err != nil {
			t.Errorf("example %d does not parse:\n%v\n%s", i+1, err, b[1])
			continue
		}
		assertRoundTrip(t, s)
	}
	for _, typ := range []reflect.Type{
		reflect.TypeFor[fileSpec](), reflect.TypeFor[limitSpec](), reflect.TypeFor[aimdSpec](),
		reflect.TypeFor[throttleSpec](), reflect.TypeFor[clientSpec](), reflect.TypeFor[identitySpec](),
		reflect.TypeFor[arrivalSpec](), reflect.TypeFor[retrySpec](), reflect.TypeFor[backendSpec](),
		reflect.TypeFor[serviceSpec](), reflect.TypeFor[changeSpec](), reflect.TypeFor[contentionSpec](), reflect.TypeFor[ruleSpec](),
		reflect.TypeFor[checkSpec](), reflect.TypeFor[laneSpec](), reflect.TypeFor[variantLimitSpec](),
		reflect.TypeFor[nginxSpec](), reflect.TypeFor[nginxZoneSpec](),
		reflect.TypeFor[topologySpec](), reflect.TypeFor[storeSpec](),
		reflect.TypeFor[replicaStep](), reflect.TypeFor[latencySpec](), reflect.TypeFor[outageSpec](), reflect.TypeFor[fallbackSpec](), reflect.TypeFor[breakerSpec](),
		reflect.TypeFor[healthSpec](), reflect.TypeFor[restartSpec](), reflect.TypeFor[partitionSpec](), reflect.TypeFor[concPartitionSpec](),
		reflect.TypeFor[sheddingSpec](), reflect.TypeFor[fleetUsageSpec](), reflect.TypeFor[utilisationSpec](),
		reflect.TypeFor[budgetSpec](), reflect.TypeFor[codelSpec](), reflect.TypeFor[rttSpec](),
		reflect.TypeFor[storeChangeSpec](),
	} {
		for _, f := range fieldNames(typ) {
			if !strings.Contains(string(doc), "`"+f+"`") && !strings.Contains(string(doc), "\n"+f+":") &&
				!strings.Contains(string(doc), " "+f+":") {
				t.Errorf("docs/scenarios.md does not mention %s.%s", typ.Name(), f)
			}
		}
	}
}
