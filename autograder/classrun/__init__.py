"""The class run: a class collected, planned across shards, graded, a person's decisions carried, its reports
written and its folder finished (run), for the command line, Gradescope's container (gradescope) and the
parts of a class graded on several machines (shards) alike; and the run's progress (progress)."""
