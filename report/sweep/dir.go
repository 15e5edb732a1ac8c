package sweep

import (
	"bytes"
	"fmt"

	"github.com/rlsim/rlsim/report"
)

// WriteDir writes sweeps' report into d: index.html (one self-contained
// page), each sweep's plots as PNG files, sweep.json and sweep.csv. Commit puts
// them in place.
func WriteDir(d *report.Dir, sweeps []Report) error {
	var images [][]report.Image
	for i, s := range sweeps {
		var imgs []report.Image
		for _, f := range Figures(s) {
			png, err := f.PNG()
			if err != nil {
				return err
			}
			name := f.Name
			if len(sweeps) > 1 {
				name = fmt.Sprintf("%s-%d-%s", s.Result.Scenario, i+1, f.Name)
			}
			if err := d.Write(name+".png", png); err != nil {
				return err
			}
			imgs = append(imgs, report.Image{Figure: f, PNG: png})
		}
		images = append(images, imgs)
	}
	var html, js, cs bytes.Buffer
	if err := WriteHTML(&html, sweeps, images); err != nil {
		return err
	}
	if err := WriteJSON(&js, sweeps); err != nil {
		return err
	}
	if err := WriteCSV(&cs, sweeps); err != nil {
		return err
	}
	for name, b := range map[string][]byte{"index.html": html.Bytes(), "sweep.json": js.Bytes(), "sweep.csv": cs.Bytes()} {
		if err := d.Write(name, b); err != nil {
			return err
		}
	}
	return nil
}
