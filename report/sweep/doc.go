// Package sweep renders a sweep's result (package run/sweep) for people: the
// table that fits the terminal with its recommendations and findings, stated
// only beyond the spread over the seeds (WriteTable, WriteTableFit); the
// versioned JSON and the CSV (WriteJSON, WriteCSV); the line plot and, over two
// varied settings, the heatmaps (Figures); and one self-contained HTML page,
// alone or with the plots and the data in an output directory (WriteHTML,
// WriteDir).
//
// A Report is one sweep ready to render (New). rlsim run --seeds renders its
// runs over seeds as sweeps of one point. It shares the run report's house
// look: figures drawn with report/chart, tables laid out with
// report/textlayout, and the page's style sheet and output directory of
// package report. Nothing here prints: every writer takes an io.Writer or a
// report.Dir.
package sweep
