"""Hostile and broken input: nothing leaks, nothing is lost, every error is clear."""
