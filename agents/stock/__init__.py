"""Stock report screen (seed 001): research → analysis → recommendation → review on LangGraph."""
