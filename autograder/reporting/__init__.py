"""Reporting: results.json, grades.csv, feedback, the class summary, Gradescope, merged parts."""
