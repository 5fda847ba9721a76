"""The grader's process: the pipeline and the grading server it forks judges from."""
