"""The course's data: the levels, the criteria, the catalogue of texts, the lesson map."""
