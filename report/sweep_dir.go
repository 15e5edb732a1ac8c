package report

import (
	"bytes"
	"fmt"
)

// WriteSweepDir writes sweeps' report into d: index.html (one self-contained
// page), each sweep's plots as PNG files, sweep.json and sweep.csv. Commit puts
// them in place.
func WriteSweepDir(d *Dir, sweeps []Sweep) error {
	var images [][]Image
	for i, s := range sweeps {
		var imgs []Image
		for _, f := range SweepFigures(s) {
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
			imgs = append(imgs, Image{Figure: f, PNG: png})
		}
		images = append(images, imgs)
	}
	var html, js, cs bytes.Buffer
	if err := WriteSweepHTML(&html, sweeps, images); err != nil {
		return err
	}
	if err := WriteSweepJSON(&js, sweeps); err != nil {
		return err
	}
	if err := WriteSweepCSV(&cs, sweeps); err != nil {
		return err
	}
	for name, b := range map[string][]byte{"index.html": html.Bytes(), "sweep.json": js.Bytes(), "sweep.csv": cs.Bytes()} {
		if err := d.Write(name, b); err != nil {
			return err
		}
	}
	return nil
}
