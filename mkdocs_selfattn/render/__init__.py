"""Pure renderers: results in, text out. Only ``chart`` touches matplotlib, and only when called."""
