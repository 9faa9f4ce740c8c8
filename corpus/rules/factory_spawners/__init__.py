"""Spawners handed a function, which they call and start as a task."""
