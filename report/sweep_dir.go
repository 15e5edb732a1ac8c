package report

import "bytes"

// WriteSweepDir writes sweeps' report into d: sweep.json, sweep.csv and, later, plots and a page.
func WriteSweepDir(d *Dir, sweeps []Sweep) error {
	var js, cs bytes.Buffer
	if err := WriteSweepJSON(&js, sweeps); err != nil {
		return err
	}
	if err := WriteSweepCSV(&cs, sweeps); err != nil {
		return err
	}
	if err := d.Write("sweep.json", js.Bytes()); err != nil {
		return err
	}
	return d.Write("sweep.csv", cs.Bytes())
}
