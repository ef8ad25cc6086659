"""Asking a system a question: the request built from a user's inputs, and the variant of the rules it is asked under.

It stands above the systems' registry (it reads their questions and rules) and below everything that asks.
"""
