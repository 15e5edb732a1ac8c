package scenarios

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// Every field of every product section has a row of its own in a table of
// docs/products.md (nginx's in docs/scenarios.md), every product lane of the
// registry has a section there naming its version, and the YAML examples of
// docs/products.md parse.
func TestProductsDocumented(t *testing.T) {
	products, err := os.ReadFile("../docs/products.md")
	if err != nil {
		t.Fatal(err)
	}
	scen, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []reflect.Type{
		reflect.TypeFor[haproxySpec](), reflect.TypeFor[envoyLocalSpec](), reflect.TypeFor[envoyRateLimitSpec](),
		reflect.TypeFor[kongSpec](), reflect.TypeFor[kongAdvancedSpec](), reflect.TypeFor[traefikSpec](),
		reflect.TypeFor[awsAPIGatewaySpec](), reflect.TypeFor[awsQuotaSpec](), reflect.TypeFor[awsWAFSpec](), reflect.TypeFor[cloudflareSpec](),
		reflect.TypeFor[nginxSpec](), reflect.TypeFor[nginxZoneSpec](),
	} {
		for _, f := range fieldNames(typ) {
			row := "| `" + f + "` |"
			if !strings.Contains(string(products), row) && !strings.Contains(string(scen), row) &&
				!strings.Contains(string(products), "| `"+f+"`, ") && !strings.Contains(string(products), ", `"+f+"` |") &&
				!strings.Contains(string(products), ", `"+f+"`, ") {
				t.Errorf("no table row documents %s.%s", typ.Name(), f)
			}
		}
	}
	for _, l := range sim.Lanes() {
		if l.Product == "" {
			continue
		}
		if !strings.Contains(string(products), "| `"+l.Name+"` |") {
			t.Errorf("docs/products.md's table lacks the %s lane", l.Name)
		}
	}
	for i, b := range yamlBlock.FindAllSubmatch(products, -1) {
		doc := append([]byte("duration: 1s\nlimits: [{key: ip, limit: 10, window: 1s}]\nclients: [{arrivals: [{kind: burst, count: 1}]}]\n"), b[1]...)
		if bytes.HasPrefix(b[1], []byte("description:")) { // a whole scenario
			doc = b[1]
		}
		if _, err := Parse(fmt.Sprintf("docs/products.md example %d", i+1), doc); err != nil {
			t.Errorf("example %d does not parse:\n%v\n%s", i+1, err, b[1])
		}
	}
}
