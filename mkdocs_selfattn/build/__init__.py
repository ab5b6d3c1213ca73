"""The plain pipeline: a spec -> files -> results (cached) -> the pieces of each view, with the
scheduler, the workers and their jobs, the cache, page memos and example scripts.
"""
