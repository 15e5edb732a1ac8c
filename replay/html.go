package replay

import (
	"bytes"
	"encoding/base64"
	"html/template"
	"slices"
	"strings"
)

var page = template.Must(template.New("replay").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>rlsim replay</title>
<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}pre{background:#f6f6f6;padding:1em;overflow:auto}img{max-width:100%}</style>
</head><body>
<h1>rlsim replay: who each limit would have refused</h1>
<pre>{{.Text}}</pre>
{{range .Images}}<figure><img alt="{{.Name}}" src="data:image/png;base64,{{.Data}}"><figcaption>{{.Name}}</figcaption></figure>
{{end}}</body></html>
`))

// HTML is a self-contained page (no network): the text tables and every PNG
// among files, inline.
func HTML(text string, files map[string][]byte) ([]byte, error) {
	type image struct{ Name, Data string }
	var images []image
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range files {
			if strings.HasSuffix(n, ".png") && !yield(n) {
				return
			}
		}
	}) {
		images = append(images, image{name, base64.StdEncoding.EncodeToString(files[name])})
	}
	var b bytes.Buffer
	err := page.Execute(&b, struct {
		Text   string
		Images []image
	}{text, images})
	return b.Bytes(), err
}
