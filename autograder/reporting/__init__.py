"""Reporting: the reports a run writes (results.json, grades.csv, feedback, the class summary, Gradescope's
results.json, the LMS's own CSVs filled), the one reader of results.json (results_json), and the output
folder they are written into (out_folder)."""
