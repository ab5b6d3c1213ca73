"""Page text -> block specs and inline references: scanning, block YAML, keys as data, paths,
languages and shared example files.
"""
