"""Whole-document checking: a brief (text, Markdown, PDF or Word) in, every citation checked.

The text extraction stage lives in ``_extract``; it turns a file or submitted text into
one string whose offsets the results' positions index.
"""
