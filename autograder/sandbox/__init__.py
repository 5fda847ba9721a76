"""The grader's side of the learner's process: the learner zygote started and the machine's protections read
in the grader's process (learner_zygote, learner_process), the child spoken to from the judging process
(learner_process, session). The learner's own side is :mod:`autograder.learner`."""
