package report

import (
	"bytes"
	"errors"
	"fmt"
)

// WriteDir writes a design review's files into d: index.html (one page per run),
// each run's plots as PNG files named after its scenario, and results.json.
// reproduce[i] is the command line that runs runs[i] again. Commit puts them in place.
func WriteDir(d *Dir, runs []Run, reproduce []string) error {
	var pages []Page
	used := map[string]bool{"index": true, "results": true}
	for i, o := range runs {
		p, err := NewPage(o, reproduce[i])
		if err != nil {
			return err
		}
		prefix := o.Scenario.Name
		for n := 2; used[prefix]; n++ {
			prefix = fmt.Sprintf("%s-%d", o.Scenario.Name, n)
		}
		used[prefix] = true
		for _, img := range p.Images {
			if err := d.Write(prefix+"-"+img.Figure.Name+".png", img.PNG); err != nil {
				return err
			}
		}
		pages = append(pages, p)
	}
	var html, js bytes.Buffer
	if err := WriteHTML(&html, pages); err != nil {
		return err
	}
	if err := WriteJSON(&js, runs); err != nil {
		return err
	}
	return errors.Join(d.Write("index.html", html.Bytes()), d.Write("results.json", js.Bytes()))
}
