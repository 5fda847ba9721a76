"""Intake: files, folders and LMS zips become submissions, trusting none of them."""
