package web

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// docs/playground.md names every field the API sends and reads.
func TestDocsNameEveryField(t *testing.T) {
	data, err := os.ReadFile("../docs/playground.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, v := range []any{frame{}, laneFrame{}, peak{}, column{}, ruleMark{}, burstMark{}, sample{}, sessionReply{},
		laneInfo{}, limitInfo{}, groupInfo{}, command{}, createRequest{}, controlReply{}, errorReply{}, fieldError{}} {
		typ := reflect.TypeOf(v)
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if name != "" && !strings.Contains(doc, "`"+name+"`") {
				t.Errorf("docs/playground.md does not name %s's field `%s`", typ.Name(), name)
			}
		}
	}
}
