"""Distribution: what leaves the instructor's checkout for others to run — the learner's edition (release)
and Gradescope's bundle (bundle)."""
