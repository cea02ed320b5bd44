"""Small model files shipped with the scanner (trained by scripts/train_reader.py)."""
