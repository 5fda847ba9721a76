"""The grader's process: the pipeline, and the handle on the grading zygote that forks the judging processes."""
