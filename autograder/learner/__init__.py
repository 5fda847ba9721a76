"""The learner's process: the only code its zygote and child load (with lesson3's public modules)."""
