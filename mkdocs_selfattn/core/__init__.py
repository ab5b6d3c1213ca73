"""The attention core: CSV bytes -> one table -> the engine -> result records, for every layout.

No MkDocs, Markdown or matplotlib here; numpy and pyarrow load only where a file needs them.
"""
