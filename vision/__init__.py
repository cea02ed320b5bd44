"""Finding and reading playing cards in photos (OpenCV, pure functions on arrays)."""
