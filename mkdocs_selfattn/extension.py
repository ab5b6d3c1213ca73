"""Python-Markdown adapter (placeholder until the extension issue): see plugin.py for MkDocs."""
