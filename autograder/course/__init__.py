"""The course's data: the criteria, the catalogue of texts, the lesson map."""
