"""Macro Q&A screen (seed 004): rule router, LangGraph supervisor, domain agents."""
