"""Each layout's default printout: the formats of the course's three scripts written in terms of
roles (candidate, role, group, head), not of one file's column names, so any file of the same
layout prints the way its chapter's script would."""

from __future__ import annotations

TARGETS_TEMPLATE = """\
csv_rows = {{ csv_rows }}
focus_document_rows = {{ document_rows }}
baseline_representation = {{ baseline | r3 }}

{% for t in targets %}
target_token = {{ t.display }}
{% for c in t.candidates %}
{{ c.display }} weight = {{ c.weight | r3 }} role = {{ c.role }} vector = {{ c.vector | r3 }}
{% endfor %}
new_representation = {{ t.context | r3 }}
representation_shift = {{ t.shift | r3 }}
top_token = {{ t.top.display }}
{% for name, weight in t.groups.items() %}
{{ name }}_weight = {{ weight | r3 }}
{% endfor %}

{% endfor %}
"""
"""The targets layout (as a script such as ``self_attention_memo.py`` prints it): the
document, then per target every candidate."""

QUESTIONS_TEMPLATE = """\
{% for g in groups %}
{% if groups | length > 1 %}
[{{ g.name }}]
{% endif %}
{% for q in g.queries %}
question = {{ q.label }}
csv_rows = {{ csv_rows }}
baseline_uniform_context = {{ g.baseline | r3 }}
context = {{ q.context | r3 }}
shift_from_baseline = {{ q.shift | r3 }}
{% for line in q.top %}
{{ line.token }}{% if line.role %} {{ line.role }}{% endif %} weight = {{ line.weight | r3 }} \
signal = {{ line.cells[value_column] if value_column else line.vector | r3 }}
{% endfor %}

{% endfor %}
{% endfor %}
"""
"""The questions layout (as a script such as ``attention_manual_lines.py`` prints it):
per question its context and top lines; the signal is
the value cell as written when one CSV column is the value (else the projected vector)."""

HEADS_TEMPLATE = """\
csv_rows = {{ csv_rows }}
focus_report_rows = {{ document_rows }}
context_axes = {{ axes }}

{% for g in groups %}
{% set width = g.heads | map(attribute="name") | map("length") | max + 8 %}
{% set others = g.heads[1:] if g.heads | length > 2 else g.heads %}
[{{ g.name }}]
tokens = {{ g.candidates | map(attribute="token") | list }}
{% for h in g.heads %}
{{ (h.name ~ "_context").ljust(width) }} = {{ h.context | r3 }}
{% endfor %}
difference_from_single = {{ g.difference | r3 }}
{% if others | length == 2 %}
head_separation = {{ g.separation(others[0].name, others[1].name) | r3 }}
{% else %}
{% for a in others %}
{% for b in others[loop.index:] %}
head_separation[{{ a.name }}, {{ b.name }}] = {{ g.separation(a.name, b.name) | r3 }}
{% endfor %}
{% endfor %}
{% endif %}

{% endfor %}
"""
"""The heads layout (as a script such as ``multihead_report_scenarios.py`` prints it):
per group each head's context (``=`` aligned),
the differences from the reference head, and the separation of the two other heads (with more
heads, of every pair of them)."""
