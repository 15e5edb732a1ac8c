package replay

import (
	"bytes"
	"maps"
	"slices"

	"github.com/rlsim/rlsim/report"
)

// Outputs are a replay's result in each --format of rlsim replay.
type Outputs struct{ Text, JSON, CSV []byte }

// Render writes r in every format. The text fits width columns (0: the full
// layout) and, with o.Sweep, ends with the sweep's table; find marks each
// lane's pick by o.Where.
func Render(r *Result, o Options, find bool, width int) (Outputs, error) {
	var text, js, csv bytes.Buffer
	if err := WriteTextFit(&text, r, width); err != nil {
		return Outputs{}, err
	}
	if o.Sweep != nil {
		if err := WriteSweepText(&text, o.Sweep, r, find, o.Where); err != nil {
			return Outputs{}, err
		}
	}
	if err := WriteJSON(&js, r); err != nil {
		return Outputs{}, err
	}
	if err := WriteCSV(&csv, r); err != nil {
		return Outputs{}, err
	}
	return Outputs{Text: text.Bytes(), JSON: js.Bytes(), CSV: csv.Bytes()}, nil
}

// Format is the output in format: text, json or csv (Flags.Options checked it).
func (out Outputs) Format(format string) []byte {
	switch format {
	case "json":
		return out.JSON
	case "csv":
		return out.CSV
	}
	return out.Text
}

// WriteDir writes the report folder dir: replay.txt, .json and .csv, the plots
// of r and s (s may be nil) and report.html, whole or not at all.
func (out Outputs) WriteDir(dir string, r *Result, s *Sweep) error {
	d, err := report.CreateDir(dir)
	if err != nil {
		return err
	}
	files, err := Plots(r, s)
	if err != nil {
		d.Abort()
		return err
	}
	files["replay.txt"], files["replay.json"], files["replay.csv"] = out.Text, out.JSON, out.CSV
	if files["report.html"], err = HTML(string(out.Text), files); err != nil {
		d.Abort()
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := d.Write(name, files[name]); err != nil {
			d.Abort()
			return err
		}
	}
	return d.Commit()
}
